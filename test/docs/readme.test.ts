// The README's promises that a test can keep: the config reference is generated, and its opening command works as written.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import { withReference } from "../../scripts/gen-config-docs.js";
import { configReference } from "../../src/config.js";
import { REPLACED_DEFAULTS } from "../../src/swarm-config.js";
import { sandbox } from "../helpers/cli.js";

const readme = fs.readFileSync(new URL("../../README.md", import.meta.url), "utf8");

test("README config reference matches the config schema (run `npm run docs` to fix)", () => {
  assert.equal(readme, withReference(readme));
});

test("every opencode-swarm default Cairn replaced is named where a migrating user looks: the key's row of the config reference and the paragraph under it", () => {
  const rows = configReference().split("\n");
  const after = readme.slice(readme.indexOf("<!-- config-reference:end -->"), readme.indexOf("\n## ", readme.indexOf("<!-- config-reference:end -->")));
  assert.ok(Object.keys(REPLACED_DEFAULTS).includes("knowledge.rejected_max_entries"), "opencode-swarm keeps 20 rejected lessons, Cairn 200");
  for (const [key, theirs] of Object.entries(REPLACED_DEFAULTS)) {
    const row = rows.find((r) => r.startsWith(`| \`${key}\` |`)) ?? "";
    assert.match(row, new RegExp(`\\(docs: ${theirs}\\b`), `${key}: ${row}`);
    assert.ok(after.includes(`\`${key.split(".").pop()}\``), `${key} is not named after the config reference`);
  }
});

/** Splits a shell command line into words, honouring double and single quotes (all the README uses). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3]!));
  return out;
}

test("README opens with the install-and-run command and the test command, and the run part works as written", async () => {
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const lines = firstBlock.trim().split("\n");
  assert.equal(lines[1], "npm test");
  const steps = lines[0]!.split(" && ");
  // Installing and building is what `npm test` does too; the rest is the main job, run here with the built CLI.
  assert.deepEqual(steps.slice(0, 2), ["npm install", "npm run build"]);
  const cairn = steps.slice(2).map(words);
  assert.ok(cairn.length >= 2 && cairn.every((w) => w[0] === "npx" && w[1] === "cairn"), lines[0]);
  const sb = sandbox();
  try {
    const project = sb.project("readme");
    const results = [];
    for (const w of cairn) results.push(await sb.raw(w.slice(2), { cwd: project }));
    for (const r of results) assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(results[0]!.stdout, /added S-1/);
    const lesson = cairn[0]![3]!;
    assert.ok(results.at(-1)!.stdout.replace(/\s+/g, " ").includes(lesson.slice(0, 40)), `recall prints the lesson:\n${results.at(-1)!.stdout}`);
  } finally {
    sb.cleanup();
  }
});
