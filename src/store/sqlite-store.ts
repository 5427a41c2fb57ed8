// The embedded Store: one SQLite file per tier, FTS5 for candidates, JSON for the nested entry.
import { healDates } from "../core/dates.js";
import { EntrySchema, type Entry, type EntryEvent, type EventType, type RejectedLesson, type Status, type Tier } from "../core/entry.js";
import { fingerprintLesson, handleFor, parseHandle } from "../core/ids.js";
import { toFtsMatchQuery } from "../core/text.js";
import { browseTerms } from "./fts-tokens.js";
import { derivedColumns, ENTRY_ROW_COLUMNS, entryFromRow, mergeCopies, type DerivedColumns, type EntryRowColumns } from "./entry-columns.js";
import { SearchSegmentMerger } from "./fts-merge.js";
import { chooseQueryTerms, CREATE_VOCAB_SQL, maxUsefulDocFrequency, runSearchSteps, sqliteFrequencies, stemOf, TermStatsCache, type FetchFrequencies } from "./term-stats.js";
import { CairnError, NotFoundError } from "../errors.js";
import { utilityOf } from "../lifecycle/utility.js";
import { SqliteDriver, type DriverOptions, type ReadOptions, type SqlValue } from "./driver.js";
import { noticeOnce } from "./faults.js";
import { migrate } from "./migrations.js";
import { StoreListeners } from "./listeners.js";
import { ENTRY_INSERT_COLUMNS, insertStagedRows } from "./sqlite-bulk-insert.js";
import { filterSql, hasIndexedFilter, listColumn } from "./sqlite-filter.js";
import { assertStorable, storableText } from "./storable.js";
import { SqliteVectors } from "./sqlite-vectors.js";
import { sumTallies, tallyStatuses, usageBySourceOf, type EntryTally } from "./tallies.js";

export { searchTextOf } from "./entry-columns.js";
import {
  countsAfterAnswer, DEDUP_STATUSES, DuplicateEntryError, PAGE_SORT_COLUMNS, vectorRowsOf, type BulkInsertOutcome, type EntryKey,
  type CopyResult, type DayCount, type EntryFilter, type EventInput, type Promotion, type InsertOptions, type ListOptions, type OutboxItem, type OutboxStatus,
  type PageQuery, type PageRow, type ProjectUse, type ProjectUsageSummary, type QueuedOutcome, type QueueStatus,
  type SpaceVectors, type SearchHit, type TermFrequencies, type VectorSpace, type VectorHit, type VectorCount, type VectorSearchOptions, type UnreadVectorHit, type SourceProject, type SourceUsage, type Store, type StoreChange, type SweptPhase, type StoreListener, type UpdateOptions, type UsageCounter, type UsageTotals,
} from "./store.js";

export interface EntryRow extends EntryRowColumns {
  seq: number;
  /** Parsed by the driver (entryRows, entryRow): one JSON.parse per read, not one per row on top of it. */
  data: Entry;
  utility: number | null;
}

/** Entry reads return the row's JSON parsed. */
const ENTRY_DATA: ReadOptions = { json: "data" };


const INSERT_ROW_SQL = `INSERT INTO entries(seq, ${ENTRY_INSERT_COLUMNS.join(", ")})
  VALUES (COALESCE(?, (SELECT value + 1 FROM meta WHERE key = 'last_seq')), ${ENTRY_INSERT_COLUMNS.map(() => "?").join(", ")})`;
const FINGERPRINT_COLUMN = ENTRY_INSERT_COLUMNS.indexOf("fingerprint");
const INSERT_EVENT_SQL = "INSERT INTO events(entry_id, type, at, actor, data) VALUES (?, ?, ?, ?, ?)";

/** A filter matching at least this many rows is dense: walking the sort index finds a page quickly. */
/**
 * An earlier outcome of the same plan task not yet done or dead: the later one waits for it. One task takes one
 * verdict, the first reported; with two processors (a plugin's background pass, `cairn reflect`) the later report
 * was otherwise taken while the earlier was still being processed, and laid its verdict first.
 */
const EARLIER_OUTCOME_OF_TASK = `SELECT 1 FROM reflection_queue p
  WHERE p.status IN ('pending', 'processing') AND json_extract(p.payload, '$.task_id') = json_extract(q.payload, '$.task_id')
    AND (p.enqueued_at, p.id) < (q.enqueued_at, q.id)`;
const DENSE_ROWS = 500;

/** Every word must occur (a person narrowing a search expects AND); longer words match as prefixes. */
function allTermsMatch(text: string): string {
  return browseTerms(text)
    .map((t) => toFtsMatchQuery([t]))
    .filter(Boolean)
    .join(" AND ");
}

function nowIso(): string {
  return new Date().toISOString();
}


export class SqliteStore implements Store {
  readonly tier: Tier;
  readonly location: string;
  readonly driver: SqliteDriver;
  private vocabReady = false;
  private readonly termStats = new TermStatsCache();
  private readonly listeners = new StoreListeners();
  private readonly vectors: SqliteVectors;
  /** Keeps the full-text index in few segments, between calls (see fts-merge.ts). */
  readonly searchSegments: SearchSegmentMerger;

  /** `location` names the store in reports (an in-memory stand-in gives the file it stands for). */
  constructor(file: string, tier: Tier, opts: DriverOptions = {}, location = file) {
    this.tier = tier;
    this.location = location;
    this.driver = new SqliteDriver(file, opts);
    migrate(this.driver);
    this.vectors = new SqliteVectors(this.driver, tier, {
      rows: (sql, params) => this.entryRows(sql, params),
      toEntry: (row) => this.toEntry(row),
      prepare: (sql) => this.driver.prepare(sql, ENTRY_DATA),
    });
    this.searchSegments = new SearchSegmentMerger(this.driver, "entries_fts");
    // Another process's writes since this file was last merged are only seen here.
    this.searchSegments.schedule();
  }

  private toEntry(row: EntryRow): Entry {
    return entryFromRow(this.tier, row.data, row);
  }

