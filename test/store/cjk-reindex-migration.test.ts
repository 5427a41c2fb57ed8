// A store written before CJK runs were indexed as character pairs (and, later, as single characters too) is reindexed on open, so a word inside a run, or one character, is found there too.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import Database from "libsql";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { queryTerms } from "../../src/core/text.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { repairDatabase } from "../../src/store/repair.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

/** The schema version before CJK runs were indexed as pairs. */
const OLD_VERSION = 14;
const at = "2026-01-02T10:00:00.000Z";
const CJK_LESSON = "数据库连接池超时的时候，要先检查最大连接数的配置。";
const LATIN_LESSON = "The billing worker retries a failed charge three times.";

function lessonEntry(lesson: string, tier: "swarm" | "hive") {
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier, lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
}

/** A database file as schema 14 wrote it: the CJK lesson's search text is the lesson alone, its run one token. */
function schema14File(file: string): Array<{ id: string }> {
  return oldSchemaFile(file, OLD_VERSION, (lesson) => lesson);
}

/** A database file as schema `version` wrote it, each lesson's search text as `searchText` makes it. */
function oldSchemaFile(file: string, version: number, searchText: (lesson: string) => string, lessons = [CJK_LESSON, LATIN_LESSON]): Array<{ id: string }> {
  // libSQL itself, not the store's driver: repair must find no connection of this process left on the file.
  const raw = new Database(file);
  const driver = { exec: (sql: string) => raw.exec(sql), run: (sql: string, params: unknown[]) => raw.prepare(sql).run(params), close: () => raw.close() };
  driver.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  driver.exec("INSERT OR IGNORE INTO meta(key, value) VALUES ('entry_count', 0)");
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) driver.exec(m.sql);
  driver.exec(`PRAGMA user_version = ${version}`);
  const rows = lessons.map((lesson, i) => {
    const e = lessonEntry(lesson, "swarm");
    driver.run(
      `INSERT INTO entries(seq, id, tier, created_at, lesson, category, kind, status, scope, priority, confidence, fingerprint, updated_at, search_text, data)
       VALUES (?, ?, 'swarm', ?, ?, 'tooling', 'learning', 'established', 'global', 'medium', 0.5, ?, ?, ?, ?)`,
      [i + 1, e.id, at, lesson, `fp${i}`, at, searchText(lesson), JSON.stringify(e)],
    );
    return e;
  });
  driver.close();
  return rows;
}

test("repairing a damaged database of schema 14 indexes its CJK lessons' character pairs as opening one does", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "old.db");
  const rows = schema14File(file);
  // Its rows are copied into a fresh file of the current schema, search text as the old version wrote it.
  await repairDatabase(file);
  const store = new SqliteStore(file, "swarm");
  try {
    const found = await store.searchEntries(queryTerms("连接池"), {}, 10);
    assert.deepEqual(found.map((h) => h.entry.id), [rows[0]!.id]);
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

test("opening a database of schema 14 indexes its CJK lessons' character pairs: '连接池' then finds '数据库连接池超时'", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "old.db");
  const rows = schema14File(file);
  const store = new SqliteStore(file, "swarm");
  try {
    const found = await store.searchEntries(queryTerms("连接池"), {}, 10);
    assert.deepEqual(found.map((h) => h.entry.id), [rows[0]!.id]);
    const latin = await store.searchEntries(queryTerms("billing worker"), {}, 10);
    assert.deepEqual(latin.map((h) => h.entry.id), [rows[1]!.id], "a Latin lesson is found as before");
    // The reindexed row can still be changed and deleted: the index's old tokens were removed with the old text.
    await store.deleteEntry(rows[0]!.id, { type: "removed", actor: "test" });
    assert.deepEqual(await store.searchEntries(queryTerms("连接池"), {}, 10), []);
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

test("the team hive's migration 11 indexes its CJK lessons' character pairs too", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("cjk");
  const e = lessonEntry(CJK_LESSON, "hive");
  try {
    const first = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    await first.insertEntry(e, { type: "created", actor: "test" });
    await first.close();
    // A hive an older version wrote: the lesson's run one lexeme, migration 11 not yet run.
    await adminQuery(url, `UPDATE "${schema}".entries SET search_vec = to_tsvector('simple', lesson), search_len = 1`);
    await adminQuery(url, `DELETE FROM "${schema}".schema_migrations WHERE version >= 11`);
    const store = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    try {
      const found = await store.searchEntries(queryTerms("连接池"), {}, 10);
      assert.deepEqual(found.map((h) => h.entry.id), [e.id]);
    } finally {
      await store.close();
    }
  } finally {
    await dropSchema(url, schema);
  }
});

/** Schema 15's CJK tokens: each run's character pairs only (a run of one or two characters as itself). */
function pairsOnly(lesson: string): string {
  const pairs: string[] = [];
  for (const run of lesson.match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]+/gu) ?? []) {
    const chars = [...run];
    if (chars.length <= 2) continue;
    for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
  }
  return pairs.length ? `${lesson}\n${pairs.join(" ")}` : lesson;
}

const LOCK_LESSON = "数据库死锁的时候，先查看持有它的事务。";

test("opening a database of schema 15 indexes its CJK lessons' characters one by one: '锁' then finds '数据库死锁'", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "old.db");
  const rows = oldSchemaFile(file, 15, pairsOnly, [LOCK_LESSON, LATIN_LESSON]);
  const store = new SqliteStore(file, "swarm");
  try {
    assert.deepEqual((await store.searchEntries(queryTerms("锁"), {}, 10)).map((h) => h.entry.id), [rows[0]!.id]);
    assert.deepEqual((await store.searchEntries(queryTerms("死锁"), {}, 10)).map((h) => h.entry.id), [rows[0]!.id], "its pairs are found as before");
    assert.deepEqual((await store.searchEntries(queryTerms("billing worker"), {}, 10)).map((h) => h.entry.id), [rows[1]!.id]);
    await store.deleteEntry(rows[0]!.id, { type: "removed", actor: "test" });
    assert.deepEqual(await store.searchEntries(queryTerms("锁"), {}, 10), []);
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

test("the team hive's migration 14 indexes its CJK lessons' characters one by one too", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("cjk1");
  const e = lessonEntry(LOCK_LESSON, "hive");
  try {
    const first = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    await first.insertEntry(e, { type: "created", actor: "test" });
    await first.close();
    // A hive version 13 wrote: the lesson's pairs without its characters, migration 14 not yet run.
    await adminQuery(url, `UPDATE "${schema}".entries SET search_vec = array_to_tsvector(string_to_array($1, ' ')), search_len = 8`, [pairsOnly(LOCK_LESSON).split("\n")[1]!]);
    await adminQuery(url, `DELETE FROM "${schema}".schema_migrations WHERE version >= 14`);
    const store = new PostgresStore({ url, schema, poolMax: 1 }, "hive");
    try {
      assert.deepEqual((await store.searchEntries(queryTerms("锁"), {}, 10)).map((h) => h.entry.id), [e.id]);
    } finally {
      await store.close();
    }
  } finally {
    await dropSchema(url, schema);
  }
});
