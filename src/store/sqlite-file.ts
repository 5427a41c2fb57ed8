// Whether a file on disk is an SQLite database (its first bytes) and whether it is Cairn's (its tables), looked at without writing to it.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "libsql";
import { CairnError } from "../errors.js";

/** The first bytes of every SQLite database file. */
export const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** The first four bytes of an SQLite write-ahead log (big-endian number; the last bit is its checksums' byte order). */
const WAL_MAGIC = [0x377f0682, 0x377f0683];

/** What a file's first bytes say it is: an SQLite database, an SQLite write-ahead log, or something else. */
export type SqliteFileKind = "database" | "wal" | "other";

/** The names a database file carries: a file so named that is not SQLite is a damaged database, for `doctor --repair`. */
const DATABASE_NAME = /\.(?:db|db3|sqlite|sqlite3|s3db|sl3)$/i;

/**
 * A path naming a file Cairn must not open as its database was given by mistake, and is refused before anything
 * is written. A file that is not an SQLite database (a user's notes.md, an empty todo.txt): opened, it would be
 * written over as a new database, or reported damaged and moved aside by `doctor --repair`; a file with a
 * database's name (hive.db) that is not SQLite is a damaged database instead, for `doctor --repair` to salvage.
 * Another application's SQLite database (a chat.db with its own tables): opened, Cairn's migrations would add
 * their tables to it. `setting` names where the path came from (--hive, CAIRN_HIVE, --to, swarm_dir); `instead`
 * says what to do instead (by default: pass another hive file).
 */
export function assertNotOtherFile(file: string, setting: string, instead?: string): void {
  const sqlite = startsAsSqlite(file);
  if (sqlite) return assertNotOtherApplicationsDatabase(file, setting, instead);
  if (sqlite === undefined || DATABASE_NAME.test(file)) return;
  const empty = fs.statSync(file).size === 0;
  throw new CairnError(
    "INVALID_CONFIG",
    `${path.basename(file)} is not a Cairn database; ${instead ?? `pass a new or existing .db path instead, e.g. ${exampleHive(file)}`}. ` +
      `(${file}, from ${setting}, is ${empty ? "an empty file without a database's name" : "a file that is not an SQLite database"}; Cairn leaves it as it is.)`,
    { path: file },
  );
}

/** A hive file beside the one refused, not named as it is. */
function exampleHive(file: string): string {
  return path.join(path.dirname(file), path.basename(file) === "hive.db" ? "cairn-hive.db" : "hive.db");
}

function assertNotOtherApplicationsDatabase(file: string, setting: string, instead: string | undefined): void {
  const tables = otherApplicationsTables(file);
  if (!tables) return;
  const shown = tables.length > 8 ? `${tables.slice(0, 8).join(", ")}, … (${tables.length} in all)` : tables.join(", ");
  throw new CairnError(
    "INVALID_CONFIG",
    `${path.basename(file)} is another application's SQLite database (its tables: ${shown}), not a Cairn database; ` +
      `Cairn does not add its tables to it; ${instead ?? `pass a new or existing Cairn .db path instead, e.g. ${exampleHive(file)}`}. (${file}, from ${setting}; Cairn leaves it as it is.)`,
    { path: file, tables },
  );
}

/** true or false for a file that exists and can be read; undefined when there is none (or it cannot be read, a folder say: the open says why). */
export function startsAsSqlite(file: string): boolean | undefined {
  const kind = sqliteKindOfFile(file);
  return kind === undefined ? undefined : kind === "database";
}

/** What `head`, the first bytes read of a file (only those: not a buffer's unread tail), says the file is. */
export function sqliteKindOf(head: Buffer): SqliteFileKind {
  if (head.length >= SQLITE_HEADER.length && head.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return "database";
  if (head.length >= 4 && WAL_MAGIC.includes(head.readUInt32BE(0))) return "wal";
  return "other";
}

/** What a file is by its first bytes, read without opening it as a database (opening may write); undefined as startsAsSqlite. */
export function sqliteKindOfFile(file: string): SqliteFileKind | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return sqliteKindOf(head.subarray(0, read));
  } catch {
    // A folder where the file should be (EISDIR): the store's own open names it.
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

interface ReadOnlyDatabase {
  prepare(sql: string): { all(params: unknown[]): Array<Record<string, unknown>> };
  exec(sql: string): void;
  close(): void;
}

const USER_TABLES = "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";

/**
 * The tables of the SQLite database at `file` when it is another application's: it has tables, and not the row
 * (meta's entry_count) every Cairn version writes before its first migration, so a Cairn database of any schema
 * version is known; a `meta` table alone and empty is Cairn's first step, stopped before that row. undefined for
 * a Cairn database, one without tables, and one that cannot be read (damaged: opening it says so). Read on a
 * read-only connection: looking writes nothing into the file.
 */
export function otherApplicationsTables(file: string): string[] | undefined {
  const db = openReadOnly(file);
  if (!db) return undefined;
  try {
    const tables = db.prepare(USER_TABLES).all([]).map((r) => String(r.name));
    if (tables.length === 0 || (tables.includes("meta") && hasCairnMark(db, tables.length === 1))) return undefined;
    return tables;
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}

/** meta holds Cairn's entry_count row (or, as the only table, nothing yet); another application's meta may have other columns. */
function hasCairnMark(db: ReadOnlyDatabase, metaOnly: boolean): boolean {
  try {
    const row = db.prepare("SELECT EXISTS (SELECT 1 FROM meta WHERE key = 'entry_count') AS marked, NOT EXISTS (SELECT 1 FROM meta) AS empty").all([])[0];
    return row?.marked === 1 || (metaOnly && row?.empty === 1);
  } catch {
    return false;
  }
}

/** `mode=ro`, else (a WAL file without its -shm in a folder this user cannot write) `immutable=1`; undefined when neither reads. */
function openReadOnly(file: string): ReadOnlyDatabase | undefined {
  const uri = pathToFileURL(file).href;
  for (const how of ["mode=ro", "immutable=1"]) {
    let db: ReadOnlyDatabase | undefined;
    try {
      db = new Database(`${uri}?${how}`) as unknown as ReadOnlyDatabase;
      // A writer holding its lock makes the look wait as the store's own open would.
      db.exec("PRAGMA busy_timeout = 5000");
      // mode=ro opens lazily: the first read says whether it can read.
      db.prepare("SELECT count(*) FROM sqlite_schema").all([]);
      return db;
    } catch {
      try {
        db?.close();
      } catch {
        // A connection that could not read held nothing.
      }
    }
  }
  return undefined;
}
