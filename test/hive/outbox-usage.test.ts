// Shown counts queued in the outbox reach the PostgreSQL hive in one statement per item, exactly once per entry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { openCairn } from "../../src/index.js";
import { replayOutbox, teamHive } from "../../src/hive/outbox.js";
import type { Services } from "../../src/services.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

function entry(lesson: string): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
}

test("a queued usage item is one statement on the hive (was a transaction per entry), counted once however often it is replayed", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("usage");
  const sb = makeSandbox();
  const cairn = await openCairn({
    projectDir: sb.projectDir, env: sb.env, actor: "human:ann",
    config: { hive_url: url, hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 } },
  });
  try {
    const s = (cairn as unknown as { services: Services }).services;
    const remote = teamHive(s)!.remote;
    const lessons = ["Run prisma migrate deploy before the container starts", "Pin the node version in CI", "Warm the cache before the load test"];
    const ids: string[] = [];
    for (const l of lessons) ids.push((await remote.insertEntry(entry(l), { type: "created", actor: "test" })).id);
    const gone = newEntryId();
    const queuedAt = "2025-03-01T10:00:00.000Z";
    const payload = { ids: [...ids, gone], counter: "shown", actor: "cairn:inject", data: { agent: "architect" }, at: queuedAt };

    // Every statement and transaction the replay starts on the hive, as the driver is asked for them.
    let calls = 0;
    const query = remote.db.query.bind(remote.db);
    const transaction = remote.db.transaction.bind(remote.db);
    remote.db.query = ((sql: string, params?: readonly unknown[]) => (calls++, query(sql, params))) as typeof remote.db.query;
    remote.db.transaction = ((fn: Parameters<typeof transaction>[0]) => (calls++, transaction(fn))) as typeof remote.db.transaction;

    await s.swarm.enqueueOutbox("usage-1", "usage", payload, queuedAt);
    const report = await replayOutbox(s, remote);
    assert.deepEqual(report, { applied: 1, dead: 0, pending: 0 });
    assert.equal(calls, 1, "three entries' counts, claims and events in one statement");

    // The same item again (a replay cut short before it left the outbox) changes nothing.
    await s.swarm.enqueueOutbox("usage-1", "usage", payload, queuedAt);
    await replayOutbox(s, remote);
    for (const id of ids) {
      const e = (await remote.getEntry(id))!;
      assert.equal(e.usage.shown, 1, "counted once");
      assert.equal(e.usage.last_shown_at, queuedAt, "stamped with the time the turn showed it");
      const shown = (await remote.listEvents(id)).filter((ev) => ev.type === "shown");
      assert.equal(shown.length, 1);
      assert.equal(shown[0]!.actor, "cairn:inject");
      assert.deepEqual(shown[0]!.data, { counter: "shown", agent: "architect", queued_at: queuedAt });
    }
    assert.equal(await remote.getEntry(gone), undefined);
  } finally {
    await cairn.close();
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
});
