// Whether a file on disk is an SQLite database by its first bytes, read without opening it (opening may write).
import fs from "node:fs";
import path from "node:path";
import { CairnError } from "../errors.js";

/** The first bytes of every SQLite database file. */
export const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

/** The names a database file carries: a file so named that is not SQLite is a damaged database, for `doctor --repair`. */
const DATABASE_NAME = /\.(?:db|db3|sqlite|sqlite3|s3db|sl3)$/i;

/**
 * A hive path naming a file that is not an SQLite database (a user's notes.md, an empty todo.txt) was given by mistake:
 * opened, it would be written over as a new database, or reported damaged and moved aside by `doctor --repair`.
 * It is refused before anything is written. A file with a database's name (hive.db) that is not SQLite is a damaged
 * database instead, for `doctor --repair` to salvage. `setting` names where the path came from (--hive, CAIRN_HIVE, --to).
 */
export function assertNotOtherFile(file: string, setting: string): void {
  if (DATABASE_NAME.test(file) || startsAsSqlite(file) !== false) return;
  const empty = fs.statSync(file).size === 0;
  throw new CairnError(
    "INVALID_CONFIG",
    `${path.basename(file)} is not a Cairn database; pass a new or existing .db path instead, e.g. ${path.join(path.dirname(file), "hive.db")}. ` +
      `(${file}, from ${setting}, is ${empty ? "an empty file without a database's name" : "a file that is not an SQLite database"}; Cairn leaves it as it is.)`,
    { path: file },
  );
}

/** true or false for a file that exists and can be read; undefined when there is none (or it cannot be read: the open says why). */
export function startsAsSqlite(file: string): boolean | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.equals(SQLITE_HEADER);
  } finally {
    fs.closeSync(fd);
  }
}
