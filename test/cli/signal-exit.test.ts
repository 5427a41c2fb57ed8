// SIGTERM stopping a long command (export, import) exits 143 (128 + 15) and SIGINT 130, alike for every command; no temp file stays.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { bigProject } from "../helpers/big-project.js";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());


/** Runs `cairn …args` and sends `signal` once `ready()` holds (polled), then waits for the exit. */
function runUntil(p: string, args: string[], signal: NodeJS.Signals, ready: () => boolean): Promise<{ code: number | null; stdout: string; stderr: string; sent: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "--project", p, ...args], { cwd: p, env: sb.env });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const poll = setInterval(() => {
      if (!ready()) return;
      clearInterval(poll);
      sent = true;
      child.kill(signal);
    }, 2);
    child.on("close", (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr, sent });
    });
  });
}

test("SIGTERM during an export to a file exits 143 (SIGINT's 130 is for Ctrl-C), the old file kept and no temp file left", { timeout: 600_000 }, async () => {
  const p = await bigProject(sb, "export-term", 20_000);
  const out = path.join(sb.root, "out");
  fs.mkdirSync(out);
  const target = path.join(out, "backup.jsonl");
  fs.writeFileSync(target, "the previous backup\n");
  const tempSeen = () => fs.readdirSync(out).some((n) => n.endsWith(".tmp"));
  const r = await runUntil(p, ["export", target, "--force"], "SIGTERM", tempSeen);
  assert.ok(r.sent, r.stderr);
  assert.equal(r.code, 143, `${r.stdout}\n${r.stderr}`);
  assert.deepEqual(fs.readdirSync(out), ["backup.jsonl"], "no temp file left behind");
  assert.equal(fs.readFileSync(target, "utf8"), "the previous backup\n");
  assert.equal(r.stderr.trim().split("\n").length, 1, `one line: ${r.stderr}`);
});

test("SIGTERM during an import exits 143 after keeping the batch in flight, as Ctrl-C exits 130", { timeout: 600_000 }, async () => {
  const p = sb.project("import-term");
  const file = path.join(p, "memories.jsonl");
  const lines: string[] = [];
  for (let i = 0; i < 20_000; i++) lines.push(JSON.stringify({ id: `mem-${i}`, information: `In services/billing-${i}/worker.ts retry the ledger-${i} webhook at most ${(i % 7) + 2} times before paging on-call; a retry storm took ledger-${i} down.` }));
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  const db = path.join(p, ".swarm", "cairn.db");
  let seenAt = 0;
  const r = await runUntil(p, ["import", file, "--json"], "SIGTERM", () => {
    if (!fs.existsSync(db)) return false;
    seenAt ||= Date.now();
    return Date.now() - seenAt > 1500;
  });
  assert.equal(r.code, 143, `${r.stdout}\n${r.stderr}`);
  assert.equal(JSON.parse(r.stdout).interrupted, true);
});
