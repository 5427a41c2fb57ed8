// Salvage of a damaged SQLite tier: the damaged file is kept aside, every readable row is copied into a fresh, migrated file.
import fs from "node:fs";
import path from "node:path";
import Database from "libsql";
import { BulkEntrySchema } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { SqliteDriver, type SqlValue } from "./driver.js";
import { migrate, MIGRATIONS } from "./migrations.js";
import { sqliteKindOf } from "./sqlite-file.js";

type Row = Record<string, unknown>;
interface RawStatement {
  all(params: SqlValue[]): Row[];
  get(params: SqlValue[]): Row | undefined;
}
interface RawDatabase {
  prepare(sql: string): RawStatement;
  exec(sql: string): void;
  close(): void;
}

export interface TableSalvage {
  table: string;
  /** Rows copied into the fresh file. */
  recovered: number;
  /** Rows read but refused by the fresh file (garbled JSON, broken constraints). */
  refused: number;
  /** Rows an intact index still lists whose own page could not be read: lost for certain (more may be, see `damaged`). */
  unreadable: number;
  /** A read of this table hit a damaged or missing page: rows on it are lost, how many only the index count above can tell. */
  damaged: boolean;
}

export interface RepairReport {
  file: string;
  /** Where the damaged file (and its -wal/-shm) now lives. */
  kept_as: string;
  /** Why nothing could be read, when the damaged file would not open at all or its table list is lost. */
  unreadable?: string;
  /** The file is shorter than its own header says (a copy cut off, a full disk): every page past the end is lost. */
  truncated?: { bytes: number; expected_bytes: number };
  tables: TableSalvage[];
  /** Entries the damaged file said it held (its own counter), when that was readable. */
  entries_expected?: number;
  integrity: string;
}

/**
 * Tables whose rows triggers derive from entries and events (tags, tallies, daily counts, usage per
 * project), and the full-text index: the fresh file rebuilds them as the rows go in, so they are not copied.
 */
const DERIVED = new Set(["meta", "entry_tags", "event_days", "project_usage", "entry_tallies", "entry_vector_counts"]);
const PAGE = 200;
/** Attempts to step over one damaged run of pages before giving up on the rest of a table. */
const MAX_SKIPS = 64;

function stamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, "-");
}

/**
 * A read failed because of the file's bytes (a damaged or missing page), not because of the query: a
 * partial index SQLite will not walk whole, or a table this file never had, loses no row.
 */
function isDamage(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^SQLITE_(CORRUPT|IOERR|NOTADB)/.test(code);
}

/**
 * How much shorter the file is than its header says. The header's page count is trusted only when
 * SQLite marked it current (offset 92 equal to the change counter at 24), as the file format specifies.
 */
function truncation(file: string): { bytes: number; expected_bytes: number } | undefined {
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, "r");
  let read: number;
  let bytes: number;
  try {
    read = fs.readSync(fd, header, 0, 100, 0);
    bytes = fs.fstatSync(fd).size;
  } finally {
    fs.closeSync(fd);
  }
  if (read < 100 || sqliteKindOf(header) !== "database") return undefined;
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  if (pages === 0 || header.readUInt32BE(92) !== header.readUInt32BE(24)) return undefined;
  const expected = pageSize * pages;
  return bytes < expected ? { bytes, expected_bytes: expected } : undefined;
}

/** Whether the damaged file's own table list (sqlite_schema) can still be read whole. */
function schemaReadable(src: RawDatabase): boolean {
  try {
    src.prepare("SELECT count(*) AS n FROM sqlite_schema").get([]);
    return true;
  } catch (e) {
    return !isDamage(e);
  }
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/**
 * Refuses when another process has the file open: its connection would follow the rename and keep
 * writing into the damaged file. An exclusive lock is only granted when no other connection holds one.
 */
function assertNotInUse(file: string): void {
  let db: (RawDatabase & { exec(sql: string): void }) | undefined;
  try {
    db = new Database(file) as unknown as RawDatabase;
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("ROLLBACK");
  } catch (e) {
    if (isBusy(e)) {
      throw new CairnError("CONFLICT", `${file} is open in another process (OpenCode, \`cairn mcp\`, \`cairn ui\`…). Stop it, then run \`cairn doctor --repair\` again.`, { path: file });
    }
    // Too damaged to lock is too damaged for anyone else to be using.
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a connection to a damaged file may fail; it held nothing.
    }
  }
}

/** Moves the damaged file and its journal files aside; SQLite finds `<aside>-wal` as that file's own WAL. */
function keepAside(file: string, now: Date): string {
  const aside = `${file}.damaged-${stamp(now)}`;
  fs.renameSync(file, aside);
  for (const suffix of ["-wal", "-shm"]) if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  return aside;
}

