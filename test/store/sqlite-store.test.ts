// The SQLite Store: numbered migrations, append-only events, an exact row counter, code-aware full-text search.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from "../../src/store/migrations.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

function entry(lesson: string, extra: Partial<Entry> = {}): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at, ...extra });
}

async function withStore(fn: (s: SqliteStore, file: string) => Promise<void>): Promise<void> {
  const sb = makeSandbox();
  const file = path.join(sb.root, "s.db");
  const store = new SqliteStore(file, "swarm");
  try {
    await fn(store, file);
  } finally {
    await store.close();
    removeSandbox(sb);
  }
}

const ev = { type: "created" as const, actor: "test" };

test("migrations are numbered 1..n, applied once, and a reopen finds the schema current", async () => {
  assert.deepEqual(MIGRATIONS.map((m) => m.version), MIGRATIONS.map((_, i) => i + 1));
  await withStore(async (s, file) => {
    assert.equal(s.driver.get<{ user_version: number }>("PRAGMA user_version")?.user_version, LATEST_SCHEMA_VERSION);
    await s.insertEntry(entry("Regenerate the Prisma client after every schema change."), ev);
    const again = new SqliteStore(file, "swarm");
    try {
      assert.equal(await again.totalEntries(), 1, "reopening re-ran no migration and lost no row");
    } finally {
      await again.close();
    }
  });
});

test("the events table is append-only", async () => {
  await withStore(async (s) => {
    const e = await s.insertEntry(entry("Close the Kafka producer in the SIGTERM handler."), ev);
    assert.ok((await s.listEvents(e.id)).length >= 1);
    assert.throws(() => s.driver.run("UPDATE events SET actor = 'forged'"), /append-only/);
    assert.throws(() => s.driver.run("DELETE FROM events"), /append-only/);
    await s.deleteEntry(e.id, { type: "removed", actor: "test" });
    assert.deepEqual((await s.listEvents(e.id)).map((x) => x.type).slice(-1), ["removed"], "history outlives the entry");
  });
});

test("the O(1) entry counter always equals count(*) through inserts and deletes", async () => {
  await withStore(async (s) => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await s.insertEntry(entry(`Shard ${i} of the audit table needs its own partial index.`), ev)).id);
    for (const id of ids.slice(0, 10)) await s.deleteEntry(id, { type: "removed", actor: "test" });
    const count = s.driver.get<{ n: number }>("SELECT count(*) AS n FROM entries")?.n;
    assert.equal(count, 15);
    assert.equal(await s.totalEntries(), count);
    assert.equal(await s.countEntries(), count);
  });
});

test("full-text search finds camelCase, snake_case and path parts, and stems English words", async () => {
  await withStore(async (s) => {
    const e = await s.insertEntry(entry("Call getUserById before session_store.flush() in src/auth/tokenRefresh.ts; retrying hides the race."), ev);
    await s.insertEntry(entry("Pin the Node major version in CI with an .nvmrc file."), ev);
    for (const q of [["user"], ["session"], ["store"], ["flush"], ["auth"], ["token"], ["refresh"], ["getuserbyid"], ["retries"], ["race"]]) {
      const hits = await s.searchEntries(q, {}, 10);
      assert.deepEqual(hits.map((h) => h.entry.id), [e.id], `query ${q[0]}`);
    }
  });
});

test("search terms that look like FTS syntax are data, never operators", async () => {
  await withStore(async (s) => {
    await s.insertEntry(entry("Quote user input before building an FTS MATCH expression."), ev);
    for (const q of [['"'], ["NEAR(a b)"], ["*"], ["a OR b"], ["lesson:x"], ["^start"], ["'); DROP TABLE entries;--"], ["\u0000"]]) {
      assert.ok(Array.isArray(await s.searchEntries(q, {}, 10)), q[0]);
    }
    assert.equal(await s.totalEntries(), 1);
  });
});

test("a handle of the other tier never resolves here", async () => {
  await withStore(async (s) => {
    const e = await s.insertEntry(entry("Use idempotency keys on every payment provider request."), ev);
    assert.equal((await s.getEntry(e.handle))?.id, e.id);
    assert.equal(await s.getEntry(e.handle.replace(/^S-/, "H-")), undefined);
  });
});
