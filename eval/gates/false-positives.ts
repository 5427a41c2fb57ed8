// The secrets gate (or, with --injection, the injection gate) on legitimate text: every line of the project's data, seeds, docs and written lessons (and, given, five rule collections) that it flags.
import fs from "node:fs";
import path from "node:path";
import { findInjectionMarkers } from "../../src/quality/injection.js";
import { findSecrets } from "../../src/quality/secrets.js";
import { writtenLessons } from "../retrieval/lessons/index.js";
import { files } from "./checkout.js";

/**
 * Usage: node --import tsx eval/gates/false-positives.ts [--injection] [--copilot <checkout>] [--cursorrules <checkout>] [--continue-rules <checkout>]
 *   [--cursor-rules-mdc <checkout>] [--agent-rules <checkout>] [--list] [--json]
 * None of this text holds a real secret, so a flagged line is a false positive unless reading it shows
 * otherwise (a few lessons state a password on purpose: "My password is secret123"). `--list` prints each
 * flagged line with the rule that flagged it. `--injection` reads each line through the injection gate instead
 * (none of it is an attack: a flagged line is a legitimate one the gate would refuse), listed with the cue's message.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SHARED = path.resolve(ROOT, "../shared");

interface Source { name: string; texts: string[] }

/** Every string value of every row: the text fields, whatever a file calls them. A row that does not parse (two glued together) is read as it is. */
function jsonlTexts(file: string): string[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return Object.values(JSON.parse(l) as Record<string, unknown>).filter((v): v is string => typeof v === "string");
      } catch {
        return [l];
      }
    });
}

function filesIn(dir: string, keep: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(keep).sort().map((f) => path.join(dir, f));
}

function ownSources(): Source[] {
  const read = (f: string) => fs.readFileSync(f, "utf8");
  return [
    { name: "shared data", texts: filesIn(path.join(SHARED, "data"), (f) => f.endsWith(".jsonl")).flatMap(jsonlTexts) },
    { name: "shared seeds", texts: filesIn(path.join(SHARED, "seeds"), (f) => f.endsWith(".txt")).map(read) },
    { name: "docs", texts: [path.join(ROOT, "README.md"), ...filesIn(path.join(ROOT, "docs"), (f) => f.endsWith(".md"))].map(read) },
    { name: "written lessons", texts: writtenLessons().map((l) => l.lesson) },
    { name: "gates rules and warnings", texts: ["legit-rules.jsonl", "warnings.jsonl"].flatMap((f) => jsonlTexts(path.join(ROOT, "eval/gates", f))) },
  ];
}

const args = process.argv.slice(2);
const arg = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
// The checkouts held-apart.ts reads for the vagueness gate, here every line of every Markdown and rule file in them (of
// awesome-cursor-rules-mdc, its generated rules-mdc/: the rest is awesome-cursorrules' own files, converted; of agent-rules,
// Apple's API documentation pasted into docs/ too, code samples and all).
const collections: Array<[string, string | undefined, string]> = [
  ["awesome-copilot", arg("--copilot"), "."],
  ["awesome-cursorrules", arg("--cursorrules"), "."],
  ["continuedev/awesome-rules", arg("--continue-rules"), "."],
  ["awesome-cursor-rules-mdc", arg("--cursor-rules-mdc"), "rules-mdc"],
  ["agent-rules", arg("--agent-rules"), "."],
];
const sources = [
  ...ownSources(),
  ...collections.flatMap(([name, dir, under]) => (dir ? [{ name, texts: files(dir, under, /\.(?:md|mdc|cursorrules)$/).map((f) => f.text) }] : [])),
];

const injection = args.includes("--injection");
const flagged: Array<{ source: string; rules: string[]; line: string }> = [];
const counts: Record<string, { lines: number; flagged: number }> = {};
for (const { name, texts } of sources) {
  const c = (counts[name] = { lines: 0, flagged: 0 });
  for (const line of texts.flatMap((t) => t.split("\n"))) {
    if (!line.trim()) continue;
    c.lines++;
    const rules = injection ? findInjectionMarkers(line).map((i) => i.message) : [...new Set(findSecrets(line).spans.map((s) => s.rule))];
    if (rules.length === 0) continue;
    c.flagged++;
    flagged.push({ source: name, rules, line });
  }
}
const total = Object.values(counts).reduce((a, c) => ({ lines: a.lines + c.lines, flagged: a.flagged + c.flagged }), { lines: 0, flagged: 0 });
if (args.includes("--json")) console.log(JSON.stringify({ counts, total, ...(args.includes("--list") ? { flagged } : {}) }, null, 2));
else {
  for (const [name, c] of Object.entries(counts)) console.log(`${name}: ${c.flagged} of ${c.lines} lines flagged`);
  console.log(`total: ${total.flagged} of ${total.lines} lines flagged`);
  if (args.includes("--list")) for (const f of flagged) console.log(`  [${f.rules.join(",")}] (${f.source}) ${f.line.length > 300 ? `${f.line.slice(0, 300)}…` : f.line}`);
}
