// The secret rules against corpora kept out of this repository: trufflehog's detector test values and Nosey Parker's rule examples, read from local checkouts.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { findSecrets } from "../../src/quality/secrets.js";

/**
 * Usage: node --import tsx eval/gates/held-apart.ts [--trufflehog <checkout>] [--noseyparker <checkout>] [--json]
 * Nothing of either corpus is copied here (trufflehog is AGPL-3.0): the checkouts are read where they are.
 */
interface Rate { caught: number; total: number }

/** The texts of the files under `under` ending in `suffix`: from the work tree, or from HEAD in a bare clone. */
function files(checkout: string, under: string, suffix: string): Array<{ name: string; text: string }> {
  const git = (...a: string[]) => execFileSync("git", ["-C", checkout, ...a], { encoding: "utf8", maxBuffer: 256 << 20 });
  const bare = !fs.existsSync(path.join(checkout, under));
  const names = git(...(bare ? ["ls-tree", "-r", "--name-only", "HEAD", "--", under] : ["ls-files", "--", under]))
    .split("\n")
    .filter((f) => f.endsWith(suffix));
  return names.map((name) => ({ name, text: bare ? git("show", `HEAD:${name}`) : fs.readFileSync(path.join(checkout, name), "utf8") }));
}

/** Each detector test's `validPattern`, put in three sentences: an assignment, prose after "API key", and bare. */
function trufflehog(checkout: string): Record<string, Rate> {
  const forms: Record<string, (k: string, v: string) => string> = {
    assignment: (k, v) => `Set ${k} token = '${v}' in the worker config before deploying.`,
    prose: (k, v) => `The ${k} API key ${v} unlocks the sandbox account.`,
    bare: (k, v) => `Calls to ${k} use ${v} from the ops account.`,
  };
  const rates: Record<string, Rate> = Object.fromEntries(Object.keys(forms).map((f) => [f, { caught: 0, total: 0 }]));
  for (const { name, text: src } of files(checkout, "pkg/detectors", "_test.go").filter((f) => !f.name.includes("integration"))) {
    const value = /validPattern\s*=\s*"([^"\n]{8,300})"/.exec(src)?.[1];
    if (!value || /[\s%]/.test(value)) continue;
    const keyword = /keyword\s*=\s*"([^"\n]+)"/.exec(src)?.[1] ?? path.basename(path.dirname(name));
    for (const [form, make] of Object.entries(forms)) {
      rates[form]!.total++;
      if (masks(make(keyword, value), value)) rates[form]!.caught++;
    }
  }
  return rates;
}

/** Each rule's `examples` (caught) and `negative_examples` (flagged: often a real secret of another kind). */
function noseyparker(checkout: string): Record<string, Rate> {
  const rates = { examples: { caught: 0, total: 0 }, negative_examples: { caught: 0, total: 0 } };
  for (const { text } of files(checkout, "crates/noseyparker/data/default/builtin/rules", ".yml")) {
    const doc = parseYaml(text) as { rules?: Array<Record<string, unknown>> };
    for (const rule of doc.rules ?? []) {
      for (const kind of ["examples", "negative_examples"] as const) {
        for (const example of (rule[kind] as string[] | undefined) ?? []) {
          rates[kind].total++;
          const text = `We fixed the deploy after this turned up in the config: ${example.trim()} — keep it out of the repo.`;
          if (findSecrets(text).issues.length > 0) rates[kind].caught++;
        }
      }
    }
  }
  return rates;
}

/** Found, and the middle of the value is gone from the masked text. */
function masks(text: string, value: string): boolean {
  const { issues, masked } = findSecrets(text);
  const from = Math.floor(value.length / 4);
  return issues.length > 0 && !masked.includes(value.slice(from, from + Math.max(6, Math.floor(value.length / 2))));
}

const args = process.argv.slice(2);
const arg = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const trufflehogDir = arg("--trufflehog");
const noseyparkerDir = arg("--noseyparker");
if (!trufflehogDir && !noseyparkerDir) {
  console.error("usage: node --import tsx eval/gates/held-apart.ts [--trufflehog <checkout>] [--noseyparker <checkout>] [--json]");
  process.exit(2);
}
const report = {
  ...(trufflehogDir ? { trufflehog: trufflehog(trufflehogDir) } : {}),
  ...(noseyparkerDir ? { noseyparker: noseyparker(noseyparkerDir) } : {}),
};
if (args.includes("--json")) console.log(JSON.stringify(report, null, 2));
else {
  for (const [corpus, rates] of Object.entries(report)) {
    for (const [name, r] of Object.entries(rates)) console.log(`${corpus} ${name}: ${r.caught}/${r.total}`);
  }
}
