// Cairn's own processes (the CLI and an import's worker thread) compile the gates' patterns at their first run instead of interpreting them first.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN } from "../helpers/cli.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const sb = makeSandbox();
after(() => removeSandbox(sb));

/**
 * V8's --trace-regexp-tier-up prints one "bytecode size" line for each pattern made for its interpreter, and one "native
 * code size" line for each compiled to machine code. Interpreted first, the gates' large alternations cost a first
 * lesson ~350 ms and the next few hundred ~0.8 ms each (docs/performance.md).
 */
function regexpCompiles(args: string[]): Promise<{ interpreted: number; native: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--trace-regexp-tier-up", ...args], { cwd: sb.root, env: sb.env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`));
      const count = (re: RegExp) => stdout.split("\n").filter((l) => re.test(l)).length;
      resolve({ interpreted: count(/^JSRegExp object \S+ bytecode size/), native: count(/^JSRegExp object \S+ native code size/), output: stdout });
    });
  });
}

function assertCompiledAtFirstRun(what: string, r: { interpreted: number; native: number }): void {
  // The trace must be there to read: a V8 that prints it otherwise fails here, not silently below.
  assert.ok(r.native >= 50, `${what}: expected V8's regexp trace to show the gates' patterns compiled, saw ${r.native}`);
  // Only patterns run while modules load, before the entry point sets the flag, may still be interpreted first.
  assert.ok(r.interpreted * 5 <= r.native, `${what}: ${r.interpreted} patterns interpreted first against ${r.native} compiled`);
}

const LESSON = "Run the payments migration with --lock-timeout 5s before deploying, or the orders table stays locked for minutes.";

test("a cairn add compiles the gates' patterns at their first run", async () => {
  const r = await regexpCompiles([BIN, "--project", sb.projectDir, "--hive", sb.hivePath, "--json", "add", LESSON, "--category", "debugging"]);
  assert.match(r.output, /"action": "added"/);
  assertCompiledAtFirstRun("cairn add", r);
});

test("a cairn import large enough for its worker thread compiles the patterns at their first run", async () => {
  const file = path.join(sb.root, "lessons.jsonl");
  // Over a megabyte: parsed and gated in the import's worker thread, which starts after the entry point ran.
  const rows = Array.from({ length: 6000 }, (_, i) => JSON.stringify({ id: `k-${i}`, lesson: `Run migration ${i} of the payments schema with --lock-timeout 5s before deploying, or the table orders_${i} stays locked for minutes while the workers wait.`, category: "debugging" }));
  fs.writeFileSync(file, `${rows.join("\n")}\n`);
  assert.ok(fs.statSync(file).size > 1024 * 1024);
  const r = await regexpCompiles([BIN, "--project", sb.projectDir, "--hive", sb.hivePath, "--json", "import", file, "--format", "opencode-swarm", "--trusted"]);
  assert.match(r.output, /"imported": 6000/);
  assertCompiledAtFirstRun("cairn import", r);
});
