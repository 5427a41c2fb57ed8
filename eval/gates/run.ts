// The write gates on material nobody on this project wrote: secrets, injections, legitimate rules, warnings.
// Prints per-family secret detection, every false rejection with its reason, the four headline rates,
// and whether any detected secret left a byte on disk; exits 1 when a target is missed.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openCairn } from "../../src/engine.js";
import { validateLessonText } from "../../src/quality/gates.js";
import type { GateResult } from "../../src/quality/types.js";

process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});
const here = path.dirname(fileURLToPath(import.meta.url));
const json = process.argv.includes("--json");
const read = <T>(name: string): T[] =>
  readFileSync(path.join(here, name), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as T);

interface SecretRow { family: string; source: string; origin: string; secret: string; lesson: string }
interface InjectionRow { lang: string; source: string; variant: string; text: string }
interface TextRow { source: string; origin: string; text: string; label: string; note?: string }

const secrets = read<SecretRow>("secrets.jsonl");
const injections = read<InjectionRow>("injections.jsonl");
const rules = read<TextRow>("legit-rules.jsonl");
const warnings = read<TextRow>("warnings.jsonl");

const TARGETS = { secrets: 0.97, injections: 0.9, rules: 0.97, warnings: 1 };

/** Stored as ordinary advice: passed, and not held back as a draft for a person. */
function acceptedAsAdvice(g: GateResult): boolean {
  return g.ok && !g.issues.some((i) => i.severity === "review");
}
const reasons = (g: GateResult) => g.issues.filter((i) => i.severity !== "warn").map((i) => `${i.code}`).join(", ");

// ---- secrets ----
const byFamily = new Map<string, { n: number; hit: number }>();
const bySource = new Map<string, { n: number; hit: number }>();
const missed: SecretRow[] = [];
for (const r of secrets) {
  const g = validateLessonText(r.lesson);
  const hit = g.issues.some((i) => i.layer === "secret" && i.severity === "reject") && !g.text.includes(r.secret);
  for (const [map, key] of [[byFamily, r.family], [bySource, r.source]] as const) {
    const row = map.get(key) ?? { n: 0, hit: 0 };
    row.n++;
    if (hit) row.hit++;
    map.set(key, row);
  }
  if (!hit) missed.push(r);
}
const secretRate = (secrets.length - missed.length) / secrets.length;

// ---- nothing of a detected secret reaches the disk: real stores, a small rejected-list cap so rows are deleted ----
const detected = secrets.filter((r) => !missed.includes(r));
const root = mkdtempSync(path.join(os.tmpdir(), "cairn-eval-gates-"));
const projectDir = path.join(root, "project");
const hivePath = path.join(root, "hive", "hive.db");
// A hive path given by a setting must be in a folder that exists (a missing one is refused as a typo).
mkdirSync(path.dirname(hivePath), { recursive: true });
const env = { ...process.env, HOME: root, XDG_DATA_HOME: path.join(root, "data"), XDG_CONFIG_HOME: path.join(root, "config"), CAIRN_HIVE: hivePath };
const cairn = await openCairn({ projectDir, hivePath, env, config: { knowledge: { rejected_max_entries: 25 } } });
let halfway: string[] = [];
for (const [i, r] of detected.entries()) {
  await cairn.add({ lesson: r.lesson }, i % 3 === 0 ? { tier: "hive" } : {});
  if (i === Math.floor(detected.length / 2)) halfway = onDisk(root, detected.slice(0, i + 1));
}
const open = onDisk(root, detected);
await cairn.close();
const closed = onDisk(root, detected);
rmSync(root, { recursive: true, force: true });

/** Which secrets' bytes appear in any file under `dir` (databases, -wal, -shm, mirrors, logs). */
function onDisk(dir: string, rows: SecretRow[]): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(dir);
  const contents = files.map((f) => readFileSync(f));
  return rows.filter((r) => contents.some((b) => b.includes(Buffer.from(r.secret)))).map((r) => `${r.family}:${r.origin}`);
}
const leaked = [...new Set([...halfway, ...open, ...closed])];

// ---- injections ----
const inj = injections.map((r) => ({ r, g: validateLessonText(r.text) }));
const injRejected = inj.filter((x) => !x.g.ok);
const injAsInjection = inj.filter((x) => x.g.issues.some((i) => i.code === "prompt_injection" && i.severity === "reject"));
const injRate = injRejected.length / inj.length;
const slices = new Map<string, { n: number; rejected: number; asInjection: number }>();
for (const x of inj) {
  for (const key of [`lang:${x.r.lang}`, `variant:${x.r.variant}`]) {
    const s = slices.get(key) ?? { n: 0, rejected: 0, asInjection: 0 };
    s.n++;
    if (!x.g.ok) s.rejected++;
    if (x.g.issues.some((i) => i.code === "prompt_injection")) s.asInjection++;
    slices.set(key, s);
  }
}

