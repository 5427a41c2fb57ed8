// What a hive session worker printed: its injections and acknowledged writes, and the check that none of them was lost.
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { WorkerRun } from "../fixtures/workers/sandbox.js";
import { adminQuery } from "../helpers/pg.js";

export interface SessionLog {
  injects: Array<{ at: number; entries: number; hive: number }>;
  acks: Array<{ at: number; action: string; id: string }>;
  notAcked: string[];
}

export function parse(stdout: string): SessionLog {
  const log: SessionLog = { injects: [], acks: [], notAcked: [] };
  for (const line of stdout.split("\n")) {
    const f = line.split(" ");
    if (f[0] === "INJECT") log.injects.push({ at: Number(f[1]), entries: Number(f[2]), hive: Number(f[3]) });
    else if (f[0] === "ACK") log.acks.push({ at: Number(f[1]), action: f[2]!, id: f[3]! });
    else if (f[0] === "NOT-ACK") log.notAcked.push(line);
  }
  return log;
}

export async function waitForAcks(w: WorkerRun, n: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  let exited = false;
  void w.done.then(() => (exited = true));
  while (parse(w.stdoutLines().join("\n")).acks.length < n) {
    if (exited) throw new Error(`the session exited early: ${(await w.done).stderr.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`the session acknowledged fewer than ${n} writes: ${w.stdoutLines().slice(-5).join(" | ")}`);
    await sleep(50);
  }
}

/** Every acknowledged write is in the hive once the session drained its outbox. */
export async function assertNothingLost(url: string, schema: string, result: { code: number | null; stdout: string; stderr: string }): Promise<SessionLog> {
  assert.equal(result.code, 0, `the session failed: ${result.stderr.slice(0, 2000)}`);
  assert.match(result.stdout, /^SYNCED 0$/m, `the outbox drained: ${result.stdout.split("\n").slice(-4).join(" | ")}`);
  const log = parse(result.stdout);
  assert.deepEqual(log.notAcked, [], "every write was acknowledged (written or queued)");
  const ids = new Set((await adminQuery<{ id: string }>(url, `SELECT id FROM "${schema}".entries`)).map((r) => r.id));
  const lost = log.acks.filter((a) => !ids.has(a.id));
  assert.deepEqual(lost.slice(0, 5), [], `${lost.length} of ${log.acks.length} acknowledged writes are missing`);
  const fps = await adminQuery<{ n: number }>(url, `SELECT count(*)::int AS n FROM (SELECT fingerprint FROM "${schema}".entries GROUP BY fingerprint HAVING count(*) > 1) d`);
  assert.equal(fps[0]!.n, 0, "no write landed twice");
  return log;
}