  /** Entry rows (ENTRY_ROW_COLUMNS, and `Extra` columns), each entry's JSON parsed by the driver: every entry read goes through here or entryRow. */
  private entryRows<Extra extends object = object>(sql: string, params: SqlValue[]): Array<EntryRow & Extra> {
    return this.driver.all<EntryRow & Extra>(sql, params, ENTRY_DATA);
  }

  private entryRow(sql: string, params: SqlValue[]): EntryRow | undefined {
    return this.driver.get<EntryRow>(sql, params, ENTRY_DATA);
  }

  /** `derived`: the entry's derivedColumns when already computed (a bulk restore's worker thread does). */
  private columnsOf(e: Entry, derived: DerivedColumns = derivedColumns(e)): SqlValue[] {
    return [
      e.lesson, e.category, e.kind, e.lifecycle.status, e.applicability.scope, e.directive.priority,
      e.lifecycle.confidence, utilityOf(e), derived.fingerprint, e.provenance.external_id ?? null,
      e.provenance.source_project_id ?? null, e.lifecycle.phases_alive, e.lifecycle.max_phases ?? null,
      e.provenance.auto_generated ? 1 : 0, e.usage.shown, e.usage.applied, e.usage.ignored, e.usage.violated,
      e.usage.prevented, e.usage.helpful, e.usage.harmful, e.usage.last_shown_at ?? null, e.updated_at,
      derived.searchText, listColumn(e.applicability.agents), listColumn(e.applicability.tools),
      listColumn(e.applicability.projects), derived.json,
    ];
  }

  private logEvent(entryId: string, ev: EventInput, at = nowIso()): void {
    this.driver.run(INSERT_EVENT_SQL, [
      entryId, ev.type, at, ev.actor, JSON.stringify(ev.data ?? {}),
    ]);
  }

  /** The live entry already holding this lesson text, if any (read inside the write transaction). */
  /** The first live row holding `e`'s lesson, other than the row `exceptSeq` (the entry being changed) and the entry `exceptId`. */
  private liveTwin(e: Entry, exceptSeq = 0, exceptId = ""): EntryRow | undefined {
    if (!DEDUP_STATUSES.includes(e.lifecycle.status)) return undefined;
    return this.entryRow(
      `SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE e.fingerprint = ? AND e.status IN (${DEDUP_STATUSES.map(() => "?").join(",")}) AND e.seq <> ? AND e.id <> ? ORDER BY e.seq LIMIT 1`,
      [fingerprintLesson(e.lesson), ...DEDUP_STATUSES, exceptSeq, exceptId],
    );
  }

  /** The highest seq (handle number) ever handed out in this tier (migration 6): the next insert takes the one after it. */
  lastSeq(): number {
    return this.driver.get<{ value: number }>("SELECT value FROM meta WHERE key = 'last_seq'")?.value ?? 0;
  }

  /** A row's values in ENTRY_INSERT_COLUMNS order. */
  private insertValues(e: Entry, derived?: DerivedColumns): SqlValue[] {
    return [e.id, this.tier, e.created_at, e.usage.consulted, e.usage.last_consulted_at ?? null, ...this.columnsOf(e, derived)];
  }

  /** A new row takes `seq`, else the next one after the highest ever used: handles are never reused. */
  private insertRow(e: Entry, seq?: number): number {
    return this.driver.run(INSERT_ROW_SQL, [seq ?? null, ...this.insertValues(e)]).lastInsertRowid;
  }

  async insertEntry(entry: Entry, event: EventInput, opts: InsertOptions = {}): Promise<Entry> {
    assertStorable(entry, "lesson");
    assertStorable(event.data, "event");
    const e: Entry = { ...entry, tier: this.tier };
    const seq = this.driver.transaction(() => this.insertInTransaction(e, event, opts));
    const stored = { ...e, handle: handleFor(this.tier, seq) };
    await this.emit({ type: "insert", entry: stored });
    return stored;
  }

  async insertEntries(entries: readonly Entry[], event: EventInput, opts: InsertOptions = {}): Promise<BulkInsertOutcome[]> {
    for (const entry of entries) assertStorable(entry, "lesson");
    assertStorable(event.data, "event");
    const es = entries.map((entry): Entry => ({ ...entry, tier: this.tier }));
    const rows = es.map((e, i) => {
      // Columns derived ahead describe the entry as given: only where that was already this tier's.
      const values = this.insertValues(e, entries[i]!.tier === this.tier ? opts.derived?.[i] : undefined);
      return { id: e.id, fingerprint: String(values[FINGERPRINT_COLUMN]), status: e.lifecycle.status, values };
    });
    const staged = this.driver.transaction(() => insertStagedRows(this.driver, rows, event, opts.unique ?? false));
    const outcomes = staged.map((o, i): BulkInsertOutcome => (typeof o === "number" ? { action: "inserted", entry: { ...es[i]!, handle: handleFor(this.tier, o) } } : { action: o }));
    for (const o of outcomes) if (o.action === "inserted") await this.emit({ type: "insert", entry: o.entry });
    return outcomes;
  }

  private insertInTransaction(e: Entry, event: EventInput, opts: InsertOptions): number {
    // BEGIN IMMEDIATE holds the write lock, so no other writer can add the twin between this read and the insert.
    const twin = opts.unique ? this.liveTwin(e) : undefined;
    if (twin) throw new DuplicateEntryError(this.toEntry(twin));
    const seq = this.insertRow(e);
    this.logEvent(e.id, event, e.created_at);
    return seq;
  }

