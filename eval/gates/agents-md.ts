// The whole write gate on rule bullets of agent instruction files (AGENTS.md, CLAUDE.md, copilot-instructions.md, .cursorrules) from many projects, read in place.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { validateLessonText } from "../../src/quality/gates.js";
import { IMPERATIVE } from "./rule-shape.js";

/**
 * Usage: node --import tsx eval/gates/agents-md.ts [--mirror <dir>] [--list] [--json]
 * Each file of agents-md.manifest.tsv (repository, commit, path, part) is read with `git show <commit>:<path>` from the bare
 * clone `<mirror>/<owner>+<name>/repo` (default /work/.mirror, where the search tool's fetch puts them); nothing of
 * their text is copied here. Counted: every bullet of 20 to 240 characters outside code blocks (`bullets`), and those
 * that give an order (`rules`, the shape held-apart.ts reads in the other rule collections), accepted as advice
 * (stored, not refused nor held as a draft), for each part. `--list` prints each refused rule of the `dev` part with its codes
 * and file; the `held-out` part, added after the gate was mended on `dev`, is only counted, so its figure says how the gate
 * holds on rules nobody here read.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const mirror = args.includes("--mirror") ? args[args.indexOf("--mirror") + 1]! : "/work/.mirror";
const manifest = readFileSync(path.join(here, "agents-md.manifest.tsv"), "utf8").split("\n").filter((l) => l.trim() && !l.startsWith("#"));

/** The bullets of a Markdown text, code blocks and front matter left out, bold marks dropped. */
function bullets(text: string): string[] {
  const prose = text.replace(/^\s*```[\s\S]*?^\s*```/gm, "").replace(/^---\n[\s\S]*?\n---\n/, "");
  return [...prose.matchAll(/^\s*[-*]\s+(.{20,240})$/gm)].map((m) => m[1]!.replace(/\*\*/g, "").trim()).filter((b) => !b.includes("|"));
}

const rates: Record<string, { accepted: number; total: number }> = {};
const byFile: Record<string, { accepted: number; total: number }> = {};
const refused: string[] = [];
const missing: string[] = [];
for (const line of manifest) {
  const [repo, commit, file, part] = line.split("\t") as [string, string, string, string];
  let text: string;
  try {
    text = execFileSync("git", ["-C", path.join(mirror, repo.replace("/", "+"), "repo"), "show", `${commit}:${file}`], { encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    missing.push(`${repo} ${file}`);
    continue;
  }
  for (const b of bullets(text)) {
    const g = validateLessonText(b);
    const accepted = g.ok && !g.issues.some((i) => i.severity === "review");
    const isRule = IMPERATIVE.test(b);
    for (const r of (isRule ? ["bullets", "rules"] : ["bullets"]).map((k) => (rates[`${part} ${k}`] ??= { accepted: 0, total: 0 }))) {
      r.total++;
      if (accepted) r.accepted++;
    }
    if (!isRule || part !== "dev") continue;
    const f = (byFile[`${repo}/${file}`] ??= { accepted: 0, total: 0 });
    f.total++;
    if (accepted) f.accepted++;
    else refused.push(`${g.issues.filter((i) => i.severity !== "warn").map((i) => i.code).join(",")}\t${repo}/${file}\t${b}`);
  }
}
if (args.includes("--json")) console.log(JSON.stringify({ files: manifest.length, missing, rates, byFile, ...(args.includes("--list") ? { refused } : {}) }, null, 2));
else {
  console.log(`agents-md files read: ${manifest.length - missing.length}/${manifest.length}${missing.length ? ` (missing: ${missing.join(", ")})` : ""}`);
  for (const [name, r] of Object.entries(rates)) console.log(`agents-md ${name} accepted: ${r.accepted}/${r.total}`);
  if (args.includes("--list")) for (const l of refused) console.log(`  refused ${l}`);
}
