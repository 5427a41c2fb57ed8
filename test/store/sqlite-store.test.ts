// The SQLite Store's own migrations (numbered 1..n, PRAGMA user_version); shared behaviour is in store-contract.test.ts.
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

test("handles stay unused after a reopen, and an insert that does not take its seq from meta.last_seq is refused", async () => {
  await withStore(async (s, file) => {
    const a = await s.insertEntry(entry("Regenerate the Prisma client after every schema change."), ev);
    const b = await s.insertEntry(entry("Close the billing worker's cursor in a finally block."), ev);
    await s.deleteEntry(b.id, { type: "removed", actor: "test" });
    const again = new SqliteStore(file, "swarm");
    try {
      const c = await again.insertEntry(entry("Pin the Node version in CI to the one production runs."), ev);
      assert.deepEqual([a.handle, b.handle, c.handle], ["S-1", "S-2", "S-3"]);
      assert.equal(await again.getEntry("S-2"), undefined, "a retired handle finds nothing");
      // A write path that let SQLite pick the row number would reuse a handle: the schema refuses it.
      assert.throws(
        () => again.driver.run("INSERT INTO entries(id, tier, lesson, category, kind, status, scope, priority, confidence, fingerprint, created_at, updated_at, search_text, data) VALUES ('x', 'swarm', 'l', 'other', 'learning', 'candidate', 'global', 'medium', 0.5, 'f', '', '', '', '{}')"),
        /handles are never reused/,
      );
    } finally {
      await again.close();
    }
  });
});

test("entry reads parse each entry's JSON once: JSON.parse calls per search do not grow with the entries it returns", async () => {
  await withStore(async (s) => {
    const parsesFor = async (n: number) => {
      const realParse = JSON.parse;
      let parses = 0;
      JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => (parses++, realParse(text, reviver))) as typeof JSON.parse;
      try {
        const hits = await s.searchEntries(["webhook"], {}, n);
        const listed = await s.listEntries({}, { limit: n });
        assert.equal(hits.length, n);
        assert.equal(listed.length, n);
        assert.ok(hits.every((h) => h.entry.lesson.includes("webhook")));
      } finally {
        JSON.parse = realParse;
      }
      return parses;
    };
    for (let i = 0; i < 30; i++) await s.insertEntry(entry(`Retry the webhook delivery number ${i} with backoff before paging anyone.`), ev);
    assert.equal(await parsesFor(30), await parsesFor(3), "the same JSON.parse calls for 30 entries as for 3");
  });
});
