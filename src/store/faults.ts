// SQLite failures a user can fix (damaged file, no permission, disk full) turned into typed errors naming the file and the way out.
import fs from "node:fs";
import path from "node:path";
import { CairnError, DatabaseDamagedError, DiskFullError, ReadOnlyDatabaseError } from "../errors.js";

/** SQLite primary result codes (the low byte of an extended code). */
const PERM = 3;
const READONLY = 8;
const IOERR = 10;
const CORRUPT = 11;
const FULL = 13;
const CANTOPEN = 14;
const NOTADB = 26;

/**
 * A write needs room for the write-ahead log: up to the size Cairn lets it keep between checkpoints
 * (the driver's journal_size_limit), which also covers the largest single write Cairn makes.
 */
export const WAL_ROOM_BYTES = 4 * 1024 * 1024;

function primaryCode(e: unknown): number | undefined {
  const err = e as { code?: unknown; rawCode?: unknown } | null;
  if (typeof err?.rawCode === "number") return err.rawCode & 0xff;
  const code = typeof err?.code === "string" ? err.code : "";
  if (code.startsWith("SQLITE_CORRUPT")) return CORRUPT;
  if (code.startsWith("SQLITE_NOTADB")) return NOTADB;
  if (code.startsWith("SQLITE_FULL")) return FULL;
  if (code.startsWith("SQLITE_READONLY")) return READONLY;
  if (code.startsWith("SQLITE_CANTOPEN")) return CANTOPEN;
  if (code.startsWith("SQLITE_PERM")) return PERM;
  if (code.startsWith("SQLITE_IOERR")) return IOERR;
  const unknown = /^UNKNOWN_SQLITE_ERROR_(\d+)$/.exec(code);
  return unknown ? Number(unknown[1]) & 0xff : undefined;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

/** Bytes this user may still write on the file system holding `file` (null where statfs is missing). */
export function freeBytes(file: string): number | null {
  try {
    const st = fs.statfsSync(path.dirname(file));
    return Number(st.bavail) * Number(st.bsize);
  } catch {
    return null;
  }
}

function canWrite(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function modeOf(p: string): string {
  try {
    const st = fs.statSync(p);
    return `mode ${(st.mode & 0o777).toString(8).padStart(4, "0")}, owner uid ${st.uid}`;
  } catch {
    return "missing";
  }
}

function whoAmI(): string {
  return typeof process.getuid === "function" ? `uid ${process.getuid()}` : "this user";
}

/**
 * Why this user cannot write `file`, or undefined when it can. SQLite in WAL mode writes the
 * database and creates `-wal`/`-shm` files beside it, so the folder must be writable too.
 */
export function readOnlyReason(file: string): string | undefined {
  if (file === ":memory:") return undefined;
  const dir = path.dirname(file);
  if (fs.existsSync(file) && !canWrite(file)) return `the file is not writable (${modeOf(file)}; you are ${whoAmI()})`;
  if (fs.existsSync(dir) && !canWrite(dir)) return `its folder ${dir} is not writable (${modeOf(dir)}; you are ${whoAmI()})`;
  return undefined;
}

/** What is wrong, without what to do: each reader adds the advice that fits where it is said. */
function damageFact(file: string, what: string): string {
  return `The database ${file} is damaged (${what}). Nothing was written to it.`;
}

/** Said by every command but doctor: it sends the person to doctor. */
export function damagedMessage(file: string, what: string): string {
  return (
    `${damageFact(file, what)} ` +
    "Run `cairn doctor` (with the same --project or --hive, if you gave one) to see what is affected, then `cairn doctor --repair` to copy every readable lesson into a fresh file " +
    "(the damaged file is kept beside it, renamed with a timestamp)."
  );
}

/** Doctor's own words: the person is already running it, so it says what to do next. */
export function damagedDoctorMessage(file: string, what: string): string {
  return (
    `${damageFact(file, what)} Run \`cairn doctor --repair\` to copy every readable lesson into a fresh file (the damaged file is kept beside it, renamed with a timestamp). ` +
    "If that saves too little, move the file aside and restore it from a backup, or `cairn import` an earlier `cairn export` into a fresh one."
  );
}

export function readOnlyError(file: string, reason: string): ReadOnlyDatabaseError {
  return new ReadOnlyDatabaseError(
    `Cannot write ${file}: ${reason}. Reads still work; to record anything make it writable (e.g. \`chmod u+w\` on the file and its folder) or run as its owner.`,
    { path: file, reason },
  );
}

/** A tier opened read-only, for faces whose users never see the stderr notice: what still works, what does not, the way out. */
export function readOnlyTierMessage(file: string, reason: string): string {
  return (
    `${file} is read-only: ${reason}. Lessons are still read and injected, but their usage counters are not updated and nothing can be recorded there; ` +
    "to record, make it writable (e.g. `chmod u+w` on the file and its folder) or run as its owner."
  );
}

/** The web page's words for a read-only tier, shown before anyone clicks: every decision made there is a write. */
export function readOnlyPageMessage(file: string, reason: string): string {
  return (
    `${file} is read-only: ${reason}. Its lessons are shown, but approving, rejecting or editing them will not be saved; ` +
    "to save, make it writable (e.g. `chmod u+w` on the file and its folder) or run `cairn ui` as its owner."
  );
}

export function diskFullError(file: string, pageLimit?: number): DiskFullError {
  const free = freeBytes(file);
  const needed = WAL_ROOM_BYTES;
  if (free !== null && free >= needed && pageLimit !== undefined) {
    // Room on disk: what filled up is the database's own size limit (PRAGMA max_page_count).
    return new DiskFullError(
      `Cannot write ${file}: the database reached its size limit (max_page_count = ${pageLimit} pages). The write was rolled back; everything saved before it is intact. Raise the limit or archive lessons, then try again.`,
      { path: file, free_bytes: free, needed_bytes: needed, page_limit: pageLimit },
    );
  }
  const have = free === null ? "an unknown amount of space" : `${formatBytes(free)}`;
  return new DiskFullError(
    `Cannot write ${file}: the disk is full (${have} free on the file system holding it; Cairn needs at least ${formatBytes(needed)} free there for its write-ahead log). ` +
      "The write was rolled back; everything saved before it is intact. Free some space (or move the database) and try again.",
    { path: file, free_bytes: free, needed_bytes: needed },
  );
}

/**
 * The typed error for an SQLite failure on `file`, or `e` itself when it is not one of the
 * faults a user can act on (bugs stay visible as they are).
 */
export function storeFault(e: unknown, file: string, opts: { pageLimit?: () => number | undefined } = {}): unknown {
  if (e instanceof CairnError) return e;
  const code = primaryCode(e);
  const message = (e as Error | null)?.message ?? String(e);
  switch (code) {
    case CORRUPT:
      return new DatabaseDamagedError(damagedMessage(file, message), { path: file, sqlite: message, damage: message });
    case NOTADB:
      return new DatabaseDamagedError(damagedMessage(file, "the file is not an SQLite database"), { path: file, sqlite: message, damage: "the file is not an SQLite database" });
    case FULL:
      return diskFullError(file, opts.pageLimit?.());
    case READONLY:
    case PERM:
      return readOnlyError(file, readOnlyReason(file) ?? `SQLite refused to write (${message})`);
    case CANTOPEN: {
      const reason = readOnlyReason(file);
      return new CairnError(
        "STORE_ERROR",
        `Cannot open database ${file}: ${reason ?? message}. Check that the path exists and that you may read${reason ? " and write" : ""} it.`,
        { path: file },
      );
    }
    case IOERR:
      return new CairnError("STORE_ERROR", `Input/output error on database ${file} (${message}). Check the disk, then run \`cairn doctor\`.`, { path: file });
    default:
      return e;
  }
}

export function isDamaged(e: unknown): e is DatabaseDamagedError {
  return e instanceof DatabaseDamagedError;
}

const noticed = new Set<string>();
/** One line on stderr per distinct notice per process: a read-only or damaged tier is said once, not per query. */
export function noticeOnce(key: string, text: string): void {
  if (noticed.has(key)) return;
  noticed.add(key);
  process.stderr.write(`cairn: ${text}\n`);
}
