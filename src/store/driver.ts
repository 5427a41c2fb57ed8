// The one place that talks to the SQLite driver: busy timeout, reopen-on-BUSY retries, array binds.
import Database from "libsql";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CairnError } from "../errors.js";
import { makeFolder, nearestExistingAncestor } from "../core/folders.js";
import { collectGarbageNow } from "../core/full-collection.js";
import { betweenCalls } from "./between-calls.js";
import { noticeOnce, readOnlyError, readOnlyReason, storeFault } from "./faults.js";
import { assertNotOtherApplicationsDatabase, type PathSource } from "./sqlite-file.js";

export type SqlValue = string | number | bigint | null | Buffer;
type Row = Record<string, unknown>;

interface RawStatement {
  run(params: SqlValue[]): { changes: number; lastInsertRowid: number | bigint };
  get(params: SqlValue[]): Row | undefined;
  all(params: SqlValue[]): Row[];
  columns(): Array<{ name: string }>;
}
interface RawDatabase {
  prepare(sql: string): RawStatement;
  exec(sql: string): void;
  close(): void;
}

export interface DriverOptions {
  /** Milliseconds SQLite waits on a locked database before reporting BUSY. */
  busyTimeoutMs?: number;
  /** How many times a BUSY operation is retried on a fresh connection. */
  busyRetries?: number;
  /** Where the path came from: another application's database found there is refused naming it, before anything is written. */
  from?: PathSource;
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || code === "SQLITE_BUSY_SNAPSHOT";
}

/** A write kept waiting on another process's lock this long says so on stderr (see withBusyRetry). */
const LOCK_NOTICE_AFTER_MS = 1000;
/** ~32 MB of WAL before SQLite checkpoints inside a commit; normally the idle checkpoint runs long before. */
const AUTO_CHECKPOINT_PAGES = 8000;
/** A checkpoint runs this long after the first write since the last one: between turns, not inside one. */
const IDLE_CHECKPOINT_MS = 1000;
/** After a checkpoint resets the WAL, SQLite cuts the file back to this size instead of keeping its high-water mark. */
const JOURNAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;
/**
 * Page cache of a connection during a bulk load (see bulkLoad), KiB. SQLite's default 2 MB holds too
 * few of the pages each batch's inserts read again (indexes, FTS segments being merged): replaying
 * 60k bench rows, 273 µs CPU a row with 2 MB, 232 with 16 MB, 214 with 64 MB. 64 MB is not kept:
 * glibc does not hand the freed cache back to the OS, so a long-running process stayed ~60–75 MB
 * larger after one import (16 MB: ~10 MB).
 */
const BULK_CACHE_KIB = 16 * 1024;

/**
 * A multi-row read packed into one row, read with get(). The native cursor that libsql 0.5's
 * all()/iterate() create (~900 bytes) is freed only by a finalizer Node runs on a later turn of the
 * event loop, so synchronous work (a turn, an import batch, a bench loop) piles them up — a full
 * GC does not return them; get() frees its cursor at once. The rows come back as one JSON
 * array of arrays, in the query's order (SQLite keeps a FROM-subquery's ORDER BY under an
 * aggregate such as json_group_array). A REAL travels as ["<17 significant digits>"] because
 * SQLite's JSON prints only 15 and the value must read back exactly.
 *
 * A column of JSON text (ReadOptions.json) travels beside the pack, not in it: its texts joined
 * into one JSON array, so a single JSON.parse returns them parsed. Inside the pack each text was
 * escaped by SQLite, un-escaped by the pack's JSON.parse, then parsed again by the caller: at 10k
 * the entries' `data` (~1 KB a row) was most of an inject's read cost.
 */
interface PackedRead {
  stmt: RawStatement;
  names: string[];
  /** Index in `names` of the JSON column read beside the pack, or -1. */
  json: number;
}

/** How a read returns its rows. */
export interface ReadOptions {
  /** A column holding JSON text written by JSON.stringify: returned parsed (NULL as null). */
  json?: string;
}

function packedValue(c: string): string {
  return `iif(typeof(${c}) = 'real', json_array(printf('%!.17g', ${c})), ${c})`;
}