function copyableTables(fresh: SqliteDriver): string[] {
  const all = fresh.all<{ name: string; sql: string | null }>("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  const virtual = all.filter((t) => /^CREATE VIRTUAL/i.test(t.sql ?? "")).map((t) => t.name);
  return all
    .map((t) => t.name)
    .filter((n) => !DERIVED.has(n) && !virtual.some((v) => n === v || n.startsWith(`${v}_`)));
}

function columnsOf(db: Pick<RawDatabase, "prepare"> | SqliteDriver, table: string): string[] {
  const sql = `PRAGMA table_info("${table}")`;
  const rows = db instanceof SqliteDriver ? db.all(sql) : db.prepare(sql).all([]);
  return rows.map((r) => String(r.name));
}

/**
 * Reads every row SQLite can still reach, in rowid order. A damaged page fails the read that crosses
 * it: the walk then steps forward in growing jumps until a read succeeds again, and rows whose rowid an
 * intact index still lists are fetched one by one, so only rows on damaged pages are lost. Rows are
 * counted unreadable only when an index names them and their fetch fails: a failed scan says damage
 * (`damaged`), not how many rows it hid.
 */
function readRows(src: RawDatabase, table: string, cols: string[]): { rows: Row[]; unreadable: number; damaged: boolean } {
  const list = cols.map((c) => `"${c}"`).join(", ");
  const byRowid = new Map<number, Row>();
  const lost = new Set<number>();
  let damaged = false;
  let last = Number.MIN_SAFE_INTEGER;
  let skips = 0;
  for (;;) {
    let page: Row[];
    try {
      page = src.prepare(`SELECT rowid AS __rowid, ${list} FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`).all([last]);
    } catch (e) {
      if (!isDamage(e)) break;
      damaged = true;
      if (++skips > MAX_SKIPS) break;
      // Step over the damage: 1, 2, 4, … rowids ahead of the last row read.
      last = last === Number.MIN_SAFE_INTEGER ? 0 : last + 2 ** (skips - 1);
      continue;
    }
    if (page.length === 0) break;
    for (const r of page) byRowid.set(Number(r.__rowid), r);
    last = Number(page[page.length - 1]!.__rowid);
  }
  // Rowids an index still knows about, fetched one at a time (a lookup touches only that row's page).
  let indexes: string[] = [];
  try {
    indexes = src.prepare(`SELECT name FROM pragma_index_list('${table}')`).all([]).map((r) => String(r.name));
  } catch (e) {
    if (isDamage(e)) damaged = true;
  }
  for (const index of indexes) {
    let rowids: number[] = [];
    try {
      rowids = src.prepare(`SELECT rowid AS r FROM "${table}" INDEXED BY "${index}"`).all([]).map((r) => Number(r.r));
    } catch (e) {
      if (isDamage(e)) damaged = true;
      continue;
    }
    for (const id of rowids) {
      if (byRowid.has(id) || lost.has(id)) continue;
      try {
        const r = src.prepare(`SELECT rowid AS __rowid, ${list} FROM "${table}" WHERE rowid = ?`).get([id]);
        if (r) byRowid.set(id, r);
      } catch (e) {
        if (!isDamage(e)) continue;
        lost.add(id);
        damaged = true;
      }
    }
  }
  return { rows: [...byRowid.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r), unreadable: lost.size, damaged };
}

function validRow(table: string, row: Row): boolean {
  if (table !== "entries") return true;
  try {
    return BulkEntrySchema.get().safeParse(JSON.parse(String(row.data))).success;
  } catch {
    return false;
  }
}

function metaValue(src: RawDatabase, key: string): number | undefined {
  try {
    const v = src.prepare("SELECT value FROM meta WHERE key = ?").get([key])?.value;
    return typeof v === "number" ? v : undefined;
  } catch {
    return undefined;
  }
}

/** What the copy found, before the fresh file takes the damaged one's place. */
type Salvage = Pick<RepairReport, "unreadable" | "tables" | "entries_expected">;

/** Copies every row `srcFile` still gives into `fresh` (migrated); reads only, never writes the damaged file. */
/** Rows copied between two turns of the event loop, when a signal may stop the repair. */
const ROWS_PER_TURN = 500;

async function copyInto(fresh: SqliteDriver, srcFile: string, signal?: AbortSignal): Promise<Salvage> {
  let src: RawDatabase;
  try {
    src = new Database(srcFile) as unknown as RawDatabase;
    // Reading with the schema check relaxed still reaches tables whose own pages are intact when
    // another table's definition (or a trigger's) sits on a lost page. Nothing is written to this file.
    src.exec("PRAGMA writable_schema = ON");
  } catch (e) {
    return { unreadable: (e as Error).message, tables: [] };
  }
  const tables: TableSalvage[] = [];
  try {
    for (const table of copyableTables(fresh)) {
      const freshCols = new Set(columnsOf(fresh, table));
      let cols: string[];
      try {
        cols = columnsOf(src, table).filter((c) => freshCols.has(c));
      } catch {
        // The schema itself is partly lost: try the current columns (reads fail cleanly if they differ).
        cols = [...freshCols];
      }
      // A table the damaged file never had (an older schema) has nothing to copy.
      if (cols.length === 0) continue;
      const { rows, unreadable, damaged } = readRows(src, table, cols);
      const insert = `INSERT INTO "${table}"(${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`;
      let recovered = 0;
      let refused = 0;
      for (const [i, row] of rows.entries()) {
        // The driver is synchronous: without a turn of the event loop now and then no Ctrl-C is heard until the end.
        if (signal && i % ROWS_PER_TURN === 0) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (signal.aborted) throw new CairnError("INTERRUPTED", `The repair was stopped before it finished: ${srcFile} was left as it was (still damaged; run \`cairn doctor --repair\` again), and its unfinished copy was removed.`, { path: srcFile });
        }
        if (!validRow(table, row)) {
          refused++;
          continue;
        }
        try {
          fresh.transaction(() => fresh.run(insert, cols.map((c) => row[c] as SqlValue)));
          recovered++;
        } catch {
          refused++;
        }
      }
      tables.push({ table, recovered, refused, unreadable, damaged });
    }
    // Rows of an older schema missed the JavaScript steps of the migrations after it (a reindex of
    // text the engine derives): run over the copied rows as opening that file would have.
    const copiedFrom = schemaVersion(src);
    for (const m of MIGRATIONS) {
      if (copiedFrom === undefined || m.version <= copiedFrom || !m.run) continue;
      try {
        fresh.transaction(() => m.run!(fresh));
      } catch {
        // A salvage keeps what it copied: the rows stay as the older version indexed them.
      }
    }
    // Handles are never reused: the fresh file continues after the highest one the damaged file gave out.
    const lastSeq = metaValue(src, "last_seq");
    if (lastSeq !== undefined) fresh.run("UPDATE meta SET value = max(value, ?) WHERE key = 'last_seq'", [lastSeq]);
    const expected = metaValue(src, "entry_count");
    // Without its table list the file shows no table at all, which would read as an empty file.
    const nothing = tables.every((t) => t.recovered === 0);
    const why = !schemaReadable(src) && nothing ? "its table list is on a damaged or missing page" : nothing && tables.some((t) => t.damaged) ? "no table of it could be read" : undefined;
    return { ...(why ? { unreadable: why } : {}), tables, ...(expected !== undefined ? { entries_expected: expected } : {}) };
  } finally {
    src.close();
  }
}

