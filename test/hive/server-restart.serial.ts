// The PostgreSQL server stopped and started under a live session. Stopping the shared server must not overlap any other
// PostgreSQL test, so this file is not part of \`npm test\`: \`npm run test:pg-restart\` runs it on its own (CI does, after npm test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { makeSandbox, removeSandbox, runWorker } from "../fixtures/workers/sandbox.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { assertNothingLost, parse, waitForAcks } from "./session-log.js";

const run = promisify(execFile);

const STOP_ENABLED = process.env.CI === "true" || process.env.CAIRN_TEST_PG_RESTART === "1";

/** The local cluster's version directory (15 here), for pg_ctlcluster. */
function clusterVersion(): string {
  return fs.readdirSync("/etc/postgresql").sort().pop() ?? "15";
}

async function ctl(action: "stop" | "start"): Promise<void> {
  await run("pg_ctlcluster", ["--skip-systemctl-redirect", clusterVersion(), "main", action, ...(action === "stop" ? ["-m", "fast"] : [])], { timeout: 60_000 });
}

async function waitForServer(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await adminQuery(url, "SELECT 1");
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await sleep(200);
    }
  }
}

test(
  "the server stopped and started during a session: injection keeps answering, writes wait in the outbox and replay after the restart",
  { ...(pgTestOptions().skip ? pgTestOptions() : STOP_ENABLED ? {} : { skip: "stops the shared server: runs in CI, or with CAIRN_TEST_PG_RESTART=1" }), timeout: 300_000 },
  async (t) => {
    const url = pgTestUrl()!;
    const schema = uniqueSchema("stop");
    const sb = makeSandbox();
    let stoppedAt = 0;
    let startedAt = 0;
    try {
      const session = runWorker("hive-session-worker.ts", [sb.projectDir, url, schema], sb.env);
      await session.waitForLine(/^READY$/);
      await waitForAcks(session, 10);
      try {
        stoppedAt = Date.now();
        await ctl("stop");
        // Seconds, not longer: other tests share this server.
        await sleep(1000);
      } finally {
        await ctl("start");
        startedAt = Date.now();
        await waitForServer(url);
      }
      await waitForAcks(session, parse(session.stdoutLines().join("\n")).acks.length + 5);
      session.send("stop");
      const result = await session.done;
      const log = await assertNothingLost(url, schema, result);
      const down = log.injects.filter((i) => i.at > stoppedAt + 500 && i.at < startedAt);
      assert.ok(down.length > 0, "injections ran while the server was down");
      assert.ok(down.every((i) => i.entries >= 1), "and each answered");
      assert.ok(down.some((i) => i.hive >= 1), "with hive lessons from the recent results");
      const queued = log.acks.filter((a) => a.action === "queued");
      assert.ok(queued.length > 0, "writes made while it was down were queued");
      t.diagnostic(`server down ${startedAt - stoppedAt} ms; ${down.length} injections answered meanwhile; ${queued.length} writes queued and replayed; ${log.acks.length} acknowledged in all`);
    } finally {
      // Never leave the shared server stopped, whatever failed above.
      await ctl("start").catch(() => {});
      await waitForServer(url).catch(() => {});
      await dropSchema(url, schema).catch(() => {});
      removeSandbox(sb);
    }
  },
);