  async copyEntry(entry: Entry, events: readonly EntryEvent[]): Promise<CopyResult> {
    assertStorable(entry, "lesson");
    assertStorable(events, "history");
    const e: Entry = { ...entry, tier: this.tier };
    const result = this.driver.transaction((): CopyResult => {
      const have = this.entryRow(`SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE e.id = ?`, [e.id]);
      if (have) return { action: "exists", entry: this.toEntry(have) };
      const twin = this.liveTwin(e);
      if (twin) {
        const current = this.toEntry(twin);
        if (this.driver.run("INSERT OR IGNORE INTO applied_effects(key, at) VALUES (?, ?)", [`copy:${e.id}`, nowIso()]).changes === 0) {
          return { action: "exists", entry: current };
        }
        const merged = this.updateInTransaction(current.id, (t) => mergeCopies(t, e), { type: "reinforced", actor: "cairn:copy", data: { merged_from: e.id } });
        for (const ev of events) this.logEvent(current.id, { type: ev.type, actor: ev.actor, data: { ...ev.data, copied_from: e.id } }, ev.at);
        return { action: "merged", entry: merged };
      }
      // A handle is kept only when its number was never handed out here (handles are never reused).
      const wanted = parseHandle(e.handle);
      const keep = wanted && wanted.tier === this.tier && wanted.seq > this.lastSeq() ? wanted.seq : undefined;
      const seq = this.insertRow(e, keep);
      for (const ev of events) this.logEvent(e.id, { type: ev.type, actor: ev.actor, data: ev.data }, ev.at);
      return { action: "inserted", entry: { ...e, handle: handleFor(this.tier, seq) } };
    });
    if (result.action !== "exists") await this.emit({ type: result.action === "inserted" ? "insert" : "update", entry: result.entry });
    return result;
  }

  private rowFor(ref: string): EntryRow | undefined {
    const handle = parseHandle(ref);
    if (handle) {
      if (handle.tier !== this.tier) return undefined;
      return this.entryRow(`SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE e.seq = ?`, [handle.seq]);
    }
    return (
      this.entryRow(`SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE e.id = ?`, [ref]) ??
      this.entryRow(`SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE e.external_id = ? LIMIT 1`, [ref])
    );
  }

  async getEntry(ref: string): Promise<Entry | undefined> {
    const row = this.rowFor(ref);
    return row ? this.toEntry(row) : undefined;
  }

  async findByFingerprint(fingerprint: string): Promise<Entry[]> {
    return this.entryRows(`SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE e.fingerprint = ? ORDER BY e.seq LIMIT 20`, [fingerprint]).map((r) => this.toEntry(r));
  }

  async entryKeys(): Promise<EntryKey[]> {
    return this.driver.all<EntryKey>("SELECT id, external_id, fingerprint FROM entries", []);
  }


  putVectors(space: VectorSpace, rows: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    return this.vectors.putVectors(space, rows);
  }

  searchVectors(space: VectorSpace, query: Float32Array, filter: EntryFilter, limit: number): Promise<VectorHit[]>;
  searchVectors(space: VectorSpace, query: Float32Array, filter: EntryFilter, limit: number, opts: VectorSearchOptions): Promise<Array<VectorHit | UnreadVectorHit>>;
  searchVectors(space: VectorSpace, query: Float32Array, filter: EntryFilter, limit: number, opts: VectorSearchOptions = {}): Promise<Array<VectorHit | UnreadVectorHit>> {
    return this.vectors.searchVectors(space, query, filter, limit, opts);
  }

  entriesWithoutVector(space: VectorSpace, limit: number, afterSeq = 0): Promise<{ seq: number; entry: Entry }[]> {
    return this.vectors.entriesWithoutVector(space, limit, afterSeq);
  }

  vectorCounts(): Promise<VectorCount[]> {
    return this.vectors.vectorCounts();
  }

  private ensureVocab(): void {
    if (!this.vocabReady) {
      this.driver.exec(CREATE_VOCAB_SQL);
      this.vocabReady = true;
    }
  }

  /** Frequencies from the index, a phrase counted only as far as it could still be kept (PostgresStore counts alike). */
  private frequencies(totalEntries: number): FetchFrequencies {
    return sqliteFrequencies(this.driver, Math.ceil(maxUsefulDocFrequency(totalEntries)) + 1);
  }

  async termFrequencies(terms: readonly string[]): Promise<TermFrequencies> {
    const rows = await this.totalEntries();
    if (terms.length === 0) return { rows, docs: new Map() };
    this.ensureVocab();
    const stems = [...new Set(terms.map((t) => stemOf(t.toLowerCase())))];
    const df = this.termStats.lookup(this.frequencies(rows), stems, rows);
    return { rows, docs: new Map(stems.map((st) => [st, df.get(st) ?? 0])) };
  }

  async searchEntries(terms: readonly string[], filter: EntryFilter, limit: number): Promise<SearchHit[]> {
    this.ensureVocab();
    const total = await this.totalEntries();
    const chosen = chooseQueryTerms(this.frequencies(total), terms, total, this.termStats);
    const f = filterSql(filter);
    return runSearchSteps(chosen, limit, (step) => {
      const match =
        step.mode === "all"
          ? step.units.map((unit) => toFtsMatchQuery(unit, { prefix: false })).filter(Boolean).map((m) => (m.includes(" OR ") ? `(${m})` : m)).join(" AND ")
          : toFtsMatchQuery(step.terms, { prefix: false });
      if (!match) return [];
      return this.entryRows<{ rank: number }>(
        `SELECT ${ENTRY_ROW_COLUMNS}, fts.rank AS rank
           FROM entries_fts fts JOIN entries e ON e.seq = fts.rowid
          WHERE entries_fts MATCH ? AND ${f.where}
          ORDER BY fts.rank LIMIT ?`,
        [match, ...f.params, limit],
      ).map((r) => ({ entry: this.toEntry(r), relevance: -r.rank }));
    });
  }

  async listEntries(filter: EntryFilter, opts: ListOptions = {}): Promise<Entry[]> {
    const f = filterSql(filter);
    const order =
      opts.order === "oldest" ? "e.seq ASC" : opts.order === "confidence" ? "e.confidence DESC, e.seq DESC" : "e.seq DESC";
    return this.entryRows(`SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE ${f.where} ORDER BY ${order} LIMIT ? OFFSET ?`, [
      ...f.params, opts.limit ?? 50, opts.offset ?? 0,
    ]).map((r) => this.toEntry(r));
  }