/** `file` and its journal files, if any. */
function withJournals(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/** Copies a repair stopped before it finished left beside `file` (its own, unfinished: the damaged file was still in place). */
function removeUnfinishedCopies(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.repairing-`;
  for (const name of fs.readdirSync(dir)) if (name.startsWith(prefix)) fs.rmSync(path.join(dir, name), { force: true });
}

/**
 * Repairs a damaged database file in place: every row that can be read is copied into a fresh file
 * with the current schema, built beside it as `<file>.repairing-<time>`, so the full-text index, tags,
 * tallies and counters are rebuilt by the schema's own triggers. Only the finished copy takes the
 * file's place, and the damaged file is renamed `<file>.damaged-<time>` (never deleted): a repair
 * killed half-way leaves the damaged file where it was, to be repaired again, never half a copy.
 */
export async function repairDatabase(file: string, now = new Date(), signal?: AbortSignal): Promise<RepairReport> {
  assertNotInUse(file);
  removeUnfinishedCopies(file);
  const cut = truncation(file);
  const building = `${file}.repairing-${stamp(now)}`;
  let salvage: Salvage;
  let checked: string;
  try {
    const fresh = new SqliteDriver(building);
    try {
      migrate(fresh);
      salvage = await copyInto(fresh, file, signal);
      checked = integrity(fresh);
    } finally {
      fresh.close();
    }
  } catch (e) {
    for (const f of withJournals(building)) fs.rmSync(f, { force: true });
    throw e;
  }
  const keptAs = keepAside(file, now);
  withJournals(building).forEach((from, i) => {
    if (fs.existsSync(from)) fs.renameSync(from, withJournals(file)[i]!);
  });
  return {
    file,
    kept_as: keptAs,
    ...(salvage.unreadable !== undefined ? { unreadable: salvage.unreadable } : {}),
    ...(cut ? { truncated: cut } : {}),
    tables: salvage.tables,
    ...(salvage.entries_expected !== undefined ? { entries_expected: salvage.entries_expected } : {}),
    integrity: checked,
  };
}

/** The damaged file's schema version, when it can still be read. */
function schemaVersion(src: RawDatabase): number | undefined {
  try {
    const v = src.prepare("PRAGMA user_version").get([])?.user_version;
    return typeof v === "number" ? v : undefined;
  } catch {
    return undefined;
  }
}

function integrity(db: SqliteDriver): string {
  return db.get<{ integrity_check: string }>("PRAGMA integrity_check")?.integrity_check ?? "unknown";
}
