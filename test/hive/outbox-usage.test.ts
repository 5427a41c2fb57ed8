// Shown counts queued in the outbox reach the PostgreSQL hive in one statement per replayed run of items, exactly once per item and entry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { openCairn } from "../../src/index.js";
import { replayOutbox, teamHive } from "../../src/hive/outbox.js";
import type { Services } from "../../src/services.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import Database from "libsql";
import { injectForContext } from "../../src/retrieval/inject.js";
import { asCall } from "../../src/store/between-calls.js";
import type { SqliteStore } from "../../src/store/sqlite-store.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

/** Every statement and transaction the hive's driver is asked for, counted. */
function countStatements(remote: { db: { query: unknown; transaction: unknown } }): () => number {
  const db = remote.db as { query: (...a: unknown[]) => unknown; transaction: (...a: unknown[]) => unknown };
  let calls = 0;
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = (...a: unknown[]) => (calls++, query(...a));
  db.transaction = (...a: unknown[]) => (calls++, transaction(...a));
  return () => {
    const n = calls;
    calls = 0;
    return n;
  };
}

function entry(lesson: string): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
}

/** A project whose hive is a fresh PostgreSQL schema; `body` gets its services, and everything is removed after. */
async function withTeamHive(prefix: string, body: (s: Services) => Promise<void>): Promise<void> {
  const url = pgTestUrl()!;
  const schema = uniqueSchema(prefix);
  const sb = makeSandbox();
  const cairn = await openCairn({
    projectDir: sb.projectDir, env: sb.env, actor: "human:ann",
    config: { hive_url: url, hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 } },
  });
  try {
    await body((cairn as unknown as { services: Services }).services);
  } finally {
    await cairn.close();
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
}

test("a queued usage item is one statement on the hive (was a transaction per entry), counted once however often it is replayed", pgTestOptions(), async () => {
  await withTeamHive("usage", async (s) => {
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
  });
});

test("a run of queued usage items (turn after turn) is one statement: each item counts once per entry, with its own event, however often replayed", pgTestOptions(), async () => {
  await withTeamHive("usagerun", async (s) => {
    const remote = teamHive(s)!.remote;
    const [a, b, c] = await Promise.all(
      ["Run prisma migrate deploy before the container starts", "Pin the node version in CI", "Warm the cache before the load test"].map(
        async (l) => (await remote.insertEntry(entry(l), { type: "created", actor: "test" })).id,
      ),
    );
    const gone = newEntryId();
    const turns = [
      { ids: [a!, b!], at: "2025-03-01T10:00:00.000Z", agent: "architect" },
      { ids: [a!, gone], at: "2025-03-01T10:00:01.000Z", agent: "coder" },
      { ids: [a!, c!, c!], at: "2025-03-01T10:00:02.000Z", agent: "reviewer" },
    ];
    const items = turns.map((t, i) => ({ id: `usage-${i}`, payload: { ids: t.ids, counter: "shown", actor: "cairn:inject", data: { agent: t.agent }, at: t.at } }));
    for (const it of items) await s.swarm.enqueueOutbox(it.id, "usage", it.payload, it.payload.at);
    const statements = countStatements(remote);
    const report = await replayOutbox(s, remote);
    assert.deepEqual(report, { applied: 3, dead: 0, pending: 0 });
    assert.equal(statements(), 1, "three turns' counts, claims and events in one statement (was one per turn)");

    // The whole run again (cut short before it left the outbox): nothing moves.
    for (const it of items) await s.swarm.enqueueOutbox(it.id, "usage", it.payload, it.payload.at);
    await replayOutbox(s, remote);
    const shownOf = async (id: string) => (await remote.listEvents(id)).filter((ev) => ev.type === "shown");
    const ea = (await remote.getEntry(a!))!;
    assert.equal(ea.usage.shown, 3, "shown in three turns: three counts");
    assert.equal(ea.usage.last_shown_at, "2025-03-01T10:00:02.000Z", "stamped with the latest turn that showed it");
    assert.deepEqual((await shownOf(a!)).map((ev) => (ev.data as { agent: string }).agent).sort(), ["architect", "coder", "reviewer"], "one event per turn, each with its turn's data");
    assert.equal((await remote.getEntry(b!))!.usage.shown, 1);
    assert.equal((await remote.getEntry(b!))!.usage.last_shown_at, "2025-03-01T10:00:00.000Z");
    assert.equal((await remote.getEntry(c!))!.usage.shown, 1, "an id twice in one turn counts once");
    assert.equal((await shownOf(c!)).length, 1);
    assert.equal(await remote.getEntry(gone), undefined);

    // Usage, then feedback, then usage: the counts before the verdict are applied before it, and nothing is lost.
    await s.swarm.enqueueOutbox("u-before", "usage", { ids: [b!], counter: "shown", actor: "cairn:inject", at: "2025-03-01T11:00:00.000Z" }, "2025-03-01T11:00:00.000Z");
    await s.swarm.enqueueOutbox("f-mid", "feedback", { ref: b!, verdict: "helpful", actor: "human:ann", at: "2025-03-01T11:00:01.000Z" }, "2025-03-01T11:00:01.000Z");
    await s.swarm.enqueueOutbox("u-after", "usage", { ids: [b!], counter: "shown", actor: "cairn:inject", at: "2025-03-01T11:00:02.000Z" }, "2025-03-01T11:00:02.000Z");
    assert.deepEqual(await replayOutbox(s, remote), { applied: 3, dead: 0, pending: 0 });
    const eb = (await remote.getEntry(b!))!;
    assert.equal(eb.usage.shown, 3);
    assert.equal(eb.usage.helpful, 1);
  });
});