function packedSql(sql: string, names: readonly string[], json: number): string {
  const cols = names.map((_, i) => `c${i}`);
  const values = cols.filter((_, i) => i !== json).map(packedValue);
  // group_concat and json_group_array see the rows in the same order; a NULL must keep its place.
  const texts = json < 0 ? "" : `, '[' || group_concat(coalesce(c${json}, 'null'), ',') || ']' AS json`;
  return `WITH cairn_rows(${cols.join(", ")}) AS (${sql}) SELECT json_group_array(json_array(${values.join(", ")})) AS rows${texts} FROM cairn_rows`;
}

function realFromText(text: string): number {
  return text === "Inf" ? Infinity : text === "-Inf" ? -Infinity : Number(text);
}

function unpackRows(packed: { rows: string; json?: string | null }, names: readonly string[], json: number): Row[] {
  const values = JSON.parse(packed.rows) as unknown[][];
  const texts = json < 0 ? undefined : (JSON.parse(packed.json ?? "[]") as unknown[]);
  const rows: Row[] = new Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const row: Row = {};
    // Same column naming as the driver's own rows: a repeated name keeps the last value.
    for (let i = 0, v = 0; i < names.length; i++) {
      if (i === json) {
        row[names[i]!] = texts![r];
        continue;
      }
      const value = values[r]![v++];
      row[names[i]!] = Array.isArray(value) ? realFromText(value[0] as string) : value;
    }
    rows[r] = row;
  }
  return rows;
}

/** A packed form is kept per statement text and JSON column. */
function packedKey(sql: string, jsonColumn: string | undefined): string {
  return jsonColumn === undefined ? sql : `${sql}\u0000${jsonColumn}`;
}

