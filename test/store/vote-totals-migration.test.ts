// Helpful/harmful totals an older version stored unrounded (1.99999993) are rounded to the thousandth new votes keep.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { SqliteDriver } from "../../src/store/driver.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

/** The schema version before vote totals were rounded in the database. */
const OLD_VERSION = 13;

test("opening a database of schema 13 rounds its stored helpful/harmful totals to the thousandth", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "old.db");
  const driver = new SqliteDriver(file);
  driver.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  driver.exec("INSERT OR IGNORE INTO meta(key, value) VALUES ('entry_count', 0)");
  for (const m of MIGRATIONS.filter((x) => x.version <= OLD_VERSION)) driver.exec(m.sql);
  driver.exec(`PRAGMA user_version = ${OLD_VERSION}`);
  const at = "2026-01-02T10:00:00.000Z";
  const rows = [
    { helpful: 1.99999993, harmful: 0.30000001 },
    { helpful: 0.5, harmful: 0 },
  ].map((usage, i) => {
    const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson: `Lesson ${i} about retry budgets in the billing worker`, category: "tooling", kind: "learning", usage, created_at: at, updated_at: at });
    driver.run(
      `INSERT INTO entries(seq, id, tier, created_at, lesson, category, kind, status, scope, priority, confidence, fingerprint, updated_at, search_text, helpful, harmful, data)
       VALUES ((SELECT value + 1 FROM meta WHERE key = 'last_seq'), ?, 'swarm', ?, ?, 'tooling', 'learning', 'established', 'global', 'medium', 0.5, ?, ?, ?, ?, ?, ?)`,
      [e.id, at, e.lesson, `fp${i}`, at, e.lesson, usage.helpful, usage.harmful, JSON.stringify(e)],
    );
    return e;
  });
  driver.close();
  const store = new SqliteStore(file, "swarm");
  try {
    const [odd, even] = await Promise.all(rows.map((e) => store.getEntry(e.id)));
    assert.equal(odd?.usage.helpful, 2);
    assert.equal(odd?.usage.harmful, 0.3);
    assert.equal(even?.usage.helpful, 0.5, "a total already to the thousandth is left as it was");
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

test("the team hive's migration 10 rounds its stored helpful/harmful totals too", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("votes");
  const at = "2026-01-02T10:00:00.000Z";
  const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson: "Lesson about retry budgets in the billing worker", category: "tooling", kind: "learning", created_at: at, updated_at: at });
  try {
    const first = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    await first.insertEntry(e, { type: "created", actor: "test" });
    await first.close();
    // A hive an older version wrote: its totals unrounded, migration 10 not yet run (it changes rows only, no tables).
    await adminQuery(url, `UPDATE "${schema}".entries SET helpful = 1.99999993, harmful = 0.30000001`);
    await adminQuery(url, `DELETE FROM "${schema}".schema_migrations WHERE version >= 10`);
    const store = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    try {
      const got = await store.getEntry(e.id);
      assert.equal(got?.usage.helpful, 2);
      assert.equal(got?.usage.harmful, 0.3);
    } finally {
      await store.close();
    }
  } finally {
    await dropSchema(url, schema);
  }
});
