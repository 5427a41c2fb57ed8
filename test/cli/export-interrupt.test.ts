// Ctrl-C during `cairn export <file>`: the file is left as it was, no temp file stays behind, exit 130 with one JSON error under --json.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

/** A project database of `n` long lessons written straight to the store (the gates are not under test): an export of it takes a while. */
async function bigProject(n: number): Promise<string> {
  const p = sb.project("big");
  const store = new SqliteStore(path.join(p, ".swarm", "cairn.db"), "swarm");
  const at = new Date().toISOString();
  const pending: Promise<unknown>[] = [];
  store.driver.transaction(() => {
    for (let i = 0; i < n; i++) {
      const lesson = `In services/billing-${i}/worker.ts retry the ledger-${i} webhook at most ${(i % 7) + 2} times before paging on-call; ` + `a retry storm of ledger-${i} filled queue ${i} and `.repeat(12) + "took the service down.";
      const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson: lesson.slice(0, 1900), category: "tooling", kind: "learning", created_at: at, updated_at: at });
      pending.push(store.insertEntry(e, { type: "created", actor: "human:test" }));
    }
  });
  await Promise.all(pending);
  await store.close();
  return p;
}

/** Runs the export and sends SIGINT as soon as its temp file appears beside the target. */
function exportInterrupted(p: string, target: string, json: boolean): Promise<{ code: number | null; stdout: string; stderr: string; signalled: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "--project", p, "export", target, ...(json ? ["--json"] : [])], { cwd: p, env: sb.env });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const poll = setInterval(() => {
      if (!fs.readdirSync(path.dirname(target)).some((n) => n.endsWith(".tmp"))) return;
      clearInterval(poll);
      signalled = true;
      child.kill("SIGINT");
    }, 2);
    child.on("exit", (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr, signalled });
    });
  });
}

test("Ctrl-C during an export to a file: the old file stays as it was, no temp file is left, exit 130 saying so (one JSON error with --json)", { timeout: 600_000 }, async () => {
  const p = await bigProject(20_000);
  const out = path.join(sb.root, "out");
  fs.mkdirSync(out);
  const target = path.join(out, "backup.jsonl");
  fs.writeFileSync(target, "the previous backup\n");
  for (const json of [false, true]) {
    const r = await exportInterrupted(p, target, json);
    assert.ok(r.signalled, `the export's temp file was seen: ${r.stderr}`);
    assert.deepEqual(fs.readdirSync(out), ["backup.jsonl"], `no temp file left behind (json ${json})`);
    assert.equal(fs.readFileSync(target, "utf8"), "the previous backup\n", "the old file is untouched");
    assert.equal(r.code, 130, `${r.stdout}\n${r.stderr}`);
    if (json) {
      const body = JSON.parse(r.stdout);
      assert.equal(body.error.code, "INTERRUPTED");
      assert.ok(body.error.message.includes(target), body.error.message);
    } else {
      assert.match(r.stderr, /stopped/);
      assert.ok(r.stderr.includes(target), r.stderr);
    }
  }
});
