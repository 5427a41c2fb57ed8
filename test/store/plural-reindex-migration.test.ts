// A store written before a plural the index stems as another word ("indices" as "indicate") kept its singular beside it is reindexed on open, so "index" finds "the indices" there too.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { queryTerms } from "../../src/core/text.js";
import { PG_MIGRATIONS } from "../../src/store/pg/migrations.js";
import { tsvectorOf } from "../../src/store/pg/lexemes.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { insertOldRow, sqliteAtVersion } from "../helpers/old-sqlite.js";

/** The schema versions before the singulars were indexed. */
const OLD_SQLITE = 17;
const OLD_PG = 15;
const at = "2026-01-02T10:00:00.000Z";
const LESSONS = ["Rebuild the search Indices after a bulk import.", "Shared vertices must be welded before export.", "The red badge indicates a failed build."];

function lessonEntry(lesson: string, tier: "swarm" | "hive"): Entry {
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier, lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
}

/** What "index" and "vertex" find in a store. */
async function found(store: SqliteStore | PostgresStore): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of ["index", "vertex"]) out.push((await store.searchEntries(queryTerms(q), {}, 10)).map((h) => h.entry.lesson));
  return out;
}

test("opening a database of schema 17 indexes the singular beside 'indices' and 'vertices': 'index' then finds 'the search Indices'", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "old.db");
  // As schema 17 wrote them: the search text is the lesson alone.
  const driver = sqliteAtVersion(file, OLD_SQLITE);
  const rows = LESSONS.map((lesson, i) => {
    const e = lessonEntry(lesson, "swarm");
    insertOldRow(driver, e, { fingerprint: `fp${i}` });
    return e;
  });
  driver.close();
  const store = new SqliteStore(file, "swarm");
  try {
    assert.deepEqual(await found(store), [[LESSONS[0]], [LESSONS[1]]]);
    // The reindexed row can still be deleted: the index's old tokens were removed with the old text.
    await store.deleteEntry(rows[0]!.id, { type: "removed", actor: "test" });
    assert.deepEqual(await found(store), [[], [LESSONS[1]]]);
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

/**
 * A team hive holding `lessons` as version `version` left it (each search vector derived from `oldText(lesson)`,
 * later migrations not yet run), opened by this version: `check` reads the migrated store.
 */
async function withOldPgHive(version: number, lessons: readonly string[], oldText: (lesson: string) => string, check: (store: PostgresStore) => Promise<void>): Promise<void> {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("plurals");
  try {
    const first = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    for (const lesson of lessons) await first.insertEntry(lessonEntry(lesson, "hive"), { type: "created", actor: "test" });
    await first.close();
    for (const lesson of lessons) {
      const v = tsvectorOf(oldText(lesson));
      await adminQuery(url, `UPDATE "${schema}".entries SET search_vec = $1::tsvector, search_len = $2 WHERE lesson = $3`, [v.literal, v.length, lesson]);
    }
    await adminQuery(url, `DELETE FROM "${schema}".schema_migrations WHERE version > ${version}`);
    const store = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    try {
      assert.equal(await store.schemaVersion(), PG_MIGRATIONS.at(-1)!.version);
      await check(store);
    } finally {
      await store.close();
    }
  } finally {
    await dropSchema(url, schema);
  }
}

test("the team hive's migration 16 indexes the singular beside 'indices' and 'vertices' too", pgTestOptions(), async () => {
  // A hive version 15 wrote: each search vector the lesson's alone.
  await withOldPgHive(OLD_PG, LESSONS, (lesson) => lesson, async (store) => assert.deepEqual(await found(store), [[LESSONS[0]], [LESSONS[1]]]));
});

/** A lesson naming a plural inside a camelCase name, which migration 18 (SQLite) and 16 (PostgreSQL) gave no singular. */
const NAMED = "Call getIndices() once per frame in the mesh renderer; it allocates a new array.";

test("opening a database of schema 18 indexes the singular inside a name: 'index' then finds getIndices()", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "old.db");
  // As schema 18 wrote it: the name's pieces beside the lesson, no singular.
  const driver = sqliteAtVersion(file, 18);
  insertOldRow(driver, lessonEntry(NAMED, "swarm"), { fingerprint: "fp-named", searchText: `${NAMED}\nget indices` });
  insertOldRow(driver, lessonEntry(LESSONS[2]!, "swarm"), { fingerprint: "fp-badge" });
  driver.close();
  const store = new SqliteStore(file, "swarm");
  try {
    assert.deepEqual((await found(store))[0], [NAMED]);
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

test("the team hive's migration 17 indexes the singular inside a name too", pgTestOptions(), async () => {
  // A hive version 16 wrote: the name's pieces indexed, no singular.
  await withOldPgHive(16, [NAMED, LESSONS[2]!], (lesson) => (lesson === NAMED ? `${NAMED}\nget indices` : lesson), async (store) => assert.deepEqual((await found(store))[0], [NAMED]));
});