test("turns in quick succession share one replay: their shown counts reach the hive in one statement, none lost", pgTestOptions(), async () => {
  await withTeamHive("usagekick", async (s) => {
    const hive = teamHive(s)!;
    const id = (await hive.remote.insertEntry(entry("Run prisma migrate deploy before the container starts"), { type: "created", actor: "test" })).id;
    await hive.flush(5000);
    const statements = countStatements(hive.remote);
    // Six turns, one after another as a swarm's agents take them (no pause between): each queues its count.
    for (let i = 0; i < 6; i++) await hive.recordUsage([id], "shown", "cairn:inject", { agent: `agent-${i}` });
    await hive.flush(5000);
    assert.equal((await s.swarm.outboxCounts()).pending, 0, "every count left the outbox");
    assert.equal(statements(), 1, "one replay statement for the six turns (was one per turn, beside each turn's search)");
    assert.equal((await hive.remote.getEntry(id))!.usage.shown, 6, "every turn counted once");
  });
});

test("an injection's hive shown counts wait for its answer, then are queued and reach the hive once", pgTestOptions(), async () => {
  await withTeamHive("shownafter", async (s) => {
    const hive = teamHive(s)!;
    const id = (await hive.remote.insertEntry(entry("Run prisma migrate deploy before the API container starts"), { type: "created", actor: "test" })).id;
    await hive.flush(5000);
    // Another connection to the project file: what it sees is committed.
    const outside = new Database((s.swarm as SqliteStore).driver.file, { readonly: true });
    const queued = () => (outside.prepare("SELECT count(*) AS n FROM hive_outbox").get() as { n: number }).n;
    try {
      const r = await asCall(() => injectForContext(s, { task: "run prisma migrate deploy before the api container starts" }));
      assert.ok(r.entries.some((e) => e.id === id), "the hive lesson was injected");
      assert.equal(queued(), 0, "the answer did not wait for the outbox write");
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(queued(), 1, "queued right after the answer");
      await hive.flush(5000);
      assert.equal((await hive.remote.getEntry(id))!.usage.shown, 1);
      assert.equal((await s.swarm.outboxCounts()).pending, 0);
    } finally {
      outside.close();
    }
  });
});