  async pageEntries(q: PageQuery): Promise<PageRow[]> {
    const match = q.text?.trim() ? allTermsMatch(q.text) : undefined;
    if (match === "") return [];
    if (q.sort === "relevance") {
      if (!match) throw new CairnError("INVALID_INPUT", "Sorting by relevance needs search words.");
      const f = filterSql(q.filter);
      return this.entryRows<{ k: number }>(
        `SELECT ${ENTRY_ROW_COLUMNS}, fts.rank AS k FROM entries_fts fts JOIN entries e ON e.seq = fts.rowid
          WHERE entries_fts MATCH ? AND ${f.where} ORDER BY fts.rank, e.seq LIMIT ? OFFSET ?`,
        [match, ...f.params, q.limit, q.offset ?? 0],
      ).map((r) => ({ entry: this.toEntry(r), key: r.k, seq: r.seq }));
    }
    const col = PAGE_SORT_COLUMNS[q.sort];
    const dir = q.desc ? "DESC" : "ASC";
    // Selective filter: let SQLite start from its index and sort the few rows. Dense filter: walk the
    // sort index and test rows as they come (sorting half the table for one page is what must not happen).
    const walk =
      !match && hasIndexedFilter(q.filter) && (q.matches ?? (await this.countEntriesCapped(q.filter, undefined, DENSE_ROWS))) >= DENSE_ROWS;
    const f = filterSql(q.filter, { walk });
    const where = [f.where];
    const params: SqlValue[] = [...f.params];
    if (match) {
      where.push("e.seq IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?)");
      params.push(match);
    }
    if (q.after) {
      where.push(`(${col}, e.seq) ${q.desc ? "<" : ">"} (?, ?)`);
      params.push(q.after.key, q.after.seq);
    }
    // Order and cut on the keys alone, then read the page's rows: a sort never carries the entries' JSON.
    return this.entryRows<{ k: string | number }>(
      `SELECT ${ENTRY_ROW_COLUMNS}, p.k AS k
         FROM (SELECT e.seq AS seq, ${col} AS k FROM entries e WHERE ${where.join(" AND ")} ORDER BY ${col} ${dir}, e.seq ${dir} LIMIT ?) p
         JOIN entries e ON e.seq = p.seq
        ORDER BY p.k ${dir}, p.seq ${dir}`,
      [...params, q.limit],
    ).map((r) => ({ entry: this.toEntry(r), key: r.k, seq: r.seq }));
  }

