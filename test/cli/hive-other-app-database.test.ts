// Another application's SQLite database (a chat.db with its own tables) named as the hive, a copy's end or the project's swarm file is refused by name: Cairn never adds its tables to it, doctor --repair never moves it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "libsql";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "In services/billing/worker.ts retry the ledger webhook at most 3 times before paging on-call; a retry storm took the ledger down.";

/** A chat application's database: its own tables and rows, written in WAL mode as such apps often are. */
function chatDatabase(file: string): void {
  const db = new Database(file);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE messages (id INTEGER PRIMARY KEY, handle_id INTEGER, body TEXT)");
  db.exec("CREATE TABLE handles (id INTEGER PRIMARY KEY, address TEXT)");
  // A key/value `meta` table as browsers keep one: a table name Cairn uses too does not make it Cairn's.
  db.exec("CREATE TABLE meta (key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR)");
  db.exec("INSERT INTO meta VALUES ('version', '42')");
  db.exec("INSERT INTO handles(address) VALUES ('ana@example.com')");
  db.exec("INSERT INTO messages(handle_id, body) VALUES (1, 'see you at the standup')");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.exec("PRAGMA journal_mode = DELETE");
  db.close();
}

function tablesOf(file: string): string[] {
  const db = new Database(`file:${file}?mode=ro`);
  try {
    return (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all([]) as Array<{ name: string }>).map((r) => r.name);
  } finally {
    db.close();
  }
}

function digest(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

test("--hive chat.db (another application's SQLite database): every command, doctor, doctor --repair and hive push/pull refuse it by name and add nothing to it", async () => {
  const p = sb.project("hive-chat");
  assert.equal((await sb.json(p, "add", LESSON, "--category", "integration")).body.action, "added");
  const dir = path.join(sb.root, "chat");
  fs.mkdirSync(dir);
  const chat = path.join(dir, "chat.db");
  chatDatabase(chat);
  const before = digest(chat);
  for (const args of [["list"], ["add", LESSON, "--category", "integration", "--tier", "hive"], ["doctor"], ["doctor", "--repair"]]) {
    const r = await sb.run(p, "--hive", chat, ...args, "--json");
    const what = args.join(" ");
    assert.notEqual(r.code, 0, `${what}: ${r.stdout}`);
    const body = JSON.parse(r.stdout);
    assert.equal(body.error?.code, "INVALID_CONFIG", `${what}: ${r.stdout}`);
    assert.match(body.error.message, /chat\.db is another application's SQLite database/, what);
    assert.match(body.error.message, /messages/, `${what}: names tables it holds`);
    assert.match(body.error.message, /new or existing Cairn \.db path/, what);
    assert.doesNotMatch(r.stderr + r.stdout, /doctor --repair/, `${what}: no advice to repair it`);
  }
  // Copying a hive to or from it is refused the same way, before either end is opened.
  for (const args of [["hive", "push", "--from", chat, "--to", "postgres://cairn@127.0.0.1:1/team"], ["hive", "pull", "--from", "postgres://cairn@127.0.0.1:1/team", "--to", chat]]) {
    const r = await sb.json(p, ...args);
    assert.notEqual(r.code, 0, args.join(" "));
    assert.equal(r.body.error?.code, "INVALID_CONFIG", args.join(" "));
    assert.match(r.body.error.message, /chat\.db is another application's SQLite database/, args.join(" "));
  }
  assert.deepEqual(fs.readdirSync(dir).filter((f) => !f.endsWith("-shm") && !f.endsWith("-wal")), ["chat.db"], "nothing moved aside or written beside it");
  assert.deepEqual(tablesOf(chat), ["handles", "messages", "meta"], "no Cairn table was added");
  assert.equal(digest(chat), before, "the database's bytes are unchanged");
});

test("swarm_dir naming a folder whose cairn.db is another application's database: refused by name, the file untouched", async () => {
  const p = sb.project("swarm-chat");
  fs.mkdirSync(path.join(p, ".swarm"));
  fs.writeFileSync(path.join(p, ".swarm", "cairn.json"), JSON.stringify({ swarm_dir: "appdata" }));
  fs.mkdirSync(path.join(p, "appdata"));
  const other = path.join(p, "appdata", "cairn.db");
  chatDatabase(other);
  const before = digest(other);
  for (const args of [["list"], ["add", LESSON, "--category", "integration"], ["doctor"], ["doctor", "--repair"]]) {
    const r = await sb.run(p, ...args, "--json");
    const what = args.join(" ");
    assert.notEqual(r.code, 0, `${what}: ${r.stdout}`);
    const body = JSON.parse(r.stdout);
    assert.equal(body.error?.code, "INVALID_CONFIG", `${what}: ${r.stdout}`);
    assert.match(body.error.message, /cairn\.db is another application's SQLite database/, what);
    assert.match(body.error.message, /swarm_dir/, `${what}: names the setting`);
  }
  assert.deepEqual(tablesOf(other), ["handles", "messages", "meta"]);
  assert.equal(digest(other), before);
});

test("an empty SQLite file and a Cairn hive of an older schema still open as the hive", async () => {
  const p = sb.project("hive-empty-and-old");
  const dir = path.join(sb.root, "hives");
  fs.mkdirSync(dir);
  // An SQLite file with a header and no tables (a table made and dropped).
  const empty = path.join(dir, "empty.db");
  const e = new Database(empty);
  e.exec("CREATE TABLE t (x); DROP TABLE t;");
  e.close();
  assert.deepEqual(tablesOf(empty), []);
  const added = await sb.json(p, "--hive", empty, "add", LESSON, "--category", "integration", "--tier", "hive");
  assert.equal(added.code, 0, added.stdout + added.stderr);
  assert.ok(tablesOf(empty).includes("entries"));
  // A Cairn hive as schema 1 wrote it (meta and migration 1 only): migrated on open.
  const old = path.join(dir, "old.db");
  const o = new Database(old);
  o.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  o.exec("INSERT OR IGNORE INTO meta(key, value) VALUES ('entry_count', 0)");
  o.exec(MIGRATIONS[0]!.sql);
  o.exec("PRAGMA user_version = 1");
  o.close();
  const listed = await sb.json(p, "--hive", old, "list", "--tier", "hive");
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  const doctor = await sb.json(p, "--hive", old, "doctor");
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
});
