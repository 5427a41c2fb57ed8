// A hive answer that comes after its read timeout is dropped where it lands: it reaches no cache, and its connection is kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { setTimeout as sleep } from "node:timers/promises";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { TeamHiveStore } from "../../src/hive/team-hive.js";
import { PgClient } from "../../src/store/pg/client.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import type { EntryFilter } from "../../src/store/store.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

const LIVE: EntryFilter = { statuses: ["candidate", "established", "promoted"] };

function entry(lesson: string): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", status: "established", created_at: at, updated_at: at });
}

/** Polls `done` until true; fails only when nothing has happened for a long while (a watchdog, not a time budget). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !done(); i++) await sleep(50);
  assert.ok(done(), `never happened: ${what}`);
}

test("a read past its timeout fails as unavailable at once; the late answer is dropped and its connection goes back to the pool", pgTestOptions(), async () => {
  const client = new PgClient({ url: pgTestUrl()!, poolMax: 1 });
  try {
    const [before] = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    // The server answers after a second; the read gives up after 20 ms.
    await assert.rejects(client.query("SELECT pg_sleep(1), 1 AS x", [], { readTimeoutMs: 20 }), (e: Error & { code?: string }) => e.code === "UNAVAILABLE" && /no answer within 20 ms/.test(e.message));
    assert.equal(client.lateAnswersDropped, 0, "the answer has not come yet when the read gives up");
    // The one pooled connection is busy until the sleep ends; the next query waits for it and gets it back.
    const [after] = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    assert.equal(client.lateAnswersDropped, 1, "the late answer was dropped");
    assert.equal(after!.pid, before!.pid, "the same connection served the next query (a late answer is no reason to reconnect)");
    // An answer within the timeout is an ordinary answer.
    assert.deepEqual(await client.query("SELECT 2 AS x", [], { readTimeoutMs: 30_000 }), [{ x: 2 }]);
    assert.equal(client.lateAnswersDropped, 1);
  } finally {
    await client.close();
  }
});

interface LockedHive {
  schema: string;
  remote: PostgresStore;
  hive: TeamHiveStore;
  /** The entry the first search did not find: it must never reach the cache. */
  late: Entry;
}

/**
 * A team hive (read timeout 200 ms) that has answered one search and finished the cache sync it started, with its
 * entries table then locked by another session; `fn` lets the lock go with `commit` (a ROLLBACK ends it otherwise).
 */
async function withLockedHive(poolMax: number, fn: (h: LockedHive, commit: () => Promise<unknown>) => Promise<void>): Promise<void> {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("late");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-late-"));
  const outbox = new SqliteStore(path.join(dir, "swarm.db"), "swarm");
  const lines: string[] = [];
  const remote = new PostgresStore({ url, schema, poolMax, log: (l) => lines.push(l) }, "hive");
  const hive = new TeamHiveStore(remote, { readTimeoutMs: 200, connectTimeoutMs: 30_000, retryAfterMs: 60_000, cacheEntries: 100, outbox, log: (l) => lines.push(l) });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const seen = await remote.insertEntry(entry("Pin the toolchain version in the CI image."), { type: "created", actor: "test" });
    const late = await remote.insertEntry(entry("Regenerate the client after editing the schema file."), { type: "created", actor: "test" });
    // A first search connects and brings the hive up; it finds (and caches) the other entry only.
    assert.deepEqual((await hive.searchEntries(["toolchain"], LIVE, 5)).map((h) => h.entry.id), [seen.id]);
    assert.equal(hive.health, "up");
    // The cache sync that search started is done: it holds no connection below.
    await hive.cacheSynced();
    // The table is locked: a statement reading it waits on the server until the lock goes (a slow server, made certain).
    await admin.query("BEGIN");
    await admin.query(`LOCK TABLE "${schema}".entries IN ACCESS EXCLUSIVE MODE`);
    await fn({ schema, remote, hive, late }, () => admin.query("COMMIT"));
  } finally {
    await admin.query("ROLLBACK").catch(() => {});
    await admin.end().catch(() => {});
    await hive.close().catch(() => {});
    await outbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await dropSchema(url, schema);
  }
}

test("a team hive search answered after the read timeout falls back, and its late rows never reach the cache", pgTestOptions(), async () => {
  await withLockedHive(2, async ({ remote, hive, late }, commit) => {
    const fallback = await hive.searchEntries(["regenerate", "schema"], LIVE, 5);
    assert.deepEqual(fallback, [], "the fallback answered (nothing cached for these terms)");
    assert.equal(hive.health, "down");
    await commit();
    // The server now answers the waiting statement; the answer comes after the timeout and is dropped.
    await until(() => remote.db.lateAnswersDropped > 0 || hive.cache.entry(late.id) !== undefined, "the late answer landed");
    await hive.givenUpReadsSettled();
    assert.equal(hive.cache.entry(late.id), undefined, "the late rows were not remembered");
    assert.deepEqual(hive.cache.search(["regenerate", "schema"], LIVE, 5), []);
    assert.equal(remote.db.lateAnswersDropped, 1);
  });
});

test("a team hive search given up on while it waited for a pooled connection finishes later, and what it found never reaches the cache", pgTestOptions(), async () => {
  // One pooled connection: a statement holding it makes every other wait in the pool, where no read timer runs yet.
  await withLockedHive(1, async ({ schema, remote, hive, late }, commit) => {
    // An untimed statement takes the one connection and waits on the lock.
    const holder = remote.db.query(`SELECT count(*) AS n FROM "${schema}".entries`);
    const fallback = await hive.searchEntries(["regenerate", "schema"], LIVE, 5);
    assert.deepEqual(fallback, [], "the fallback answered");
    assert.equal(hive.health, "down");
    await commit();
    // The holder answers, and the search given up on gets the connection and runs to its end, in time by its own timers.
    await holder;
    await hive.givenUpReadsSettled();
    assert.equal(hive.cache.entry(late.id), undefined, "the rows found after the search was given up on were not remembered");
    assert.deepEqual(hive.cache.search(["regenerate", "schema"], LIVE, 5), []);
  });
});
