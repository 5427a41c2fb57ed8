// Whether a file on disk is an SQLite database (its first bytes) and whether it is Cairn's (its tables, read before anything is written).
import fs from "node:fs";
import path from "node:path";
import { CairnError } from "../errors.js";

/** The first bytes of every SQLite database file. */
export const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** The first four bytes of an SQLite write-ahead log (big-endian number; the last bit is its checksums' byte order). */
const WAL_MAGIC = [0x377f0682, 0x377f0683];

/** What a file's first bytes say it is: an SQLite database, an SQLite write-ahead log, or something else. */
export type SqliteFileKind = "database" | "wal" | "other";

/** The names a database file carries: a file so named that is not SQLite is a damaged database, for `doctor --repair`. */
const DATABASE_NAME = /\.(?:db|db3|sqlite|sqlite3|s3db|sl3)$/i;

/** Where a database path came from (--hive, CAIRN_HIVE, --to, swarm_dir), and what to do instead (by default: pass another hive file). */
export interface PathSource {
  setting: string;
  instead?: string;
}

/**
 * A path naming a file that is not an SQLite database (a user's notes.md, an empty todo.txt) was given by mistake,
 * and is refused before anything opens it: opened, it would be written over as a new database, or reported damaged
 * and moved aside by `doctor --repair`. A file with a database's name (hive.db) that is not SQLite is a damaged
 * database instead, for `doctor --repair` to salvage. Another application's SQLite database is refused by the
 * store's own connection (assertNotOtherApplicationsDatabase), which reads its tables before writing anything.
 */
export function assertNotOtherFile(file: string, setting: string, instead?: string): void {
  const sqlite = startsAsSqlite(file);
  if (sqlite !== false || DATABASE_NAME.test(file)) return;
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

/**
 * Another application's SQLite database (a chat.db with its own tables), read on `db`, the connection just opened on
 * `file` and not yet written through: Cairn's migrations would add their tables to it, so it is refused by name.
 */
export function assertNotOtherApplicationsDatabase(db: SqliteConnection, file: string, from: PathSource): void {
  const tables = otherApplicationsTables(db);
  if (!tables) return;
  const shown = tables.length > 8 ? `${tables.slice(0, 8).join(", ")}, … (${tables.length} in all)` : tables.join(", ");
  throw new CairnError(
    "INVALID_CONFIG",
    `${path.basename(file)} is another application's SQLite database (its tables: ${shown}), not a Cairn database; ` +
      `Cairn does not add its tables to it; ${from.instead ?? `pass a new or existing Cairn .db path instead, e.g. ${exampleHive(file)}`}. (${file}, from ${from.setting}; Cairn leaves it as it is.)`,
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

/** What the tables check needs of a connection. */
export interface SqliteConnection {
  prepare(sql: string): { all(params: unknown[]): unknown[] };
}

const USER_TABLES = "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";

/**
 * The tables of the SQLite database `db` reads when it is another application's: it has tables, and not the row
 * (meta's entry_count) every Cairn version writes before its first migration, so a Cairn database of any schema
 * version is known; a `meta` table alone and empty is Cairn's first step, stopped before that row. undefined for
 * a Cairn database, one without tables, and one that cannot be read (damaged: the store's migration says so).
 */
export function otherApplicationsTables(db: SqliteConnection): string[] | undefined {
  try {
    const tables = db.prepare(USER_TABLES).all([]).map((r) => String((r as { name: unknown }).name));
    if (tables.length === 0 || (tables.includes("meta") && hasCairnMark(db, tables.length === 1))) return undefined;
    return tables;
  } catch {
    return undefined;
  }
}

/** meta holds Cairn's entry_count row (or, as the only table, nothing yet); another application's meta may have other columns. */
function hasCairnMark(db: SqliteConnection, metaOnly: boolean): boolean {
  try {
    const row = db.prepare("SELECT EXISTS (SELECT 1 FROM meta WHERE key = 'entry_count') AS marked, NOT EXISTS (SELECT 1 FROM meta) AS empty").all([])[0] as { marked: number; empty: number } | undefined;
    return row?.marked === 1 || (metaOnly && row?.empty === 1);
  } catch {
    return false;
  }
}
