// The vagueness gate on a fixed hash sample of other people's bullet rules: how many it refuses as vague, and which.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { validateLessonText } from "../../src/quality/gates.js";
import { files } from "./checkout.js";
import { IMPERATIVE } from "./rule-shape.js";

/**
 * Usage: node --import tsx eval/gates/vague-sample.ts [--mirror <dir>] [--per <n>] [--list] [--json]
 * Reads the rule collections from bare clones under `<mirror>/<owner>+<name>/repo` (default /work/.mirror), as held-apart.ts
 * names them. A bullet is a Markdown list item of 20 to 240 characters outside code blocks, bold marks dropped, no table
 * pipe, that gives an order (rule-shape.ts). The sample: each collection's distinct bullets, less those in legit-rules.jsonl,
 * ordered by the SHA-1 of their text, the first `--per` (default 600) of each. Prints, per collection and in all, how many of
 * the sample the write gate refuses with the code `vague`. `--list` prints those of the development collections; the held-out
 * continuedev collection is only counted, never listed (README: its refusals are not read).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const mirror = arg("--mirror") ?? "/work/.mirror";
const per = Number(arg("--per") ?? 600);

const collections: Array<{ repo: string; under: string; suffix: RegExp; heldOut?: boolean }> = [
  { repo: "github/awesome-copilot", under: "instructions", suffix: /\.instructions\.md$/ },
  { repo: "PatrickJS/awesome-cursorrules", under: "rules", suffix: /(?:\.cursorrules|\.mdc)$/ },
  { repo: "sanjeed5/awesome-cursor-rules-mdc", under: "rules-mdc", suffix: /\.mdc$/ },
  { repo: "steipete/agent-rules", under: ".", suffix: /^(?!docs\/(?:appkit|swiftdata|swiftui|uikit)\.md$).*\.mdc?$/ },
  { repo: "continuedev/awesome-rules", under: "rules", suffix: /\.md$/, heldOut: true },
];

const legit = new Set(
  readFileSync(path.join(here, "legit-rules.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text),
);

/** The imperative bullets of a Markdown text, code blocks and front matter left out, bold marks dropped. */
function bullets(text: string): string[] {
  const prose = text.replace(/^\s*```[\s\S]*?^\s*```/gm, "").replace(/^---\n[\s\S]*?\n---\n/, "");
  return [...prose.matchAll(/^\s*[-*]\s+(.{20,240})$/gm)]
    .map((m) => m[1]!.replace(/\*\*/g, "").trim())
    .filter((b) => IMPERATIVE.test(b) && !b.includes("|"));
}

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");
const figures: Record<string, { vague: number; sample: number }> = {};
const listed: string[] = [];
let vague = 0;
let sample = 0;
for (const c of collections) {
  const checkout = path.join(mirror, c.repo.replace("/", "+"), "repo");
  const all = new Set<string>();
  for (const f of files(checkout, c.under, c.suffix)) for (const b of bullets(f.text)) if (!legit.has(b)) all.add(b);
  const chosen = [...all].map((b) => ({ b, h: sha1(b) })).sort((x, y) => x.h.localeCompare(y.h)).slice(0, per);
  const r = (figures[c.repo] = { vague: 0, sample: chosen.length });
  for (const { b } of chosen) {
    if (!validateLessonText(b).issues.some((i) => i.code === "vague")) continue;
    r.vague++;
    if (!c.heldOut) listed.push(`${c.repo}\t${b}`);
  }
  vague += r.vague;
  sample += r.sample;
}
if (args.includes("--json")) console.log(JSON.stringify({ per, figures, vague, sample, ...(args.includes("--list") ? { listed } : {}) }, null, 2));
else {
  for (const [repo, r] of Object.entries(figures)) console.log(`vague-sample ${repo}: ${r.vague}/${r.sample} refused as vague`);
  console.log(`vague-sample all: ${vague}/${sample} refused as vague (first ${per} a collection by SHA-1)`);
  if (args.includes("--list")) for (const l of listed) console.log(`  vague ${l}`);
}
