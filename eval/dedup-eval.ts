// Precision/recall of the near-duplicate decision on hand-labelled lesson pairs (paraphrase recall on the tuning and held-out halves); fails below 0.98 precision on all pairs or 0.95 on the pre-issue-13 pairs.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compareLessons } from "../src/quality/similarity.js";

interface Pair {
  a: string;
  b: string;
  label: "duplicate" | "distinct";
  type: string;
  source?: string;
}

const PRECISION_FLOOR = 0.95;
// `… | head` closes stdout early; that is not a failure of the evaluation.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});
const args = process.argv.slice(2);
const json = args.includes("--json");
const thresholdArg = args.find((a) => a.startsWith("--threshold="));
const threshold = thresholdArg ? Number(thresholdArg.split("=")[1]) : undefined;
const fileArg = args.find((a) => !a.startsWith("--"));
const file = fileArg ?? fileURLToPath(new URL("./dedup-pairs.jsonl", import.meta.url));

const pairs: Array<Pair & { line: number }> = readFileSync(file, "utf8")
  .split("\n")
  .map((l, i) => [l, i + 1] as const)
  .filter(([l]) => l.trim())
  .map(([l, line]) => {
    const p = { ...(JSON.parse(l) as Pair), line };
    if (typeof p.a !== "string" || typeof p.b !== "string" || !["duplicate", "distinct"].includes(p.label)) {
      throw new Error(`${file}:${line}: needs string a, b and label duplicate|distinct`);
    }
    return p;
  });

/** Pairs added for issue 13 (semantic dedup): paraphrases lexical dedup misses, and look-alikes it must never merge. */
const ISSUE_13 = "issue-13";
/** Issue 13's acceptance on all pairs: the precision is enforced, the recall reported. */
const TARGET = { precision: 0.98, recall: 0.9 };

/**
 * The semantic blend's weight (src/quality/meaning.ts) was chosen on the paraphrase pairs on even
 * lines only; the odd ones are held out, so their recall says how well the choice generalises.
 */
const half = (line: number) => (line % 2 === 0 ? "tuning (even lines)" : "held out (odd lines)");
const paraphrase = new Map<string, { pairs: number; detected: number }>();

let tp = 0, fp = 0, fn = 0, tn = 0;
// The same counts over the pairs that existed before issue 13: the floor below guards them.
let otp = 0, ofp = 0, ofn = 0;
type Row = { pairs: number; predictedDuplicate: number; correct: number; contradiction: number };
const byType = new Map<string, Row>();
const bySource = new Map<string, Row>();
const errors: Array<{ type: string; label: string; predicted: string; similarity: number; reason: string; a: string; b: string }> = [];

for (const p of pairs) {
  const r = threshold === undefined ? compareLessons(p.a, p.b) : compareLessons(p.a, p.b, threshold);
  const truth = p.label === "duplicate";
  if (p.source !== ISSUE_13 && r.duplicate) (truth ? otp++ : ofp++);
  if (p.source !== ISSUE_13 && truth && !r.duplicate) ofn++;
  if (p.type === "paraphrase" && truth) {
    const h = paraphrase.get(half(p.line)) ?? { pairs: 0, detected: 0 };
    h.pairs++;
    if (r.duplicate) h.detected++;
    paraphrase.set(half(p.line), h);
  }
  if (r.duplicate && truth) tp++;
  else if (r.duplicate) fp++;
  else if (truth) fn++;
  else tn++;
  for (const [map, key] of [[byType, p.type], [bySource, p.source ?? "hand-written"]] as const) {
    const row = map.get(key) ?? { pairs: 0, predictedDuplicate: 0, correct: 0, contradiction: 0 };
    row.pairs++;
    if (r.duplicate) row.predictedDuplicate++;
    if (r.duplicate === truth) row.correct++;
    if (r.contradiction) row.contradiction++;
    map.set(key, row);
  }
  if (r.duplicate !== truth) {
    errors.push({ type: p.type, label: p.label, predicted: r.duplicate ? "duplicate" : "distinct", similarity: r.similarity, reason: r.reason, a: p.a, b: p.b });
  }
}

const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);
const precision = ratio(tp, tp + fp);
const recall = ratio(tp, tp + fn);
const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
const round = (x: number) => Math.round(x * 1000) / 1000;
const floorPrecision = ratio(otp, otp + ofp);
const targetMet = precision >= TARGET.precision && recall >= TARGET.recall;

if (json) {
  console.log(JSON.stringify({
    pairs: pairs.length, threshold: threshold ?? 0.6, precision: round(precision), recall: round(recall), f1: round(f1),
    confusion: { tp, fp, fn, tn }, precision_without_issue13: round(floorPrecision), recall_without_issue13: round(ratio(otp, otp + ofn)), paraphrase_recall: Object.fromEntries([...paraphrase].map(([k, h]) => [k, { ...h, recall: round(ratio(h.detected, h.pairs)) }])), issue13_target: { ...TARGET, met: targetMet }, byType: Object.fromEntries(byType), bySource: Object.fromEntries(bySource),
    misclassified: errors,
  }, null, 2));
} else {
  console.log(`${pairs.length} pairs, threshold ${threshold ?? 0.6}`);
  console.log(`precision ${round(precision)}  recall ${round(recall)}  F1 ${round(f1)}  (tp ${tp} fp ${fp} fn ${fn} tn ${tn})`);
  console.log(`issue 13 target (precision ≥ ${TARGET.precision}, recall ≥ ${TARGET.recall} on all pairs): ${targetMet ? "met" : "not met"}`);
  console.log(`on the pairs from before issue 13: precision ${round(floorPrecision)} (floor ${PRECISION_FLOOR}), recall ${round(ratio(otp, otp + ofn))} (issue 12 asks ≥ 0.98 / ≥ 0.85)`);
  for (const [k, h] of [...paraphrase].sort().reverse()) console.log(`paraphrase recall, ${k}: ${round(ratio(h.detected, h.pairs))} (${h.detected}/${h.pairs})`);
  console.log();
  const table = (title: string, rows: Map<string, Row>) => {
    console.log(`${title.padEnd(21)} pairs  →dup  correct  contradiction`);
    for (const [key, r] of [...rows].sort()) {
      console.log(`${key.padEnd(20)} ${String(r.pairs).padStart(6)} ${String(r.predictedDuplicate).padStart(5)} ${String(r.correct).padStart(8)} ${String(r.contradiction).padStart(14)}`);
    }
  };
  table("type", byType);
  console.log();
  table("source", bySource);
  if (errors.length > 0) {
    console.log(`\nmisclassified (${errors.length}):`);
    for (const e of errors) {
      console.log(`- [${e.type}, labelled ${e.label}] sim ${e.similarity}: ${e.reason}\n    a: ${e.a.trim()}\n    b: ${e.b.trim()}`);
    }
  }
}
if (precision < TARGET.precision) {
  console.error(`precision ${round(precision)} on all pairs is below issue 13's ${TARGET.precision}`);
  process.exitCode = 1;
}
if (floorPrecision < PRECISION_FLOOR) {
  console.error(`precision ${round(floorPrecision)} on the pairs from before issue 13 is below ${PRECISION_FLOOR}`);
  process.exitCode = 1;
}
