// Ctrl-C in the middle of `cairn import`: it stops after the batch in flight, says what was kept and how to finish, exit 130.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

/** Distinct lessons in swarm-tools' format: far more than a busy machine imports in the seconds before the signal. */
function memories(dir: string, rows: number): string {
  const file = path.join(dir, "memories.jsonl");
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    lines.push(JSON.stringify({ id: `mem-${i}`, information: `In services/billing-${i}/worker.ts retry the ledger-${i} webhook at most ${i % 7 + 2} times before paging on-call; a retry storm took ledger-${i} down.` }));
  }
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

interface Interrupted {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the import and sends SIGINT once `ready(stderr)` holds (polled), then waits for the exit. */
function importUntil(project: string, file: string, extra: string[], ready: (stderr: string) => boolean): Promise<Interrupted> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "--project", project, "import", file, ...extra], { cwd: project, env: sb.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const poll = setInterval(() => {
      if (!ready(stderr)) return;
      clearInterval(poll);
      child.kill("SIGINT");
    }, 50);
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr });
    });
  });
}

async function storedLessons(project: string): Promise<number> {
  const stats = await sb.json(project, "stats", "--tier", "swarm");
  assert.equal(stats.code, 0, stats.stderr);
  return stats.body.tiers[0].total;
}

test("Ctrl-C during an import (text): the summary says interrupted and how many were kept, the advice says how to finish, exit 130", async () => {
  const p = sb.project("interrupt-text");
  const file = memories(p, 20_000);
  // The first progress line comes after a committed batch, a few seconds in: rows are being written.
  const r = await importUntil(p, file, [], (err) => err.includes("importing…"));
  assert.equal(r.code, 130, `${r.stdout}\n${r.stderr}`);
  const summary = /^interrupted: imported (\d+), /m.exec(r.stdout);
  assert.ok(summary, `the summary says it was interrupted:\n${r.stdout}`);
  assert.match(r.stderr, /run the same import again/i);
  assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  const imported = Number(summary[1]);
  assert.ok(imported > 0 && imported < 20_000, `some rows, not all: ${imported}`);
  assert.equal(await storedLessons(p), imported, "what the summary counts is what the database holds");
  const doctor = await sb.json(p, "doctor");
  assert.equal(doctor.body.ok, true, doctor.stdout);
});

test("Ctrl-C during an import --json: stdout is still one JSON value, the report with interrupted: true, exit 130", async () => {
  const p = sb.project("interrupt-json");
  const file = memories(p, 20_000);
  const db = path.join(p, ".swarm", "cairn.db");
  let seenAt = 0;
  // --json on a pipe prints no progress: the database appearing (and a moment for the first rows) says it is writing.
  const r = await importUntil(p, file, ["--json"], () => {
    if (!fs.existsSync(db)) return false;
    seenAt ||= Date.now();
    return Date.now() - seenAt > 1500;
  });
  assert.equal(r.code, 130, `${r.stdout}\n${r.stderr}`);
  const report = JSON.parse(r.stdout);
  assert.equal(report.interrupted, true);
  assert.equal(typeof report.imported, "number");
  assert.equal(await storedLessons(p), report.imported);
});