/** The plain path's rows with the JSON column parsed, as a packed read returns them. */
function parseJsonColumn(rows: Row[], column: string | undefined): Row[] {
  if (column === undefined) return rows;
  for (const row of rows) {
    const text = row[column];
    if (text !== undefined) row[column] = text === null ? null : JSON.parse(String(text));
  }
  return rows;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * A synchronous SQLite connection. libSQL can acknowledge a write that is never saved after
 * an SQLITE_BUSY on the same connection (an open upstream bug), so a BUSY anywhere discards
 * the connection, reopens it, and re-runs the whole unit of work. Units are kept short so a
 * re-run is cheap and idempotent from the caller's point of view.
 */
/**
 * libSQL closes a connection only once its prepared statements are garbage-collected; until then
 * the file stays open (and locked, for an exclusive check). Runs a full collection so connections
 * closed in this process really let go of their files (rare paths only: `doctor --repair`).
 */
export async function collectClosedConnections(): Promise<void> {
  // A runtime offering no collection: the exclusive check may then refuse, naming the way out.
  collectGarbageNow();
  await new Promise((r) => setImmediate(r));
}

/** A folder that exists but takes no new folders (a system folder such as /proc): say where to point instead. */
function noFoldersHereError(file: string): CairnError {
  const parent = nearestExistingAncestor(path.dirname(file)) ?? path.dirname(file);
  return new CairnError("IO_ERROR", `Cannot create the folder for ${file}: no folder can be made inside ${parent} (a system folder?). Point it at a folder you can write.`, { path: file });
}

/** The database's folder cannot be made because a file stands where a folder must be (a file named `.swarm`): name that file. */
function blockedFolderError(file: string): CairnError {
  const blocker = nearestExistingAncestor(path.dirname(file)) ?? path.dirname(file);
  return new CairnError("IO_ERROR", `Cannot create the folder for ${file}: ${blocker} is a file, not a folder. Move or rename that file, then run the command again.`, { path: file });
}

/** Another application's database is refused (its connection closed), so Cairn writes nothing into it. */
function refuseOtherApplications(db: RawDatabase, file: string, from: PathSource): void {
  try {
    assertNotOtherApplicationsDatabase(db, file, from);
  } catch (e) {
    db.close();
    throw e;
  }
}

export class SqliteDriver {
  readonly file: string;
  private db: RawDatabase;
  private statements = new Map<string, RawStatement>();
  /** Packed forms of multi-row reads (see PackedRead); null where a statement cannot be packed. */
  private packedReads = new Map<string, PackedRead | null>();
  private readonly busyTimeoutMs: number;
  private readonly busyRetries: number;
  private depth = 0;
  /**
   * Write transactions begun (batches, transactions, rehearsals). While one is open no other
   * connection can commit (this one holds the write lock), so what a caller read of other
   * connections' commits inside it stays true until it ends: see inWriteTransaction.
   */
  writeTransactions = 0;
  /** Counts reopen-on-BUSY events; exposed for `cairn doctor` and the regression test. */
  reopenCount = 0;
  /** Idle checkpoints run so far (for the regression test and `cairn doctor`). */
  idleCheckpoints = 0;
  /** Explicit transactions and batches committed (autocommit statements not counted): bulk-load tests read it. */
  commits = 0;
  /** Statements run through run/get/all (savepoints and exec not counted): bulk-load tests read the count per row. */
  statementsRun = 0;
  /** Rows returned by get/all: tests read it to check a page read only its page. */
  rowsRead = 0;
  /** Of those, rows whose JSON column came back parsed (entries read whole): tests count what a search parsed. */
  jsonRowsRead = 0;
  /** Rehearsals (warm-up writes rolled back, see rehearse) that ran to the end: the regression test reads it. */
  rehearsals = 0;
  /** WAL restarts done between calls after an idle checkpoint (see writeUnchanged); the regression test reads it. */
  walRestarts = 0;
  private checkpointTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bulk loads running (see bulkLoad): open() gives a connection reopened meanwhile their settings too. */
  private bulkLoads = 0;
  /** Bulk loads ended so far (the regression test reads it). */
  bulkLoadsEnded = 0;
  /**
   * Why this user cannot write the file (set when it was opened read-only), else undefined. Reads
   * work on such a connection; writes fail with READ_ONLY naming the file and the permission.
   */
  readonly readOnly: string | undefined;
  private writeBlocker: Error | undefined;
  /** Writes that may wait for the next use of this connection or a moment between calls (see deferWrite). */
  private deferred: Array<() => void> = [];
  /** Deferred writes committed so far, each group in one transaction (the regression test reads it). */
  deferredFlushes = 0;

  constructor(file: string, opts: DriverOptions = {}) {
    this.file = file;
    this.busyTimeoutMs = opts.busyTimeoutMs ?? 5000;
    this.busyRetries = opts.busyRetries ?? 20;
    // An existing file this user may not write (or whose folder it may not write) opens read-only.
    this.readOnly = fs.existsSync(file) ? readOnlyReason(file) : undefined;
    if (file !== ":memory:" && !this.readOnly) {
      try {
        makeFolder(path.dirname(file));
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        if (err.code === "EACCES" || err.code === "EPERM" || err.code === "EROFS") throw readOnlyError(file, `cannot create its folder (${err.code})`);
        if (err.code === "EEXIST" || err.code === "ENOTDIR") throw blockedFolderError(file);
        if (err.code === "ENOENT") throw noFoldersHereError(file);
        throw e;
      }
    }
    this.db = this.open(opts.from);
  }

  /** Every later write throws `reason` (a stand-in for a damaged file must never take a write it would lose). */
  refuseWrites(reason: Error): void {
    this.writeBlocker = reason;
  }

  private assertWritable(): void {
    if (this.writeBlocker) throw this.writeBlocker;
  }

  /** A read-only connection: `mode=ro`, else (WAL file without its -shm in a read-only folder) `immutable=1`. */
  private openReadOnly(): RawDatabase {
    const uri = pathToFileURL(this.file).href;
    try {
      const db = new Database(`${uri}?mode=ro`) as unknown as RawDatabase;
      // mode=ro opens lazily: a WAL database whose -shm cannot be created fails on the first read.
      db.prepare("SELECT count(*) FROM sqlite_schema").get([]);
      return db;
    } catch (e) {
      // immutable: nobody can write it while we read (the folder refuses the -wal a writer needs).
      if (isBusy(e)) throw e;
      return new Database(`${uri}?immutable=1`) as unknown as RawDatabase;
    }
  }

  /** A configured connection; `from` (the first open only): the file is looked at before the first pragma that writes. */
  private open(from?: PathSource): RawDatabase {
    try {
      const db = this.readOnly ? this.openReadOnly() : (new Database(this.file) as unknown as RawDatabase);
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(this.busyTimeoutMs))}`);
      if (from) refuseOtherApplications(db, this.file, from);
      if (!this.readOnly) db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      // Checkpoints run between turns (see noteWrite); this larger automatic one is only a safety net.
      db.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      // Without a limit a WAL keeps its largest size for good (30 MB seen in a project's .swarm/).
      db.exec(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
      db.exec("PRAGMA foreign_keys = ON");
      // Deleted rows are zeroed, not left in free pages: a capped-out rejected lesson must leave no bytes behind.
      db.exec("PRAGMA secure_delete = ON");
      if (this.bulkLoads > 0) this.tuneForBulkLoad(db);
      return db;
    } catch (e) {
      // A refusal of another application's database already says what to do.
      if (isBusy(e) || e instanceof CairnError) throw e;
      const fault = storeFault(e, this.file);
      if (fault !== e) throw fault;
      // libSQL says only "ConnectionFailed(…: 14)" (SQLITE_CANTOPEN) for a folder standing where the file goes.
      if (isFolder(this.file)) {
        throw new CairnError(
          "STORE_ERROR",
          `Cannot open database ${this.file}: it is a folder, not a database file. Move or rename that folder; Cairn creates the database file there on first use.`,
          { path: this.file },
        );
      }
      throw new CairnError("STORE_ERROR", `Cannot open database ${this.file}: ${(e as Error).message}`, { path: this.file });
    }
  }

  /** The page limit when the database stands at it (SQLITE_FULL from max_page_count rather than the disk). */
  private pageLimitReached(): number | undefined {
    try {
      const max = (this.db.prepare("PRAGMA max_page_count").get([]) as { max_page_count: number }).max_page_count;
      const count = (this.db.prepare("PRAGMA page_count").get([]) as { page_count: number }).page_count;
      return count >= max - 1 ? max : undefined;
    } catch {
      return undefined;
    }
  }

  /** Damaged file, no permission, full disk: typed errors naming this file and the way out. */
  private fault(e: unknown): unknown {
    return storeFault(e, this.file, { pageLimit: () => this.pageLimitReached() });
  }

  private reopen(): void {
    try {
      this.db.close();
    } catch {
      // The old connection is being thrown away; a failure to close it changes nothing.
    }
    this.statements.clear();
    this.packedReads.clear();
    this.reopenCount++;
    this.db = this.open();
  }

  /** Prepared statements held (~3 KB of native memory each, kept until close: the SQL texts must not vary without bound). */
  get statementCount(): number {
    return this.statements.size;
  }

  private packedRead(sql: string, jsonColumn: string | undefined): PackedRead | null {
    const key = packedKey(sql, jsonColumn);
    let p = this.packedReads.get(key);
    if (p !== undefined) return p;
    p = null;
    // Only a query can be a subquery; PRAGMA, RETURNING and the like keep the plain path.
    if (/^\s*(select|with)\b/i.test(sql)) {
      const names = this.stmt(sql).columns().map((c) => c.name);
      // A repeated name keeps the last value, so the JSON column is the last of that name.
      const json = jsonColumn === undefined ? -1 : names.lastIndexOf(jsonColumn);
      try {
        if (jsonColumn === undefined || json >= 0) p = { stmt: this.stmt(packedSql(sql, names, json)), names, json };
      } catch (e) {
        if (isBusy(e)) throw e;
      }
    }
    this.packedReads.set(key, p);
    return p;
  }

  private stmt(sql: string): RawStatement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Runs `work` and, when SQLite reports BUSY, reopens and retries with backoff. */
  private withBusyRetry<T>(work: () => T): T {
    const started = performance.now();
    let told = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return work();
      } catch (e) {
        if (!isBusy(e) || this.depth > 0) throw this.fault(e);
        const waitedMs = performance.now() - started;
        if (attempt >= this.busyRetries) {
          throw new CairnError(
            "STORE_ERROR",
            `Database ${this.file} stayed locked for ${(waitedMs / 1000).toFixed(1)} s (${attempt + 1} attempts of busy_timeout_ms = ${this.busyTimeoutMs} ms each): another process (OpenCode, cairn mcp, cairn ui, an import) holds a long write. Try again once it is done, or raise busy_timeout_ms to wait longer.`,
            { path: this.file, waited_ms: Math.round(waitedMs) },
          );
        }
        // Up to busyRetries + 1 waits of busy_timeout_ms each is a long silence: whoever waits learns why, once per wait.
        if (!told && waitedMs >= LOCK_NOTICE_AFTER_MS) {
          told = true;
          const upTo = Math.ceil(((this.busyRetries + 1) * this.busyTimeoutMs) / 1000);
          process.stderr.write(`cairn: waiting for ${this.file}: another process holds its write lock (trying again for up to ~${upTo} s; busy_timeout_ms sets each wait)…\n`);
        }
        this.reopen();
        sleepSync(Math.min(200, 5 * 2 ** attempt) + Math.random() * 10);
      }
    }
  }

  run(sql: string, params: SqlValue[] = []): { changes: number; lastInsertRowid: number } {
    this.writeDeferred();
    this.assertWritable();
    this.statementsRun++;
    const result = this.withBusyRetry(() => {
      const r = this.stmt(sql).run(params);
      return { changes: r.changes, lastInsertRowid: Number(r.lastInsertRowid) };
    });
    if (this.depth === 0 && result.changes > 0) this.noteWrite();
    return result;
  }

  /**
   * A WAL checkpoint inside a commit costs several ms (it was the whole p99 of injection), so
   * SQLite's automatic one is pushed far out and a PASSIVE checkpoint is scheduled instead. A call
   * that only touches SQLite never yields, so the timer fires between calls; one that waits on the
   * team hive does yield, so the checkpoint also waits for the calls in flight to answer (betweenCalls).
   */
  private noteWrite(): void {
    if (this.checkpointTimer || this.file === ":memory:") return;
    this.checkpointTimer = setTimeout(() => {
      betweenCalls(() => {
        // Closed while it waited for a call to answer: close() folded the WAL in already.
        if (this.checkpointTimer === undefined) return;
        this.checkpointTimer = undefined;
        // During a bulk load SQLite's automatic checkpoint bounds the WAL; the load checkpoints when it ends.
        if (this.bulkLoads > 0) return;
        // A batch holds a write transaction across awaits; checkpoint after it commits.
        if (this.depth > 0) return this.noteWrite();
        if (this.upkeep(() => this.checkpointPassive())) this.idleCheckpoints++;
      });
    }, IDLE_CHECKPOINT_MS);
    this.checkpointTimer.unref?.();
  }

  /**
   * Folds the WAL into the database without blocking anyone and, when all of it went in, starts the
   * log over (see restartWal). False when it could not run (busy, closed): the next write schedules
   * another, and SQLite's automatic checkpoint remains the safety net.
   */
  private checkpointPassive(): boolean {
    try {
      const r = this.stmt("PRAGMA wal_checkpoint(PASSIVE)").get([]) as { busy: number; log: number; checkpointed: number } | undefined;
      if (r && r.busy === 0 && r.log > 0 && r.checkpointed === r.log) this.restartWal();
      return true;
    } catch {
      return false;
    }
  }

  /** A bulk load's settings (see bulkLoad), on a connection just opened or already in use. */
  private tuneForBulkLoad(db: RawDatabase): void {
    db.exec(`PRAGMA cache_size = -${BULK_CACHE_KIB}`);
  }

  /**
   * Runs `fn` (a bulk import's batches) on a connection tuned for many inserts in a row: a larger
   * page cache (BULK_CACHE_KIB), and no idle checkpoint between batches (each was a PASSIVE
   * checkpoint and a WAL restart with its syncs, every second of the load); SQLite's automatic
   * checkpoint (AUTO_CHECKPOINT_PAGES, PASSIVE, after a commit) still bounds the WAL however long the
   * load. Durability is unchanged (synchronous = NORMAL in WAL). Afterwards, even on an error, the
   * usual cache returns, the WAL left is checkpointed once, and the cache's pages are freed
   * (shrink_memory). A nested call shares the outer one's settings; a connection reopened on BUSY gets them too.
   */
  async bulkLoad<T>(fn: () => Promise<T>): Promise<T> {
    if (this.bulkLoads === 0 && !this.readOnly) this.tuneForBulkLoad(this.db);
    this.bulkLoads++;
    try {
      return await fn();
    } finally {
      if (--this.bulkLoads === 0 && !this.readOnly) this.endBulkLoad();
    }
  }

  /** The usual cache again, one checkpoint for the WAL the load left, and the big cache's pages freed. */
  private endBulkLoad(): void {
    try {
      // SQLite's default: open() never sets one.
      this.db.exec("PRAGMA cache_size = -2000");
      // Inside a transaction of this connection a checkpoint cannot run: the idle one follows its commit.
      if (this.depth > 0) this.noteWrite();
      else this.checkpointPassive();
      this.db.exec("PRAGMA shrink_memory");
      this.bulkLoadsEnded++;
    } catch {
      // Closed meanwhile: a connection opened later starts with the usual settings.
    }
  }

  /**
   * Writes the schema version back unchanged: a commit that changes no data. The first commit into
   * an empty or fully checkpointed WAL starts the log over: it rewrites the WAL header, syncs it and
   * cuts the file back to journal_size_limit — 4–15 ms measured, paid by whatever write came next
   * (a process's first add; after every idle checkpoint, the next injection's usage count: that was
   * injection's p99 at 10k). Committed from here, the restart happens between calls. Runs inside a
   * write transaction of this connection.
   */
  private writeUnchanged(): void {
    const version = (this.stmt("PRAGMA user_version").get([]) as { user_version: number }).user_version;
    this.db.exec(`PRAGMA user_version = ${Math.floor(version)}`);
  }

  /**
   * Takes the write lock for upkeep between calls, or returns false: never waits for the lock, and
   * never on a connection that may not write now (read-only, refusing writes, in memory, or inside a
   * transaction of its own).
   */
  private beginIfFree(): boolean {
    if (this.readOnly || this.writeBlocker || this.depth > 0 || this.file === ":memory:") return false;
    try {
      this.db.exec("PRAGMA busy_timeout = 0");
      try {
        this.db.exec("BEGIN IMMEDIATE");
      } finally {
        this.db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(this.busyTimeoutMs))}`);
      }
      return true;
    } catch {
      return false;
    }
  }

  /** After an idle checkpoint took in the whole WAL: start the log over now (see writeUnchanged), not in the next call. */
  private restartWal(): void {
    if (!this.beginIfFree()) return;
    try {
      this.writeUnchanged();
      this.db.exec("COMMIT");
      this.walRestarts++;
    } catch {
      try {
        this.db.exec("ROLLBACK");
      } catch {
        // Already rolled back by SQLite.
      }
    }
  }

  /** Compiles a statement into the cache now, so its first run (by `all` with the same options, for a read) does not pay for it. */
  prepare(sql: string, opts: ReadOptions = {}): void {
    this.withBusyRetry(() => this.packedRead(sql, opts.json) ?? this.stmt(sql));
  }

  get<T = Row>(sql: string, params: SqlValue[] = [], opts: ReadOptions = {}): T | undefined {
    this.writeDeferred();
    this.statementsRun++;
    const row = this.withBusyRetry(() => this.stmt(sql).get(params));
    if (row) this.rowsRead++;
    if (row && opts.json !== undefined) this.jsonRowsRead++;
    return (row ? parseJsonColumn([row], opts.json)[0] : undefined) as T | undefined;
  }

  all<T = Row>(sql: string, params: SqlValue[] = [], opts: ReadOptions = {}): T[] {
    this.writeDeferred();
    this.statementsRun++;
    const rows = this.withBusyRetry(() => {
      const packed = this.packedRead(sql, opts.json);
      if (packed) {
        try {
          const row = packed.stmt.get(params) as { rows: string; json?: string | null } | undefined;
          return unpackRows(row ?? { rows: "[]" }, packed.names, packed.json) as T[];
        } catch (e) {
          // JSON cannot carry a BLOB: such a query keeps the plain path from now on.
          if (isBusy(e) || !/BLOB/i.test((e as Error).message)) throw e;
          this.packedReads.set(packedKey(sql, opts.json), null);
        }
      }
      return parseJsonColumn(this.stmt(sql).all(params), opts.json) as T[];
    });
    this.rowsRead += rows.length;
    if (opts.json !== undefined) this.jsonRowsRead += rows.length;
    return rows;
  }

  exec(sql: string): void {
    this.writeDeferred();
    this.withBusyRetry(() => this.db.exec(sql));
  }

  /**
   * One write transaction (BEGIN IMMEDIATE takes the write lock up front, so it never
   * deadlocks upgrading a read lock). On BUSY the whole function is re-run on a new
   * connection, so `fn` must not have side effects outside the database.
   */
  transaction<T>(fn: () => T): T {
    this.writeDeferred();
    // Inside a batch (or another transaction) a savepoint keeps this unit atomic without a commit of its own.
    this.assertWritable();
    if (this.depth > 0) return this.savepoint(fn);
    return this.withBusyRetry(() => {
      this.db.exec("BEGIN IMMEDIATE");
      return this.commitOrRollBack(fn);
    });
  }

  /** Runs `fn` in the write transaction this connection has just begun: commits it, or rolls it back and rethrows. */
  private commitOrRollBack<T>(fn: () => T): T {
    this.depth++;
    this.writeTransactions++;
    try {
      const result = fn();
      this.db.exec("COMMIT");
      this.commits++;
      this.noteWrite();
      return result;
    } catch (e) {
      try {
        this.db.exec("ROLLBACK");
      } catch {
        // SQLite rolled it back already (a failed COMMIT, a full disk).
      }
      throw e;
    } finally {
      this.depth--;
    }
  }

  /**
   * Runs `fn` and rolls its writes back, so a process's first real write does not pay for compiling
   * the write statements and their triggers, or for reading the pages they touch; then commits a
   * write of nothing (see writeUnchanged), since the first commit of a connection starts the WAL.
   * Never waits for the lock: returns false when another writer holds it, when the file is
   * read-only, or inside a transaction of this connection. No data changes.
   */
  rehearse(fn: () => void): boolean {
    this.writeDeferred();
    if (!this.beginIfFree()) return false;
    this.depth++;
    this.writeTransactions++;
    try {
      this.stmt("SAVEPOINT cairn_rehearsal").run([]);
      try {
        fn();
      } finally {
        this.stmt("ROLLBACK TO cairn_rehearsal").run([]);
        this.stmt("RELEASE cairn_rehearsal").run([]);
      }
      this.writeUnchanged();
      this.db.exec("COMMIT");
      this.rehearsals++;
      this.noteWrite();
      return true;
    } catch {
      try {
        this.db.exec("ROLLBACK");
      } catch {
        // Already rolled back by SQLite.
      }
      return false;
    } finally {
      this.depth--;
    }
  }

  /**
   * Upkeep that writes between calls: `fn` in one write transaction, committed, but only when the
   * write lock is free (never waits: an idle moment must not stall on another process's write).
   * Undefined when it did not run (lock taken, read-only, inside a transaction) or failed (rolled back).
   */
  /**
   * Runs upkeep between calls (an idle merge step, a checkpoint): its statements are no call's, so the
   * counters tests read per call (rowsRead, statementsRun, jsonRowsRead) leave them out. `fn` is synchronous.
   */
  upkeep<T>(fn: () => T): T {
    const { statementsRun, rowsRead, jsonRowsRead } = this;
    try {
      return fn();
    } finally {
      Object.assign(this, { statementsRun, rowsRead, jsonRowsRead });
    }
  }

  writeIfFree<T>(fn: () => T): { value: T } | undefined {
    this.writeDeferred();
    if (!this.beginIfFree()) return undefined;
    try {
      return { value: this.commitOrRollBack(fn) };
    } catch {
      return undefined;
    }
  }

  /**
   * A write that may wait (a usage count): it is committed, with any others waiting, in one
   * transaction between calls, or before this connection's next use, whichever comes first, so
   * every read of this process sees it. An injection's answer no longer waits for its shown counts
   * (~1 ms at 10k, several at p99). Inside a transaction it is written at once, as part of it.
   * `write` must only write (it may run inside a later transaction of this connection).
   */
  deferWrite(write: () => void): void {
    if (this.depth > 0) return write();
    this.deferred.push(write);
    if (this.deferred.length === 1) betweenCalls(() => this.writeDeferred());
  }

  /**
   * Commits the deferred writes. A failure is said once on stderr and the writes are dropped: a
   * count that cannot be written must not fail the unrelated read that happens to come next.
   */
  private writeDeferred(): void {
    if (this.deferred.length === 0) return;
    const writes = this.deferred;
    this.deferred = [];
    try {
      this.transaction(() => {
        for (const write of writes) write();
      });
      this.deferredFlushes++;
    } catch (e) {
      noticeOnce(`deferred:${this.file}`, `usage counts for ${this.file} could not be written and were dropped: ${(e as Error).message}`);
    }
  }

  private savepoint<T>(fn: () => T): T {
    this.stmt("SAVEPOINT cairn_unit").run([]);
    try {
      const result = fn();
      this.stmt("RELEASE cairn_unit").run([]);
      return result;
    } catch (e) {
      this.stmt("ROLLBACK TO cairn_unit").run([]);
      this.stmt("RELEASE cairn_unit").run([]);
      throw e;
    }
  }

  /**
   * Groups the writes `fn` makes (awaiting in between) into one commit: a bulk load pays one
   * commit per batch instead of one per row. Each transaction inside stays atomic (a savepoint),
   * but the batch is not a unit: on an error what completed is still committed, as it would have
   * been row by row. Only the BEGIN is retried on BUSY; inside, this connection holds the write
   * lock, so keep batches short (other writers wait up to the busy timeout). Other async work of
   * this process that writes meanwhile joins the batch.
   */
  async batch<T>(fn: () => Promise<T>): Promise<T> {
    this.writeDeferred();
    this.assertWritable();
    if (this.depth > 0) return fn();
    this.withBusyRetry(() => this.db.exec("BEGIN IMMEDIATE"));
    this.depth++;
    this.writeTransactions++;
    try {
      return await fn();
    } finally {
      this.depth--;
      try {
        this.db.exec("COMMIT");
      } catch (e) {
        // A failed COMMIT (disk full) leaves the transaction open: roll it back so the connection stays usable.
        try {
          this.db.exec("ROLLBACK");
        } catch {
          // Already rolled back by SQLite.
        }
        // eslint-disable-next-line no-unsafe-finally -- the commit failing is the error the caller must see.
        throw this.fault(e);
      }
      this.commits++;
      this.noteWrite();
    }
  }

  /** Whether this connection holds the write lock (inside a batch or transaction): the one counted last in writeTransactions. */
  get inWriteTransaction(): boolean {
    return this.depth > 0;
  }

  close(): void {
    this.writeDeferred();
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    this.statements.clear();
    this.packedReads.clear();
    // libSQL leaves the -wal at full size on close, so it would travel into git and backups:
    // fold it into the database and truncate it. Another connection reading can make this
    // report busy; close must still succeed, and that connection's own close truncates later.
    if (this.file !== ":memory:") {
      try {
        this.db.exec("PRAGMA busy_timeout = 0");
        this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      } catch {
        // Busy or read-only: the data is safe in the WAL either way.
      }
    }
    this.db.close();
  }
}

/** Whether `p` is a folder (false when nothing is there or it cannot be read). */
function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