  async countEntriesCapped(filter: EntryFilter, text: string | undefined, cap: number): Promise<number> {
    const match = text?.trim() ? allTermsMatch(text) : undefined;
    if (match === "") return 0;
    const tagsOnly = !match && filter.anyTags?.length && Object.entries(filter).every(([k, v]) => k === "anyTags" || v === undefined);
    if (tagsOnly) {
      // Tags alone: count their index rows, never the entries'.
      const tags = filter.anyTags!;
      return this.driver.get<{ n: number }>(
        `SELECT count(*) AS n FROM (SELECT DISTINCT seq FROM entry_tags WHERE tag IN (${tags.map(() => "?").join(",")}) LIMIT ?)`,
        [...tags, cap],
      )?.n ?? 0;
    }
    const f = filterSql(filter);
    const where = match ? `${f.where} AND e.seq IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?)` : f.where;
    const params = match ? [...f.params, match] : f.params;
    return this.driver.get<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM entries e WHERE ${where} LIMIT ?)`, [...params, cap])?.n ?? 0;
  }

  async *iterateEntries(filter: EntryFilter = {}): AsyncIterable<Entry> {
    const f = filterSql(filter);
    let after = 0;
    for (;;) {
      const rows = this.entryRows(
        `SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE e.seq > ? AND ${f.where} ORDER BY e.seq LIMIT 500`,
        [after, ...f.params],
      );
      if (rows.length === 0) return;
      for (const r of rows) yield this.toEntry(r);
      after = rows[rows.length - 1]!.seq;
    }
  }

  async countEntries(filter: EntryFilter = {}): Promise<number> {
    const statuses = tallyStatuses(filter);
    if (statuses !== null) return sumTallies(await this.entryTallies(), statuses).entries;
    const f = filterSql(filter);
    return this.driver.get<{ n: number }>(`SELECT count(*) AS n FROM entries e WHERE ${f.where}`, f.params)?.n ?? 0;
  }

  async totalEntries(): Promise<number> {
    return this.driver.get<{ value: number }>("SELECT value FROM meta WHERE key = 'entry_count'")?.value ?? 0;
  }

  async updateEntry(id: string, mutate: (current: Entry) => Entry, event: EventInput, opts: UpdateOptions = {}): Promise<Entry> {
    // BEGIN IMMEDIATE holds the write lock, so no other writer can make the twin live between the check and this write.
    const entry = this.driver.transaction(() => this.updateInTransaction(id, mutate, event, opts));
    await this.emit({ type: "update", entry });
    return entry;
  }

  async updateEntryOnce(effectKey: string, id: string, mutate: (current: Entry) => Entry, event: EventInput): Promise<Entry | undefined> {
    const entry = this.driver.transaction(() => {
      const claimed = this.driver.run("INSERT OR IGNORE INTO applied_effects(key, at) VALUES (?, ?)", [effectKey, nowIso()]);
      if (claimed.changes === 0) return undefined;
      return this.updateInTransaction(id, mutate, event);
    });
    if (entry) await this.emit({ type: "update", entry });
    return entry;
  }

  async claimEffect(effectKey: string): Promise<boolean> {
    return this.driver.run("INSERT OR IGNORE INTO applied_effects(key, at) VALUES (?, ?)", [effectKey, nowIso()]).changes > 0;
  }

  async claimSweptPhase(phase: string, at: string): Promise<{ claimed: true; previous?: SweptPhase } | { claimed: false; at: string }> {
    return this.driver.transaction(() => {
      const last = this.driver.get<SweptPhase>("SELECT phase, at FROM last_sweep WHERE id = 1");
      if (last?.phase === phase) return { claimed: false as const, at: last.at };
      this.driver.run("INSERT INTO last_sweep(id, phase, at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET phase = excluded.phase, at = excluded.at", [phase, at]);
      return last ? { claimed: true as const, previous: { phase: last.phase, at: last.at } } : { claimed: true as const };
    });
  }

  async restoreSweptPhase(previous: SweptPhase | undefined): Promise<void> {
    this.driver.transaction(() => {
      if (previous) this.driver.run("UPDATE last_sweep SET phase = ?, at = ? WHERE id = 1", [previous.phase, previous.at]);
      else this.driver.run("DELETE FROM last_sweep WHERE id = 1");
    });
  }

  async claimSweepLease(now: number, until: number): Promise<{ claimed: true } | { claimed: false; until: number }> {
    // A row of meta (key/integer value, every schema version has it): the lease's end, which also names its holder.
    return this.driver.transaction(() => {
      const held = this.driver.get<{ value: number }>("SELECT value FROM meta WHERE key = 'sweep_lease'");
      if (held && held.value > now) return { claimed: false as const, until: held.value };
      this.driver.run("INSERT INTO meta(key, value) VALUES ('sweep_lease', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [until]);
      return { claimed: true as const };
    });
  }

  async releaseSweepLease(until: number): Promise<void> {
    this.driver.transaction(() => this.driver.run("DELETE FROM meta WHERE key = 'sweep_lease' AND value = ?", [until]));
  }

  async enqueueOutcome(id: string, payload: unknown, at: string): Promise<boolean> {
    return (
      this.driver.run("INSERT OR IGNORE INTO reflection_queue(id, payload, enqueued_at) VALUES (?, ?, ?)", [id, JSON.stringify(payload), at])
        .changes > 0
    );
  }

  async outcomeEnqueuedAt(id: string): Promise<string | undefined> {
    return this.driver.get<{ enqueued_at: string }>("SELECT enqueued_at FROM reflection_queue WHERE id = ?", [id])?.enqueued_at;
  }

  async claimNextOutcome(now: string, leaseUntil: string): Promise<QueuedOutcome | undefined> {
    return this.driver.transaction(() => {
      const row = this.driver.get<QueueRow>(
        `SELECT * FROM reflection_queue q
          WHERE ((status = 'pending' AND (lease_until IS NULL OR lease_until <= ?)) OR (status = 'processing' AND lease_until < ?))
            AND NOT EXISTS (${EARLIER_OUTCOME_OF_TASK})
          ORDER BY enqueued_at, id LIMIT 1`,
        [now, now],
      );
      if (!row) return undefined;
      this.driver.run("UPDATE reflection_queue SET status = 'processing', lease_until = ?, attempts = attempts + 1 WHERE id = ?", [
        leaseUntil, row.id,
      ]);
      return queueItem({ ...row, status: "processing", attempts: row.attempts + 1 });
    });
  }

  async saveOutcomeShares(id: string, shares: Record<string, number>): Promise<void> {
    this.driver.run("UPDATE reflection_queue SET shares = ? WHERE id = ?", [JSON.stringify(shares), id]);
  }

  async completeOutcome(id: string, result: unknown, at: string): Promise<void> {
    this.driver.run("UPDATE reflection_queue SET status = 'done', processed_at = ?, lease_until = NULL, result = ? WHERE id = ?", [
      at, JSON.stringify(result ?? null), id,
    ]);
  }

  async failOutcome(id: string, error: string, maxAttempts: number, retryAt?: string): Promise<QueueStatus> {
    return this.driver.transaction(() => {
      const row = this.driver.get<QueueRow>("SELECT * FROM reflection_queue WHERE id = ?", [id]);
      const status: QueueStatus = row && row.attempts >= maxAttempts ? "dead" : "pending";
      // A pending item's lease_until is its earliest retry time (backoff).
      this.driver.run("UPDATE reflection_queue SET status = ?, last_error = ?, lease_until = ? WHERE id = ?", [
        status, error.slice(0, 2000), status === "pending" ? (retryAt ?? null) : null, id,
      ]);
      return status;
    });
  }

  async queueCounts(): Promise<Partial<Record<QueueStatus, number>>> {
    const out: Partial<Record<QueueStatus, number>> = {};
    for (const r of this.driver.all<{ status: QueueStatus; n: number }>("SELECT status, count(*) AS n FROM reflection_queue GROUP BY status")) {
      out[r.status] = r.n;
    }
    return out;
  }

  async listQueue(status: QueueStatus, limit = 50): Promise<QueuedOutcome[]> {
    return this.driver
      .all<QueueRow>("SELECT * FROM reflection_queue WHERE status = ? ORDER BY enqueued_at LIMIT ?", [status, limit])
      .map(queueItem);
  }

  private updateInTransaction(id: string, mutate: (current: Entry) => Entry, event: EventInput, opts: UpdateOptions = {}): Entry {
    {
      const row = this.rowFor(id);
      if (!row) throw new NotFoundError(id);
      const current = this.toEntry(row);
      const next = EntrySchema.parse(healDates({ ...mutate(structuredClone(current)), updated_at: nowIso() }));
      assertStorable(next, "lesson");
      assertStorable(event.data, "event");
      const twin = opts.unique ? this.liveTwin(next, Number(row.seq), opts.twinAllowed) : undefined;
      if (twin) throw new DuplicateEntryError(this.toEntry(twin));
      this.driver.run(
        `UPDATE entries SET lesson = ?, category = ?, kind = ?, status = ?, scope = ?, priority = ?, confidence = ?,
           utility = ?, fingerprint = ?, external_id = ?, source_project_id = ?, phases_alive = ?, max_phases = ?,
           auto_generated = ?, shown = ?, applied = ?, ignored = ?, violated = ?, prevented = ?, helpful = ?, harmful = ?,
           last_shown_at = ?, updated_at = ?, search_text = ?, for_agents = ?, for_tools = ?, for_projects = ?, data = ?
         WHERE seq = ?`,
        [...this.columnsOf(next), row.seq],
      );
      this.logEvent(current.id, event, next.updated_at);
      return { ...next, handle: current.handle };
    }
  }

  async recordUsage(ids: readonly string[], counter: UsageCounter, actor: string, data?: Record<string, unknown>): Promise<void> {
    if (ids.length === 0) return;
    assertStorable({ actor, data }, "usage event");
    if (this.driver.readOnly) {
      // Counting is a side effect of reading: read-only data is still read, its counters stay as they are.
      noticeOnce(`usage-ro:${this.location}`, `${this.location} is read-only (${this.driver.readOnly}); usage counters are not updated.`);
      return;
    }
    const at = nowIso();
    const count = () => this.countUsageInTransaction(ids, counter, actor, at, data);
    if (countsAfterAnswer(counter)) this.driver.deferWrite(count);
    else this.driver.transaction(count);
    await this.emit({ type: "usage", ids, counter });
  }

  private countUsageInTransaction(ids: readonly string[], counter: UsageCounter, actor: string, at: string, data?: Record<string, unknown>): void {
    const stamp = counter === "shown" ? ", last_shown_at = ?" : counter === "consulted" ? ", last_consulted_at = ?" : "";
    const type = counter === "shown" ? "shown" : counter === "consulted" ? "consulted" : "feedback";
    for (const id of ids) {
      const params: SqlValue[] = stamp ? [at, id] : [id];
      const r = this.driver.run(`UPDATE entries SET ${counter} = ${counter} + 1${stamp} WHERE id = ?`, params);
      if (r.changes > 0) this.logEvent(id, { type, actor, data: { counter, ...data } }, at);
    }
  }

  async deleteEntry(id: string, event: EventInput): Promise<boolean> {
    const seq = this.driver.transaction(() => {
      const row = this.driver.get<{ seq: number }>("SELECT seq FROM entries WHERE id = ?", [id]);
      if (!row) return undefined;
      this.driver.run("DELETE FROM entries WHERE seq = ?", [row.seq]);
      this.logEvent(id, event);
      return row.seq;
    });
    if (seq === undefined) return false;
    await this.emit({ type: "delete", id, handle: handleFor(this.tier, seq) });
    return true;
  }

  async incrementPhasesAlive(statuses: readonly Status[]): Promise<number> {
    const f = filterSql({ statuses });
    const n = this.driver.run(`UPDATE entries AS e SET phases_alive = phases_alive + 1 WHERE ${f.where}`, f.params).changes;
    if (n > 0) await this.emit({ type: "bulk" });
    return n;
  }

  async findExpired(statuses: readonly Status[], defaultMaxPhases: number, todoMaxPhases: number): Promise<Entry[]> {
    const f = filterSql({ statuses });
    return this.entryRows(
      `SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE ${f.where}
         AND e.phases_alive > COALESCE(e.max_phases, CASE e.category WHEN 'todo' THEN ? ELSE ? END)
       ORDER BY e.seq`,
      [...f.params, todoMaxPhases, defaultMaxPhases],
    ).map((r) => this.toEntry(r));
  }

  async evictionCandidates(limit: number): Promise<Entry[]> {
    return this.entryRows(
      // Same expressions as the entries_eviction_order index (migration 4), so SQLite walks the index.
      `SELECT ${ENTRY_ROW_COLUMNS} FROM entries e WHERE status <> 'promoted'
       ORDER BY (CASE status WHEN 'archived' THEN 0 WHEN 'quarantined' THEN 0 WHEN 'superseded' THEN 0 ELSE 1 END),
                (COALESCE(utility, 0.5)), seq
       LIMIT ?`,
      [limit],
    ).map((r) => this.toEntry(r));
  }

  async enqueueOutbox(id: string, op: string, payload: unknown, at: string, opts: { afterCall?: boolean } = {}): Promise<boolean> {
    const params = [id, op, JSON.stringify(payload), at];
    const insert = () => this.driver.run("INSERT OR IGNORE INTO hive_outbox(id, op, payload, enqueued_at) VALUES (?, ?, ?, ?)", params).changes > 0;
    if (!opts.afterCall) return insert();
    this.driver.deferWrite(insert);
    return true;
  }

  async listOutbox(status: OutboxStatus, limit = 100): Promise<OutboxItem[]> {
    return this.driver
      .all<OutboxRow>("SELECT seq, id, op, payload, status, attempts, last_error, enqueued_at FROM hive_outbox WHERE status = ? ORDER BY seq LIMIT ?", [status, limit])
      .map(outboxItem);
  }

  async completeOutbox(id: string): Promise<void> {
    this.driver.run("DELETE FROM hive_outbox WHERE id = ?", [id]);
  }

  async failOutbox(id: string, error: string, dead: boolean): Promise<void> {
    this.driver.run("UPDATE hive_outbox SET attempts = attempts + 1, last_error = ?, status = ? WHERE id = ?", [error.slice(0, 2000), dead ? "dead" : "pending", id]);
  }

  async outboxCounts(): Promise<{ pending: number; dead: number; oldest?: string }> {
    const rows = this.driver.all<{ status: OutboxStatus; n: number; oldest: string }>(
      "SELECT status, count(*) AS n, min(enqueued_at) AS oldest FROM hive_outbox GROUP BY status",
    );
    const pending = rows.find((r) => r.status === "pending");
    return { pending: pending?.n ?? 0, dead: rows.find((r) => r.status === "dead")?.n ?? 0, ...(pending ? { oldest: pending.oldest } : {}) };
  }

  async promotedTo(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    // One SQL text for any number of ids (a JSON parameter): prepared statements are never freed, so the text must not vary.
    const rows = this.driver.all<{ id: string; promoted_to: string }>(
      "SELECT id, promoted_to FROM entries WHERE id IN (SELECT value FROM json_each(?)) AND promoted_to IS NOT NULL",
      [JSON.stringify(ids)],
    );
    return new Map(rows.map((r) => [r.id, r.promoted_to]));
  }

  async promotedOriginals(hiveIds: readonly string[]): Promise<Map<string, string>> {
    if (hiveIds.length === 0) return new Map();
    const rows = this.driver.all<{ id: string; promoted_to: string }>(
      "SELECT id, promoted_to FROM entries WHERE promoted_to IN (SELECT value FROM json_each(?))",
      [JSON.stringify(hiveIds)],
    );
    return new Map(rows.map((r) => [r.id, r.promoted_to]));
  }

  async listPromotions(filter: EntryFilter): Promise<Promotion[]> {
    const f = filterSql(filter);
    const rows = this.driver.all<{ seq: number; id: string; promoted_to: string }>(
      `SELECT e.seq, e.id, e.promoted_to FROM entries e WHERE e.promoted_to IS NOT NULL AND ${f.where} ORDER BY e.seq`,
      f.params,
    );
    return rows.map((r) => ({ id: r.id, handle: handleFor(this.tier, r.seq), promoted_to: r.promoted_to }));
  }

  async appendEvent(entryId: string, event: EventInput): Promise<void> {
    assertStorable(event, "event");
    this.logEvent(entryId, event);
  }

  async listEvents(entryId?: string, limit = 100): Promise<EntryEvent[]> {
    const rows = entryId
      ? this.driver.all<EntryEvent & { data: string }>(
          "SELECT seq, entry_id, type, at, actor, data FROM events WHERE entry_id = ? ORDER BY seq LIMIT ?",
          [entryId, limit],
        )
      : this.driver.all<EntryEvent & { data: string }>(
          "SELECT seq, entry_id, type, at, actor, data FROM events ORDER BY seq DESC LIMIT ?",
          [limit],
        );
    return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
  }

  async addRejected(r: Omit<RejectedLesson, "id">, cap: number): Promise<void> {
    this.driver.transaction(() => {
      this.driver.run("INSERT INTO rejected(lesson, reason, codes, source, at) VALUES (?, ?, ?, ?, ?)", [
        storableText(r.lesson), storableText(r.reason), JSON.stringify(r.codes.map(storableText)), storableText(r.source), r.at,
      ]);
      this.driver.run("DELETE FROM rejected WHERE seq <= (SELECT max(seq) FROM rejected) - ?", [cap]);
    });
  }

  async listRejected(limit = 50): Promise<RejectedLesson[]> {
    return this.driver
      .all<RejectedLesson & { seq: number; codes: string }>(
        "SELECT seq, lesson, reason, codes, source, at FROM rejected ORDER BY seq DESC LIMIT ?",
        [limit],
      )
      .map((r) => ({ id: r.seq, lesson: r.lesson, reason: r.reason, codes: JSON.parse(r.codes) as string[], source: r.source, at: r.at }));
  }

  async isRejected(lesson: string): Promise<RejectedLesson | undefined> {
    const r = this.driver.get<RejectedLesson & { seq: number; codes: string }>(
      "SELECT seq, lesson, reason, codes, source, at FROM rejected WHERE lesson = ? ORDER BY seq DESC LIMIT 1",
      [storableText(lesson)],
    );
    return r ? { id: r.seq, lesson: r.lesson, reason: r.reason, codes: JSON.parse(r.codes) as string[], source: r.source, at: r.at } : undefined;
  }

  async usageBySource(): Promise<SourceUsage[]> {
    return usageBySourceOf(await this.entryTallies());
  }

  async entryTallies(): Promise<EntryTally[]> {
    return this.driver.all<EntryTally>(
      "SELECT status, source, entries, shown, applied, consulted, prevented FROM entry_tallies WHERE entries <> 0 ORDER BY status, source",
    );
  }

  async countRejected(cap: number): Promise<number> {
    return this.driver.get<{ n: number }>("SELECT count(*) AS n FROM (SELECT 1 FROM rejected ORDER BY seq DESC LIMIT ?)", [cap])?.n ?? 0;
  }

  async sumUsage(filter: EntryFilter = {}): Promise<UsageTotals> {
    const statuses = tallyStatuses(filter);
    if (statuses !== null) return sumTallies(await this.entryTallies(), statuses);
    const f = filterSql(filter);
    const r = this.driver.get<UsageTotals>(
      `SELECT count(*) AS entries, COALESCE(sum(shown), 0) AS shown, COALESCE(sum(applied), 0) AS applied,
              COALESCE(sum(consulted), 0) AS consulted, COALESCE(sum(prevented), 0) AS prevented
         FROM entries e WHERE ${f.where}`,
      f.params,
    );
    return r ?? { entries: 0, shown: 0, applied: 0, consulted: 0, prevented: 0 };
  }

  async countOutcomes(filter: { success?: boolean } = {}): Promise<number> {
    const where = filter.success === undefined ? "1" : "json_extract(payload, '$.success') = ?";
    const params: SqlValue[] = filter.success === undefined ? [] : [filter.success ? 1 : 0];
    return this.driver.get<{ n: number }>(`SELECT count(*) AS n FROM reflection_queue WHERE ${where}`, params)?.n ?? 0;
  }

  async listEventsByType(type: EntryEvent["type"], since: string, limit = 1000): Promise<EntryEvent[]> {
    return this.driver
      .all<EntryEvent & { data: string }>(
        "SELECT seq, entry_id, type, at, actor, data FROM events WHERE type = ? AND at >= ? ORDER BY at, seq LIMIT ?",
        [type, since, limit],
      )
      .map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
  }

  async eventCountsByDay(types: readonly EventType[], since: string): Promise<DayCount[]> {
    if (types.length === 0) return [];
    return this.driver.all<DayCount>(
      `SELECT day, type, n FROM event_days WHERE day >= ? AND type IN (${types.map(() => "?").join(",")}) ORDER BY day, type`,
      [since.slice(0, 10), ...types],
    );
  }

  async projectUsage(limit: number): Promise<{ projects: ProjectUsageSummary[]; entries: ProjectUse[] }> {
    const projects = this.driver.all<ProjectUsageSummary>(
      `SELECT project_id, count(*) AS entries, sum(shown) AS shown, sum(applied) AS applied, max(last_at) AS last_at
         FROM project_usage GROUP BY project_id ORDER BY sum(shown + applied) DESC, project_id LIMIT 50`,
    );
    const entries = this.driver.all<ProjectUse>(
      `WITH top AS (
         SELECT entry_id, count(*) AS reach, sum(shown + applied) AS uses FROM project_usage
          GROUP BY entry_id ORDER BY reach DESC, uses DESC, entry_id LIMIT ?)
       SELECT p.project_id, p.entry_id, p.shown, p.applied, p.last_at FROM project_usage p JOIN top ON top.entry_id = p.entry_id
        ORDER BY top.reach DESC, top.uses DESC, p.entry_id, p.shown + p.applied DESC`,
      [limit],
    );
    return { projects, entries };
  }

  async sourceProjects(limit: number): Promise<SourceProject[]> {
    const rows = this.driver.all<{ project_id: string; entries: number; live: number }>(
      `SELECT source_project_id AS project_id, count(*) AS entries,
              sum(status IN ('candidate', 'established', 'promoted')) AS live
         FROM entries WHERE source_project_id IS NOT NULL GROUP BY source_project_id ORDER BY entries DESC, project_id LIMIT ?`,
      [limit],
    );
    return rows.map((r) => ({ ...r, ...this.projectName(r.project_id) }));
  }

  async sourceProjectIds(limit: number): Promise<Array<{ project_id: string; project_name?: string }>> {
    // A skip scan: each step seeks the next distinct id in entries_source_project, never reading the rows between.
    const ids = this.driver.all<{ id: string }>(
      `WITH RECURSIVE p(id, n) AS (
         SELECT min(source_project_id), 1 FROM entries
         UNION ALL
         SELECT (SELECT min(source_project_id) FROM entries WHERE source_project_id > p.id), n + 1 FROM p WHERE p.id IS NOT NULL AND n < ?)
       SELECT id FROM p WHERE id IS NOT NULL`,
      [limit],
    );
    return ids.map((r) => ({ project_id: r.id, ...this.projectName(r.id) }));
  }

  /** A project id keeps its name, so each is read once per open store. */
  private readonly projectNames = new Map<string, string | null>();
  private projectName(id: string): { project_name?: string } {
    let name = this.projectNames.get(id);
    if (name === undefined) {
      name =
        this.driver.get<{ name: string | null }>(
          "SELECT json_extract(data, '$.provenance.source_project_name') AS name FROM entries WHERE source_project_id = ? LIMIT 1",
          [id],
        )?.name ?? null;
      this.projectNames.set(id, name);
    }
    return name ? { project_name: name } : {};
  }

  writeBatch<T>(fn: () => Promise<T>): Promise<T> {
    return this.driver.batch(fn);
  }

  bulkLoad<T>(fn: () => Promise<T>): Promise<T> {
    return this.driver.bulkLoad(fn);
  }

  /**
   * New lessons' inserts and shown entries' counts, run on `samples` in a transaction that is rolled
   * back: the first real add or inject of the process then finds the statements, their triggers
   * (FTS, tags, counters, usage tallies), the pages they touch and the code that binds them ready.
   * Nothing is stored, no listener hears of it, and no handle is used up. Skipped when read-only or
   * while another writer holds the lock.
   */
  async warm(samples: readonly Entry[] = [], vectors?: SpaceVectors): Promise<void> {
    this.driver.prepare(INSERT_ROW_SQL);
    this.driver.prepare(INSERT_EVENT_SQL);
    if (samples.length === 0) return;
    this.driver.rehearse(() => {
      for (const sample of samples) {
        const e: Entry = { ...sample, tier: this.tier };
        this.insertInTransaction(e, { type: "created", actor: "cairn:warm", data: { source: "add" } }, { unique: true });
        this.countUsageInTransaction([e.id], "shown", "cairn:warm", nowIso(), { agent: "cairn:warm", project_id: e.provenance.source_project_id ?? "" });
      }
      // With a model on, every add also stores the lesson's vector.
      if (vectors) this.vectors.putVectorsInTransaction(vectors.space, vectorRowsOf(samples, vectors.vectors));
    });
  }

  subscribe(listener: StoreListener): () => void {
    return this.listeners.subscribe(listener);
  }

  private emit(change: StoreChange): Promise<void> {
    // Usage counters and phase ageing leave the text index as it was; an entry written may have added a segment.
    if (change.type !== "usage" && change.type !== "bulk") this.searchSegments.schedule();
    return this.listeners.emit(change);
  }

  async rulesVersion(): Promise<number> {
    return this.driver.get<{ value: number }>("SELECT value FROM meta WHERE key = 'rules_version'")?.value ?? 0;
  }

  async schemaVersion(): Promise<number> {
    return this.driver.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0;
  }

  async integrityCheck(): Promise<string> {
    return this.driver.get<{ integrity_check: string }>("PRAGMA integrity_check")?.integrity_check ?? "unknown";
  }

  async close(): Promise<void> {
    this.searchSegments.close();
    this.driver.close();
  }
}

interface QueueRow {
  id: string;
  payload: string;
  status: QueueStatus;
  attempts: number;
  last_error: string | null;
  enqueued_at: string;
  processed_at: string | null;
  shares: string | null;
}

interface OutboxRow {
  seq: number;
  id: string;
  op: string;
  payload: string;
  status: OutboxStatus;
  attempts: number;
  last_error: string | null;
  enqueued_at: string;
}

function outboxItem(r: OutboxRow): OutboxItem {
  return { ...r, payload: JSON.parse(r.payload) as unknown, last_error: r.last_error ?? undefined };
}

function queueItem(r: QueueRow): QueuedOutcome {
  return {
    id: r.id,
    payload: JSON.parse(r.payload) as unknown,
    status: r.status,
    attempts: r.attempts,
    enqueued_at: r.enqueued_at,
    ...(r.last_error ? { last_error: r.last_error } : {}),
    ...(r.processed_at ? { processed_at: r.processed_at } : {}),
    ...(r.shares ? { shares: JSON.parse(r.shares) as Record<string, number> } : {}),
  };
}
