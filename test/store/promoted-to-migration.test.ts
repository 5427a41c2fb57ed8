// Migration 17 (SQLite) and 15 (PostgreSQL) give every entry written before them its promoted_to: the hive id of its latest promoted event.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { PG_MIGRATIONS } from "../../src/store/pg/migrations.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { insertOldRow, sqliteAtVersion } from "../helpers/old-sqlite.js";

/** The schema version before promoted_to. */
const OLD_VERSION = 16;
const at = "2026-01-02T10:00:00.000Z";

function lesson(i: number, tier: "swarm" | "hive"): Entry {
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier, lesson: `Lesson ${i} about the retry budget of the billing worker`, category: "tooling", kind: "learning", created_at: at, updated_at: at });
}

test("opening a project database of schema 16 fills promoted_to from each entry's latest promoted event", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "old.db");
  const driver = sqliteAtVersion(file, OLD_VERSION);
  const [twice, once, never] = [0, 1, 2].map((i) => {
    const e = lesson(i, "swarm");
    insertOldRow(driver, e, { status: "promoted", fingerprint: `fp${i}` });
    return e;
  }) as [Entry, Entry, Entry];
  const event = (id: string, type: string, data: Record<string, unknown>) =>
    driver.run("INSERT INTO events(entry_id, type, at, actor, data) VALUES (?, ?, ?, 'test', ?)", [id, type, at, JSON.stringify(data)]);
  event(twice.id, "promoted", { route: "manual", hive_id: "hive-old" });
  event(twice.id, "promoted", { route: "manual", hive_id: "hive-new" });
  event(once.id, "promoted", { route: "auto", hive_id: "hive-once" });
  event(once.id, "feedback", { verdict: "helpful" });
  event(never.id, "created", {});
  driver.close();
  const store = new SqliteStore(file, "swarm");
  try {
    assert.equal(await store.schemaVersion(), MIGRATIONS.at(-1)!.version);
    const got = await store.promotedTo([twice.id, once.id, never.id]);
    assert.deepEqual(Object.fromEntries(got), { [twice.id]: "hive-new", [once.id]: "hive-once" });
    assert.deepEqual((await store.listPromotions({ statuses: ["promoted"] })).map((p) => [p.id, p.promoted_to]), [[twice.id, "hive-new"], [once.id, "hive-once"]], "a listing pairs by the filled column, in write order");
    // And from now on the store keeps it as promotions are recorded.
    await store.appendEvent(never.id, { type: "promoted", actor: "test", data: { route: "manual", hive_id: "hive-later" } });
    assert.equal((await store.promotedTo([never.id])).get(never.id), "hive-later");
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

test("the team hive's migration 15 fills promoted_to too, the same answer as SQLite's", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("promotedto");
  try {
    const first = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    const [twice, never] = [lesson(0, "hive"), lesson(1, "hive")];
    await first.insertEntry(twice, { type: "created", actor: "test" });
    await first.insertEntry(never, { type: "created", actor: "test" });
    await first.appendEvent(twice.id, { type: "promoted", actor: "test", data: { route: "manual", hive_id: "hive-old" } });
    await first.appendEvent(twice.id, { type: "promoted", actor: "test", data: { route: "manual", hive_id: "hive-new" } });
    await first.close();
    // A hive an older version wrote: no promoted_to column, no trigger, migration 15 not yet run.
    await adminQuery(url, `DROP TRIGGER events_promoted_to ON "${schema}".events; DROP FUNCTION "${schema}".events_promoted_to(); DROP INDEX "${schema}".entries_promoted_to; ALTER TABLE "${schema}".entries DROP COLUMN promoted_to; DELETE FROM "${schema}".schema_migrations WHERE version >= 15`);
    const store = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    try {
      assert.equal(await store.schemaVersion(), PG_MIGRATIONS.at(-1)!.version);
      assert.deepEqual(Object.fromEntries(await store.promotedTo([twice.id, never.id])), { [twice.id]: "hive-new" });
      assert.deepEqual((await store.listPromotions({})).map((p) => [p.id, p.promoted_to]), [[twice.id, "hive-new"]]);
      await store.appendEvent(never.id, { type: "promoted", actor: "test", data: { route: "manual", hive_id: "hive-later" } });
      assert.equal((await store.promotedTo([never.id])).get(never.id), "hive-later");
    } finally {
      await store.close();
    }
  } finally {
    await dropSchema(url, schema);
  }
});
