// Which files are SQLite databases or logs by their first bytes, and which SQLite files are another application's (tables, none of Cairn's mark) rather than ones Cairn may open: its own of any stage, empty ones, damaged ones (left to the open to report).
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
    assert.deepEqual(otherApplicationsTables(file), ["messages", "recent"]);
  } finally {
    db.close();
  }
});

test("a `meta` table alone is Cairn's first step only while empty; with another application's rows it is theirs", () => {
  const cairnStart = database("start.db", "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  cairnStart.db.close();
  assert.equal(otherApplicationsTables(cairnStart.file), undefined);
  const browser = database("History", "CREATE TABLE meta (key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR); INSERT INTO meta VALUES ('version', '42');");
  browser.db.close();
  assert.deepEqual(otherApplicationsTables(browser.file), ["meta"]);
  const odd = database("odd.db", "CREATE TABLE meta (name TEXT)");
  odd.db.close();
  assert.deepEqual(otherApplicationsTables(odd.file), ["meta"], "a meta without Cairn's key column is not Cairn's, empty or not");
});

test("Cairn's own database, an empty SQLite file, a damaged one and no file at all are not another application's", async () => {
  const own = path.join(dir, "own.db");
  const store = new SqliteStore(own, "hive");
  await store.close();
  assert.equal(otherApplicationsTables(own), undefined);
  const empty = database("empty.db", "CREATE TABLE t (x); DROP TABLE t;");
  empty.db.close();
  assert.equal(otherApplicationsTables(empty.file), undefined);
  const damaged = path.join(dir, "damaged.db");
  fs.writeFileSync(damaged, Buffer.concat([Buffer.from("SQLite format 3\0", "latin1"), Buffer.alloc(200, 0xab)]));
  assert.equal(otherApplicationsTables(damaged), undefined);
  assert.equal(otherApplicationsTables(path.join(dir, "missing.db")), undefined);
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