// ---- legitimate rules and warnings ----
const judge = (rows: TextRow[]) => rows.map((r) => ({ r, g: validateLessonText(r.text) }));
const ruleRuns = judge(rules.filter((r) => r.label === "rule"));
const generic = judge(rules.filter((r) => r.label === "generic"));
const warnRuns = judge(warnings.filter((r) => r.label === "warning"));
const ruleRate = ruleRuns.filter((x) => acceptedAsAdvice(x.g)).length / ruleRuns.length;
const warnRate = warnRuns.filter((x) => acceptedAsAdvice(x.g)).length / warnRuns.length;

const round = (x: number) => Math.round(x * 1000) / 1000;
const pass = {
  secrets: secretRate >= TARGETS.secrets && leaked.length === 0,
  injections: injRate >= TARGETS.injections,
  rules: ruleRate >= TARGETS.rules,
  warnings: warnRate >= TARGETS.warnings,
};

if (json) {
  console.log(JSON.stringify({
    secrets: { n: secrets.length, families: byFamily.size, detected: round(secretRate), leaked_on_disk: leaked, byFamily: Object.fromEntries(byFamily), bySource: Object.fromEntries(bySource), missed },
    injections: { n: inj.length, rejected: round(injRate), rejected_as_injection: round(injAsInjection.length / inj.length), slices: Object.fromEntries(slices), accepted: inj.filter((x) => x.g.ok).map((x) => x.r) },
    rules: { n: ruleRuns.length, accepted: round(ruleRate), false_rejections: ruleRuns.filter((x) => !acceptedAsAdvice(x.g)).map((x) => ({ text: x.r.text, origin: x.r.origin, reasons: reasons(x.g) })), generic: { n: generic.length, accepted: generic.filter((x) => acceptedAsAdvice(x.g)).length } },
    warnings: { n: warnRuns.length, accepted: round(warnRate), false_rejections: warnRuns.filter((x) => !acceptedAsAdvice(x.g)).map((x) => ({ text: x.r.text, origin: x.r.origin, reasons: reasons(x.g) })) },
    pass,
  }, null, 2));
} else {
  console.log(`Secrets: ${secrets.length} in ${byFamily.size} provider families`);
  console.log("family               n  detected");
  for (const [fam, s] of [...byFamily].sort((a, b) => a[0].localeCompare(b[0]))) {
    console.log(`${fam.padEnd(18)} ${String(s.n).padStart(3)}  ${s.hit}/${s.n}${s.hit < s.n ? "  ←" : ""}`);
  }
  console.log("\nby source: " + [...bySource].map(([k, s]) => `${k} ${s.hit}/${s.n}`).join(", "));
  for (const m of missed) console.log(`  missed [${m.family}] ${m.origin}: ${m.lesson.slice(0, 140).replace(/\n/g, "⏎")}`);
  console.log(`Raw bytes of a detected secret on disk (.swarm/, hive, -wal, -shm; mid-run, open, closed; rejected-list cap 25): ${leaked.length === 0 ? "none" : leaked.join(", ")}`);

  console.log(`\nInjections: ${inj.length}; rejected ${injRejected.length} (${injAsInjection.length} as prompt_injection, the rest by other gates)`);
  for (const [k, s] of [...slices].sort()) console.log(`  ${k.padEnd(22)} ${s.rejected}/${s.n} rejected, ${s.asInjection} as injection`);
  for (const x of inj.filter((y) => y.g.ok)) console.log(`  accepted [${x.r.lang}/${x.r.variant}] ${x.r.text.slice(0, 150).replace(/\n/g, "⏎")}`);

  const falseRejections = (title: string, runs: typeof ruleRuns) => {
    const bad = runs.filter((x) => !acceptedAsAdvice(x.g));
    console.log(`\n${title}: ${runs.length - bad.length}/${runs.length} accepted as advice`);
    for (const x of bad) console.log(`  refused (${reasons(x.g)}) ${x.r.origin}: ${x.r.text.slice(0, 160)}`);
  };
  falseRejections("Legitimate rules", ruleRuns);
  if (generic.length) console.log(`  (+${generic.length} generic rules naming nothing, reported apart: ${generic.filter((x) => acceptedAsAdvice(x.g)).length} accepted)`);
  falseRejections("Warnings against dangerous practice", warnRuns);

  console.log("\n| rate | value | target |\n| --- | --- | --- |");
  console.log(`| secrets detected (masked, 0 bytes on disk) | ${round(secretRate)} | ≥ ${TARGETS.secrets}, 0 bytes: ${leaked.length === 0 ? "yes" : "NO"} |`);
  console.log(`| injections rejected | ${round(injRate)} | ≥ ${TARGETS.injections} |`);
  console.log(`| legitimate rules accepted | ${round(ruleRate)} | ≥ ${TARGETS.rules} |`);
  console.log(`| warnings accepted | ${round(warnRate)} | = ${TARGETS.warnings} |`);
}
if (!Object.values(pass).every(Boolean)) process.exitCode = 1;
