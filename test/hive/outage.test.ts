// Connections to the team database killed mid-write under a live session: nothing acknowledged is lost. (Server stop/start: server-restart.serial.ts.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { makeSandbox, removeSandbox, runWorker } from "../fixtures/workers/sandbox.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { assertNothingLost, parse, waitForAcks } from "./session-log.js";

test("connections killed mid-write (pg_terminate_backend): no acknowledged write lost, injection keeps answering, the outbox replays", { ...pgTestOptions(), timeout: 300_000 }, async (t) => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("kill");
  const app = `cairn_t_${schema.slice(-8)}`;
  const sb = makeSandbox();
  try {
    const session = runWorker("hive-session-worker.ts", [sb.projectDir, `${url}${url.includes("?") ? "&" : "?"}application_name=${app}`, schema], sb.env);
    await session.waitForLine(/^READY$/);
    await waitForAcks(session, 10);
    let killed = 0;
    for (let round = 0; round < 8; round++) {
      const rows = await adminQuery<{ ok: boolean }>(url, "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1", [app]);
      killed += rows.filter((r) => r.ok).length;
      await sleep(150 + round * 40);
    }
    await waitForAcks(session, parse(session.stdoutLines().join("\n")).acks.length + 5);
    session.send("stop");
    const result = await session.done;
    const log = await assertNothingLost(url, schema, result);
    assert.ok(killed > 0, "backends were terminated while the session ran");
    assert.ok(log.injects.every((i) => i.entries >= 1), "every injection answered with at least the project's lesson");
    t.diagnostic(`terminated ${killed} backends; ${log.acks.length} writes acknowledged (${log.acks.filter((a) => a.action === "queued").length} via the outbox); ${log.injects.length} injections, all answered`);
  } finally {
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
});
