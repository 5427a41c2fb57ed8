// Which files are SQLite databases or logs by their first bytes, and which SQLite files are another application's (tables, none of Cairn's mark) rather than ones Cairn may open: its own of any stage, empty ones, damaged ones (left to the open to report); the store refuses one on its own connection.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "libsql";
import { otherApplicationsTables, sqliteKindOf, sqliteKindOfFile } from "../../src/store/sqlite-file.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-sqlite-file-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What the check reads on a connection to `file`, opened and closed as the store's own is. */
function tablesOf(file: string): string[] | undefined {
  const db = new Database(file);
  try {
    return otherApplicationsTables(db);
  } finally {
    db.close();
  }
}

function database(name: string, sql: string, opts: { wal?: boolean } = {}): { file: string; db: Database.Database } {
  const file = path.join(dir, name);
  const db = new Database(file);
  if (opts.wal) db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
  db.exec(sql);
  return { file, db };
}

test("another application's tables are named, also when they are still only in its write-ahead log", () => {
  const { file, db } = database("app.sqlite", "CREATE TABLE messages (id INTEGER PRIMARY KEY); CREATE VIEW recent AS SELECT * FROM messages;", { wal: true });
  try {
    // Still open, nothing checkpointed: the main file alone holds no table.
    assert.deepEqual(tablesOf(file), ["messages", "recent"]);
  } finally {
    db.close();
  }
});

test("a `meta` table alone is Cairn's first step only while empty; with another application's rows it is theirs", () => {
  const cairnStart = database("start.db", "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  cairnStart.db.close();
  assert.equal(tablesOf(cairnStart.file), undefined);
  const browser = database("History", "CREATE TABLE meta (key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR); INSERT INTO meta VALUES ('version', '42');");
  browser.db.close();
  assert.deepEqual(tablesOf(browser.file), ["meta"]);
  const odd = database("odd.db", "CREATE TABLE meta (name TEXT)");
  odd.db.close();
  assert.deepEqual(tablesOf(odd.file), ["meta"], "a meta without Cairn's key column is not Cairn's, empty or not");
});

test("Cairn's own database, an empty SQLite file, a damaged one and no file at all are not another application's", async () => {
  const own = path.join(dir, "own.db");
  const store = new SqliteStore(own, "hive");
  await store.close();
  assert.equal(tablesOf(own), undefined);
  const empty = database("empty.db", "CREATE TABLE t (x); DROP TABLE t;");
  empty.db.close();
  assert.equal(tablesOf(empty.file), undefined);
  const damaged = path.join(dir, "damaged.db");
  fs.writeFileSync(damaged, Buffer.concat([Buffer.from("SQLite format 3\0", "latin1"), Buffer.alloc(200, 0xab)]));
  assert.equal(tablesOf(damaged), undefined);
  assert.equal(tablesOf(path.join(dir, "missing.db")), undefined);
});

test("the store refuses another application's database on its own connection, before writing anything into it", () => {
  const { file, db } = database("chat.db", "CREATE TABLE messages (id INTEGER PRIMARY KEY)");
  db.close();
  const before = fs.readFileSync(file);
  assert.throws(
    () => new SqliteStore(file, "hive", { from: { setting: "--hive" } }),
    (e: any) => e.code === "INVALID_CONFIG" && /chat\.db is another application's SQLite database \(its tables: messages\).*from --hive/.test(e.message),
  );
  assert.deepEqual(fs.readFileSync(file), before, "not a byte written: not even the journal mode");
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.startsWith("chat.db")), ["chat.db"], "no -wal or -shm left beside it");
});

test("sqliteKindOf reads a database's header and a write-ahead log's magic (either byte order) from the bytes read only", () => {
  const header = Buffer.from("SQLite format 3\0", "latin1");
  const magic = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
  assert.equal(sqliteKindOf(Buffer.concat([header, Buffer.alloc(84)])), "database");
  assert.equal(sqliteKindOf(magic(0x377f0682)), "wal");
  assert.equal(sqliteKindOf(magic(0x377f0683)), "wal");
  assert.equal(sqliteKindOf(header.subarray(0, 15)), "other", "a header cut short is not one");
  assert.equal(sqliteKindOf(Buffer.from("# notes\n")), "other");
  assert.equal(sqliteKindOf(Buffer.alloc(0)), "other");
  const file = path.join(dir, "log-wal");
  fs.writeFileSync(file, Buffer.concat([magic(0x377f0682), Buffer.alloc(28)]));
  assert.equal(sqliteKindOfFile(file), "wal");
  assert.equal(sqliteKindOfFile(dir), undefined, "a folder: the open names it");
  assert.equal(sqliteKindOfFile(path.join(dir, "none")), undefined);
});
