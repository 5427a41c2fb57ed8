// The PostgreSQL Store (the team hive, or a shared project tier): the same entry model, GIN full-text ranked like FTS5's BM25.
import { healDates } from "../../core/dates.js";
import { EntrySchema, type Entry, type EntryEvent, type EventType, type RejectedLesson, type Status, type Tier } from "../../core/entry.js";
import { fingerprintLesson, handleFor, parseHandle } from "../../core/ids.js";
import { isPrefixTerm } from "../../core/text.js";
import { browseTerms } from "../fts-tokens.js";
import { CairnError, NotFoundError } from "../../errors.js";
import { utilityOf } from "../../lifecycle/utility.js";
import { applicabilityKey, ENTRY_ROW_COLUMNS, entryFromRow, isAdvisoryEntry, mergeCopies, searchTextOf, type EntryRowColumns } from "../entry-columns.js";
import { StoreListeners } from "../listeners.js";
import { sumTallies, tallyStatuses, usageBySourceOf, type EntryTally } from "../tallies.js";
import {
  DEDUP_STATUSES, DuplicateEntryError, PAGE_SORT_COLUMNS, type EntryKey,
  type BulkInsertOutcome, type CopyResult, type EntryFilter, type EventInput, type Promotion, type InsertOptions, type ListOptions, type OutboxItem, type OutboxStatus, type QueuedOutcome, type QueueStatus,
  type DayCount, type PageQuery, type PageRow, type ProjectUsageSummary, type ProjectUse, type SourceProject,
  type SearchHit, type TermFrequencies, type VectorSpace, type VectorHit, type VectorCount, type SourceUsage, type Store, type StoreChange, type StoreListener, type UpdateOptions, type UsageCounter, type UsageTotals,
} from "../store.js";
import { chooseQueryTerms, maxUsefulDocFrequency, runSearchSteps, searchSteps, stemOf, TermStatsCache, type SearchStep, type TermChoice } from "../term-stats.js";
import { isUnavailableError, PgClient, type PgConnectOptions, type Querier, type ReadOptions } from "./client.js";
import { quoteLexeme, termQuery, tsvectorOf } from "./lexemes.js";
import { migratePg, quoteSchema } from "./migrations.js";
import { RefreshedFigure } from "./refreshed-figure.js";
import { assertStorable, storableText } from "../storable.js";
import { detectVectorBackend, ensureHnswIndex, hnswIndexName, nearestExact, nearestPgvector, spaceSql, vectorRows, type VectorBackend } from "./vectors.js";

export interface PgStoreOptions extends PgConnectOptions {
  /** Schema holding Cairn's tables (default `cairn`). */
  schema?: string;
  /** auto: pgvector when the database has it (or can enable it), else exact search in Cairn; exact: never pgvector. */
  vectorSearch?: "auto" | "exact";
  /** Where the one-line notices go (default: stderr). */
  log?: (line: string) => void;
}

interface EntryRow extends EntryRowColumns {
  data: Entry;
}


/** FTS5's bm25() constants, so a PostgreSQL relevance and a SQLite one mean the same in a blended score. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
/** Tier size and token totals feed idf and average length; a second-old figure ranks the same. */
const STATS_TTL_MS = 1000;
/** pg_stats moves only when ANALYZE (or autovacuum) runs; a minute-old copy prunes the same terms. */
const COMMON_LEXEMES_TTL_MS = 60_000;
/** Past these ages a search waits for fresh figures rather than ranking on old ones (a process idle for a while). */
const STALE_STATS_MAX_MS = 60_000;
const STALE_COMMON_MAX_MS = 15 * 60_000;
/**
 * Terms that can match at most this many rows are counted inside the ranking statement: the choice made
 * before their count is nearly always the one made after it, and ranking them costs a few rows each.
 */
const FUSED_COUNT_MAX_ROWS = 200;
/**
 * Up to this many lexemes a step's rows are scored lexeme by lexeme (see rankedRows); more are summed from
 * the unnest, where three or more added in another order than its could also differ in the last bit.
 */
const COUNTED_LEXEMES_MAX = 2;
/** The frequency an uncounted rare term is chosen with (present, and rarer than any counted term). */
const PROVISIONAL_DF = 1;
/** One queued usage item's share of a replay: its effect-key prefix, the entries it counts, and its event's fields. */
export interface UsageClaim {
  keyPrefix: string;
  ids: readonly string[];
  queuedAt: string;
  actor: string;
  data: Record<string, unknown>;
}

const USAGE_COUNTERS: readonly UsageCounter[] = ["shown", "applied", "ignored", "violated", "prevented", "consulted"];

/** Must match the expression of the partial index entries_contradicted (migration 2). */
const CONTRADICTED_SQL = "strpos(e.data->'lifecycle'->>'flags', '\"contradicts:') > 0";

/**
 * Every word must occur (a person narrowing a search expects AND), longer words as prefixes as the SQLite
 * store's allTermsMatch has them: one tsquery, or undefined when no word is left.
 */
function allTermsQuery(text: string): string | undefined {
  const parts = browseTermQueries(text);
  return parts.length ? parts.join(" & ") : undefined;
}

/** The tsquery of each word a person browses by (what allTermsQuery requires all of). */
function browseTermQueries(text: string): string[] {
  return browseTerms(text).map((t) => termQuery(t, { prefix: isPrefixTerm(t) })?.query).filter((q): q is string => Boolean(q));
}

/**
 * One term's part of FTS5's bm25 in SQL, with its operations in fts5_aux.c's order (idf × (f × (k1 + 1)))
 * ÷ (f + k1 × (1 − b + b × length ÷ avgdl)), so equal scores there are equal here and ties fall to seq alike.
 */
function bm25TermSql(idf: string, tf: string, avgdl: string): string {
  return `((${idf} * (${tf} * ${BM25_K1 + 1})) / (${tf} + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * e.search_len / ${avgdl}::float8)))`;
}

function nowIso(): string {
  return new Date().toISOString();
}

/** Positional parameters collected while a statement is built; every value is bound, never spliced. */
const GOOD_SQL = "(e.applied + e.helpful + e.prevented)";
/** utilityOf() from the row's counters; NULL (never low) when there is no signal yet. */
const UTILITY_SQL = `(${GOOD_SQL} / NULLIF(${GOOD_SQL} + (e.ignored + e.violated * 1.5 + e.harmful * 1.5), 0))`;

class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

function filterSql(f: EntryFilter, p: Params): string {
  const where: string[] = [];
  const anyOf = (column: string, values: readonly string[] | undefined) => {
    if (values) where.push(`${column} = ANY(${p.add([...values])}::text[])`);
  };
  anyOf("e.status", f.statuses);
  anyOf("e.category", f.categories);
  anyOf("e.kind", f.kinds);
  anyOf("e.scope", f.scopes);
  if (f.maxUtility !== undefined) {
    // The column prefilters through an index; usage counters move without rewriting it, so the
    // utility is also worked out from the counters (utilityOf's arithmetic, in the same order).
    const max = p.add(f.maxUtility);
    where.push(`e.utility IS NOT NULL AND e.utility <= ${max} AND ${UTILITY_SQL} <= ${max}`);
  }
  if (f.agent) where.push(`(cardinality(e.for_agents) = 0 OR ${p.add(applicabilityKey(f.agent))} = ANY(e.for_agents))`);
  if (f.tool) where.push(`(cardinality(e.for_tools) = 0 OR ${p.add(applicabilityKey(f.tool))} = ANY(e.for_tools))`);
  if (f.project) {
    const names = ["*", applicabilityKey(f.project.id), applicabilityKey(f.project.name)];
    where.push(`(cardinality(e.for_projects) = 0 OR e.for_projects && ${p.add(names)}::text[])`);
  }
  if (f.minShown !== undefined) where.push(`e.shown >= ${p.add(f.minShown)}`);
  if (f.minApplied !== undefined) where.push(`e.applied >= ${p.add(f.minApplied)}`);
  if (f.maxApplied !== undefined) where.push(`e.applied <= ${p.add(f.maxApplied)}`);
  if (f.minHarmful !== undefined) where.push(`e.harmful >= ${p.add(f.minHarmful)}`);
  if (f.autoGenerated !== undefined) where.push(`e.auto_generated = ${p.add(f.autoGenerated)}`);
  if (f.advisory !== undefined) where.push(`e.advisory = ${p.add(f.advisory)}`);
  if (f.anyTags) where.push(`e.tags && ${p.add([...f.anyTags])}::text[]`);
  anyOf("e.source_project_id", f.sourceProjects);
  anyOf("e.id", f.ids);
  if (f.excludeIds?.length) where.push(`NOT (e.id = ANY(${p.add([...f.excludeIds])}::text[]))`);
  if (f.flagPrefix !== undefined) where.push(`strpos(e.data->'lifecycle'->>'flags', ${p.add(`"${f.flagPrefix}`)}) > 0`);
  if (f.contradicted !== undefined) where.push(`${f.contradicted ? "" : "NOT "}(${CONTRADICTED_SQL})`);
  return where.length ? where.join(" AND ") : "true";
}

/** Whether two steps run the same statement: an OR of the same terms in any order, an AND of the same terms in order. */
type RankedStep = { step: SearchStep; rows: Array<EntryRow & { rel: number }> | Promise<Array<EntryRow & { rel: number }>> };

/**
 * The steps a search sends at once: the first, and after an every-word step (TermChoice.everyWord), which seldom fills
 * the page alone, the step after it too, so a search still waits on one round trip.
 */
function leadingSteps(chosen: TermChoice): SearchStep[] {
  const steps = searchSteps(chosen);
  const together = chosen.everyWord !== undefined && steps[0]?.units === chosen.everyWord && steps[1] !== undefined && !steps[1].onlyIfEmpty;
  return steps.slice(0, together ? 2 : 1);
}

function sameStep(a: SearchStep | undefined, b: SearchStep | undefined): boolean {
  if (!a || !b) return false;
  if (a.mode !== b.mode || a.terms.length !== b.terms.length) return false;
  if (a.mode === "all") return a.terms.every((t, i) => t === b.terms[i]) && a.units.length === b.units.length && a.units.every((u, i) => u.join("\n") === b.units[i]!.join("\n"));
  const set = new Set(a.terms);
  return b.terms.every((t) => set.has(t));
}

/**
 * A bound value the planner cannot estimate from: a sub-select is worked out when the statement runs (an
 * index still takes it, once a scan), not read while planning as a value or a stable function is. The
 * ranking statement's plans for its first five calls are estimated from their words (how many rows they
 * match, how many words are counted); when those look cheaper than the one plan for any words, PostgreSQL
 * plans every later call afresh, for good on that connection: ~0.7 ms more server CPU a search on the bench
 * hive, seen in a process whose first searches matched few rows. Estimated without the words, every call's
 * plan costs the same and the one plan is kept.
 */
function unestimated(bound: string): string {
  return `(SELECT ${bound})`;
}

/** FTS5's idf: log((N − n + ½)/(n + ½)), floored at 1e-6 for terms in most documents. */
function idfOf(total: number, df: number): number {
  const idf = Math.log((total - df + 0.5) / (df + 0.5));
  return idf > 0 ? idf : 1e-6;
}

export class PostgresStore implements Store {
  readonly tier: Tier;
  readonly location: string;
  readonly networked = true;
  readonly db: PgClient;
  readonly schema: string;
  private readonly S: string;
  private ready: Promise<number> | undefined;
  private readonly termStats = new TermStatsCache();
  private readonly listeners = new StoreListeners();
  /**
   * Tier size and token total (idf and average length). A figure past its TTL still answers while a
   * fresh one is read beside the search (a second-old figure ranks the same), so a search never waits
   * on this round trip except for the first one, or after a long pause.
   */
  private readonly stats = new RefreshedFigure(STATS_TTL_MS, STALE_STATS_MAX_MS, () => this.readTierStats());
  /**
   * The lexemes ANALYZE found common, with their share of rows (pg_stats.most_common_elems of
   * search_vec). A term known to be far past the pruning limit needs no counting: that count would
   * read thousands of rows only to drop the term. Refreshed now and then (beside the search, like the
   * tier figures); empty before any ANALYZE.
   */
  private readonly common = new RefreshedFigure(COMMON_LEXEMES_TTL_MS, STALE_COMMON_MAX_MS, () => this.readCommonLexemes());
  private readonly vectorSearch: "auto" | "exact";
  private readonly log: (line: string) => void;
  private backend: Promise<VectorBackend> | undefined;
  /** Spaces whose HNSW index this process has seen built. */
  private readonly indexed = new Set<string>();

  /** Connects lazily: nothing touches the network until the first call. */
  constructor(opts: PgStoreOptions, tier: Tier) {
    this.tier = tier;
    this.schema = opts.schema ?? "cairn";
    this.S = quoteSchema(this.schema);
    this.db = new PgClient(opts);
    this.location = `${this.db.location} (schema ${this.schema})`;
    this.vectorSearch = opts.vectorSearch ?? "auto";
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /** Migrates once per process (a failed attempt is retried on the next call). */
  private async q(): Promise<PgClient> {
    this.ready ??= migratePg(this.db, this.schema).catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    await this.ready;
    return this.db;
  }

  private async tx<T>(fn: (q: Querier) => Promise<T>): Promise<T> {
    return (await this.q()).transaction(fn);
  }

  private toEntry(row: EntryRow): Entry {
    return entryFromRow(this.tier, row.data, row);
  }

  /** Column values in the order of INSERT_COLUMNS (after seq and id). */
  private columnsOf(e: Entry): unknown[] {
    const vec = tsvectorOf(searchTextOf(e));
    return [
      this.tier, e.lesson, e.category, e.kind, e.lifecycle.status, e.applicability.scope, e.directive.priority,
      e.lifecycle.confidence, utilityOf(e), fingerprintLesson(e.lesson), e.provenance.external_id ?? null,
      e.provenance.source_project_id ?? null, e.lifecycle.phases_alive, e.lifecycle.max_phases ?? null,
      e.provenance.auto_generated, e.usage.shown, e.usage.applied, e.usage.ignored, e.usage.violated, e.usage.prevented,
      e.usage.helpful, e.usage.harmful, e.usage.last_shown_at ?? null, e.created_at, e.updated_at,
      e.applicability.agents.map(applicabilityKey), e.applicability.tools.map(applicabilityKey), e.applicability.projects.map(applicabilityKey),
      e.tags, isAdvisoryEntry(e), vec.literal, vec.length, JSON.stringify(e),
    ];
  }

  private insertSql(explicitSeq: boolean): string {
    const cols =
      "tier, lesson, category, kind, status, scope, priority, confidence, utility, fingerprint, external_id, source_project_id, " +
      "phases_alive, max_phases, auto_generated, shown, applied, ignored, violated, prevented, helpful, harmful, last_shown_at, " +
      "created_at, updated_at, for_agents, for_tools, for_projects, tags, advisory, search_vec, search_len, data, consulted, last_consulted_at, id";
    const n = 36;
    const values = Array.from({ length: n }, (_, i) => `$${i + 1}`);
    values[30] = "$31::tsvector";
    values[32] = "$33::json";
    return explicitSeq
      ? `INSERT INTO ${this.S}.entries(${cols}, seq) VALUES (${values.join(", ")}, $37) ON CONFLICT (seq) DO NOTHING RETURNING seq`
      : `INSERT INTO ${this.S}.entries(${cols}) VALUES (${values.join(", ")}) RETURNING seq`;
  }

  private insertParams(e: Entry): unknown[] {
    return [...this.columnsOf(e), e.usage.consulted, e.usage.last_consulted_at ?? null, e.id];
  }

  private async logEvent(q: Querier, entryId: string, ev: EventInput, at = nowIso()): Promise<void> {
    await q.query(`INSERT INTO ${this.S}.events(entry_id, type, at, actor, data) VALUES ($1, $2, $3, $4, $5::json)`, [
      entryId, ev.type, at, ev.actor, JSON.stringify(ev.data ?? {}),
    ]);
  }

  /** Writers of one lesson text queue on a transaction-scoped lock, then look for the live twin. */
  private async liveTwin(q: Querier, e: Entry, exceptSeq = 0, exceptId = ""): Promise<EntryRow | undefined> {
    if (!DEDUP_STATUSES.includes(e.lifecycle.status)) return undefined;
    const fp = fingerprintLesson(e.lesson);
    await q.query("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [`cairn.fingerprint:${this.schema}`, fp]);
    const rows = await q.query<EntryRow>(
      `SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE e.fingerprint = $1 AND e.status = ANY($2::text[]) AND e.seq <> $3 AND e.id <> $4 ORDER BY e.seq LIMIT 1`,
      [fp, [...DEDUP_STATUSES], exceptSeq, exceptId],
    );
    return rows[0];
  }

  /**
   * One entry and its created event in a transaction of its own, announced once committed. With
   * `unique`, a live twin holding the lesson stops it; with `skipStoredId`, so does its id already stored.
   */
  private async insertOne(entry: Entry, event: EventInput, unique: boolean, skipStoredId: boolean): Promise<{ stored: Entry } | { twin: EntryRow } | { exists: true }> {
    const e: Entry = { ...entry, tier: this.tier };
    const r = await this.tx(async (q): Promise<{ seq: number } | { twin: EntryRow } | { exists: true }> => {
      if (skipStoredId && (await q.query(`SELECT 1 FROM ${this.S}.entries WHERE id = $1`, [e.id])).length > 0) return { exists: true };
      const twin = unique ? await this.liveTwin(q, e) : undefined;
      if (twin) return { twin };
      const [row] = await q.query<{ seq: string }>(this.insertSql(false), this.insertParams(e));
      await this.logEvent(q, e.id, event, e.created_at);
      return { seq: Number(row!.seq) };
    });
    if (!("seq" in r)) return r;
    const stored = { ...e, handle: handleFor(this.tier, r.seq) };
    await this.emit({ type: "insert", entry: stored });
    return { stored };
  }

  async insertEntry(entry: Entry, event: EventInput, opts: InsertOptions = {}): Promise<Entry> {
    assertStorable(entry, "lesson");
    assertStorable(event.data, "event");
    const r = await this.insertOne(entry, event, opts.unique ?? false, false);
    if ("twin" in r) throw new DuplicateEntryError(this.toEntry(r.twin));
    if ("exists" in r) throw new Error("unreachable: a stored id is only looked for on request");
    return r.stored;
  }

  /** One transaction per entry: the hive takes a bulk restore rarely, over the network, and one refused row must not undo the rest. */
  async insertEntries(entries: readonly Entry[], event: EventInput, opts: InsertOptions = {}): Promise<BulkInsertOutcome[]> {
    // All checked before the first row is written, as the SQLite store's one transaction refuses them.
    for (const entry of entries) assertStorable(entry, "lesson");
    assertStorable(event.data, "event");
    const out: BulkInsertOutcome[] = [];
    for (const entry of entries) {
      const r = await this.insertOne(entry, event, opts.unique ?? false, true);
      out.push("stored" in r ? { action: "inserted", entry: r.stored } : "twin" in r ? { action: "duplicate" } : { action: "exists" });
    }
    return out;
  }

  /**
   * Keeps the source's handle only when that number was never handed out here. The table lock
   * (writers wait a moment; readers do not) keeps a concurrent insert from drawing the number in between.
   */
  private async keepHandleSeq(q: Querier, e: Entry): Promise<number | undefined> {
    const wanted = parseHandle(e.handle);
    if (!wanted || wanted.tier !== this.tier) return undefined;
    const handedOut = async () =>
      Number((await q.query<{ v: string | null }>(`SELECT pg_sequence_last_value(pg_get_serial_sequence($1, 'seq'))::text AS v`, [`${this.S}.entries`]))[0]?.v ?? 0);
    if (wanted.seq <= (await handedOut())) return undefined;
    await q.query(`LOCK TABLE ${this.S}.entries IN SHARE ROW EXCLUSIVE MODE`);
    if (wanted.seq <= (await handedOut())) return undefined;
    await q.query("SELECT setval(pg_get_serial_sequence($1, 'seq'), $2)", [`${this.S}.entries`, wanted.seq]);
    return wanted.seq;
  }

  private async copyEvents(q: Querier, entryId: string, events: readonly EntryEvent[], extra?: Record<string, unknown>): Promise<void> {
    if (events.length === 0) return;
    await q.query(
      `INSERT INTO ${this.S}.events(entry_id, type, at, actor, data)
       SELECT $1, t, a, who, d::json FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(t, a, who, d, n) ORDER BY n`,
      [entryId, events.map((v) => v.type), events.map((v) => v.at), events.map((v) => v.actor), events.map((v) => JSON.stringify({ ...v.data, ...extra }))],
    );
  }

  async copyEntry(entry: Entry, events: readonly EntryEvent[]): Promise<CopyResult> {
    assertStorable(entry, "lesson");
    assertStorable(events, "history");
    const e: Entry = { ...entry, tier: this.tier };
    const result = await this.tx(async (q): Promise<CopyResult> => {
      const [have] = await q.query<EntryRow>(`SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE e.id = $1`, [e.id]);
      if (have) return { action: "exists", entry: this.toEntry(have) };
      const twin = await this.liveTwin(q, e);
      if (twin) {
        const current = this.toEntry(twin);
        const claimed = await q.query(`INSERT INTO ${this.S}.applied_effects(key, at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING key`, [`copy:${e.id}`, nowIso()]);
        if (claimed.length === 0) return { action: "exists", entry: current };
        const merged = await this.updateLocked(q, twin, (t) => mergeCopies(t, e), { type: "reinforced", actor: "cairn:copy", data: { merged_from: e.id } });
        await this.copyEvents(q, current.id, events, { copied_from: e.id });
        return { action: "merged", entry: merged };
      }
      const keep = await this.keepHandleSeq(q, e);
      let rows = keep !== undefined ? await q.query<{ seq: string }>(this.insertSql(true), [...this.insertParams(e), keep]) : [];
      if (rows.length === 0) rows = await q.query<{ seq: string }>(this.insertSql(false), this.insertParams(e));
      await this.copyEvents(q, e.id, events);
      return { action: "inserted", entry: { ...e, handle: handleFor(this.tier, Number(rows[0]!.seq)) } };
    });
    if (result.action !== "exists") await this.emit({ type: result.action === "inserted" ? "insert" : "update", entry: result.entry });
    return result;
  }

  /** The row behind an id, handle (H-12) or external id; `lock` takes it FOR UPDATE. */
  private async rowFor(q: Querier, ref: string, lock = false): Promise<EntryRow | undefined> {
    const suffix = lock ? " FOR UPDATE" : "";
    const handle = parseHandle(ref);
    if (handle) {
      if (handle.tier !== this.tier) return undefined;
      return (await q.query<EntryRow>(`SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE e.seq = $1${suffix}`, [handle.seq]))[0];
    }
    return (
      (await q.query<EntryRow>(`SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE e.id = $1${suffix}`, [ref]))[0] ??
      (await q.query<EntryRow>(`SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE e.external_id = $1 ORDER BY e.seq LIMIT 1${suffix}`, [ref]))[0]
    );
  }

  async getEntry(ref: string): Promise<Entry | undefined> {
    const row = await this.rowFor(await this.q(), ref);
    return row ? this.toEntry(row) : undefined;
  }

  /**
   * Of the entries a reader remembers (id and the updated_at it holds), those changed since by anyone
   * (their rows now) and those gone: one statement over the primary key, however many teammates wrote.
   */
  async changedAmong(known: ReadonlyArray<{ id: string; updated_at: string }>): Promise<{ changed: Entry[]; gone: string[] }> {
    if (known.length === 0) return { changed: [], gone: [] };
    const rows = await (await this.q()).query<EntryRow & { known_id: string; present: boolean }>(
      `SELECT c.id AS known_id, e.seq IS NOT NULL AS present, ${ENTRY_ROW_COLUMNS}
         FROM unnest($1::text[], $2::text[]) AS c(id, at) LEFT JOIN ${this.S}.entries e ON e.id = c.id
        WHERE e.seq IS NULL OR e.updated_at <> c.at`,
      [known.map((k) => k.id), known.map((k) => k.updated_at)],
    );
    const changed: Entry[] = [];
    const gone: string[] = [];
    for (const r of rows) {
      if (r.present) changed.push(this.toEntry(r));
      else gone.push(r.known_id);
    }
    return { changed, gone };
  }

  async findByFingerprint(fingerprint: string): Promise<Entry[]> {
    const rows = await (await this.q()).query<EntryRow>(`SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE e.fingerprint = $1 ORDER BY e.seq LIMIT 20`, [fingerprint]);
    return rows.map((r) => this.toEntry(r));
  }

  async entryKeys(): Promise<EntryKey[]> {
    return (await this.q()).query<EntryKey>(`SELECT id, external_id, fingerprint FROM ${this.S}.entries`);
  }

  private async readTierStats(): Promise<{ entries: number; tokens: number }> {
    const rows = await (await this.q()).query<{ name: string; v: number }>(
      `SELECT name, COALESCE(sum(value), 0)::float8 AS v FROM ${this.S}.counters WHERE name IN ('entries', 'tokens') GROUP BY name`,
    );
    const get = (n: string) => rows.find((r) => r.name === n)?.v ?? 0;
    return { entries: get("entries"), tokens: get("tokens") };
  }

  private async readCommonLexemes(): Promise<Map<string, number>> {
    const rows = await (await this.q()).query<{ elems: string[] | null; freqs: number[] | null }>(
      `SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
         FROM pg_stats WHERE schemaname = $1 AND tablename = 'entries' AND attname = 'search_vec'`,
      [this.schema],
    );
    const shares = new Map<string, number>();
    const { elems, freqs } = rows[0] ?? { elems: null, freqs: null };
    if (elems && freqs) elems.forEach((lexeme, i) => shares.set(lexeme, Number(freqs[i] ?? 0)));
    return shares;
  }

  /**
   * Document frequencies of the terms not cached yet: terms ANALYZE lists are taken from its
   * statistics (migration 3 has it track thousands of lexemes). The rest are to be counted by GIN
   * lookups up to `cap` (a term past it is dropped as common anyway), and are returned with the
   * most rows each can match: a word ANALYZE does not list is rarer than every word it lists.
   */
  private async uncountedTerms(keys: readonly string[], total: number, lexemesOfKey: ReadonlyMap<string, readonly string[]>): Promise<Map<string, number>> {
    const missing = this.termStats.missing(keys, total);
    const toCount = new Map<string, number>();
    if (missing.length === 0) return toCount;
    const shares = await this.common.get();
    // The least common word ANALYZE lists bounds every word it does not; without statistics, nothing is bounded.
    let unlisted = Infinity;
    if (shares.size) for (const share of shares.values()) unlisted = Math.min(unlisted, share * total);
    const known: Array<{ term: string; doc: number }> = [];
    for (const key of missing) {
      const lexemes = lexemesOfKey.get(key) ?? [];
      const share = lexemes.length === 1 ? shares.get(lexemes[0]!) : undefined;
      // ANALYZE read (nearly) every row at this statistics target: its share is the frequency.
      if (share !== undefined) known.push({ term: key, doc: Math.max(1, Math.round(share * total)) });
      // A phrase matches no more rows than its rarest word.
      else toCount.set(key, Math.min(...lexemes.map((l) => (shares.has(l) ? shares.get(l)! * total : unlisted))));
    }
    this.termStats.fill(known.map((k) => k.term), known);
    return toCount;
  }

  /** The count of each term's matches up to `cap`, one GIN lookup each. */
  private async countTerms(terms: readonly string[], cap: number, read: ReadOptions = {}): Promise<Array<{ term: string; doc: number }>> {
    return (await this.q()).query<{ term: string; doc: number }>(
      `SELECT t.term, (SELECT count(*)::int FROM (SELECT 1 FROM ${this.S}.entries e WHERE e.search_vec @@ t.term::tsquery LIMIT $2) x) AS doc
         FROM unnest($1::text[]) AS t(term)`,
      [[...terms], cap],
      read,
    );
  }

  /** pgvector or exact search, found once per process (and a notice once when pgvector is missing). */
  private async vectorBackend(): Promise<VectorBackend> {
    const db = await this.q();
    this.backend ??= (
      this.vectorSearch === "exact"
        ? Promise.resolve<VectorBackend>({ kind: "exact", why: "vector_search: exact" })
        : detectVectorBackend(db, this.location, this.log)
    ).catch((e: unknown) => {
      this.backend = undefined;
      throw e;
    });
    return this.backend;
  }

  /** How vectors are searched here (doctor, tests, the bench). */
  async vectorBackendInfo(): Promise<VectorBackend> {
    return this.vectorBackend();
  }

  async putVectors(space: VectorSpace, rows: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    const r = vectorRows(space, rows);
    if (r.ids.length === 0) return;
    const backend = await this.vectorBackend();
    const key = hnswIndexName(space);
    if (backend.kind === "pgvector" && !this.indexed.has(key)) {
      // No index only makes searches exact (slower, still right): it never fails the write.
      const built = await ensureHnswIndex(this.db, this.S, this.schema, backend, space).catch((e: unknown) => {
        if (isUnavailableError(e)) throw e;
        this.log(`cairn: ${this.location}: could not build the vector index of ${space.modelId}/${space.dimension} (${(e as Error).message}); its searches run exact`);
        return true;
      });
      if (built) this.indexed.add(key);
    }
    await (await this.q()).query(
      `INSERT INTO ${this.S}.vectors(entry_seq, model, dim, vec, q8)
       SELECT e.seq, $1, $2, r.vec::real[], r.q8 FROM unnest($3::text[], $4::text[], $5::bytea[]) AS r(id, vec, q8) JOIN ${this.S}.entries e ON e.id = r.id
       ON CONFLICT (model, dim, entry_seq) DO UPDATE SET vec = EXCLUDED.vec, q8 = EXCLUDED.q8`,
      [space.modelId, space.dimension, r.ids, r.vecs, r.q8],
    );
  }

  async searchVectors(space: VectorSpace, query: Float32Array, filter: EntryFilter, limit: number): Promise<VectorHit[]> {
    if (limit <= 0) return [];
    const backend = await this.vectorBackend();
    const p = new Params();
    const nq = { S: this.S, space, query, where: filterSql(filter, p), values: p.values, limit };
    const top = backend.kind === "pgvector" ? await nearestPgvector(this.db, backend, nq) : await nearestExact(this.db, nq);
    if (top.length === 0) return [];
    const rows = await this.db.query<EntryRow>(`SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE e.seq = ANY($1::bigint[])`, [top.map((t) => t.seq)]);
    const bySeq = new Map(rows.map((r) => [Number(r.seq), r]));
    return top.flatMap((t) => {
      const row = bySeq.get(t.seq);
      return row ? [{ entry: this.toEntry(row), similarity: t.sim }] : [];
    });
  }

  async entriesWithoutVector(space: VectorSpace, limit: number, afterSeq = 0): Promise<{ seq: number; entry: Entry }[]> {
    const rows = await (await this.q()).query<EntryRow>(
      `SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e
        WHERE e.seq > $1 AND NOT EXISTS (SELECT 1 FROM ${this.S}.vectors v WHERE ${spaceSql(space)} AND v.entry_seq = e.seq)
        ORDER BY e.seq LIMIT $2`,
      [afterSeq, limit],
    );
    return rows.map((r) => ({ seq: Number(r.seq), entry: this.toEntry(r) }));
  }

  /** Stored vectors of the given entries in one space (copying a hive keeps them instead of re-embedding). */
  async vectorsOf(space: VectorSpace, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    if (ids.length === 0) return new Map();
    const rows = await (await this.q()).query<{ id: string; vec: number[] }>(
      `SELECT e.id, v.vec FROM ${this.S}.vectors v JOIN ${this.S}.entries e ON e.seq = v.entry_seq WHERE ${spaceSql(space)} AND e.id = ANY($1::text[])`,
      [[...ids]],
    );
    return new Map(rows.map((r) => [r.id, Float32Array.from(r.vec)]));
  }

  async vectorCounts(): Promise<VectorCount[]> {
    const rows = await (await this.q()).query<{ model: string; dim: number; n: number }>(
      `SELECT model, dim, count(*)::int AS n FROM ${this.S}.vectors GROUP BY model, dim ORDER BY model, dim`,
    );
    return rows.map((r) => ({ modelId: r.model, dimension: r.dim, entries: r.n }));
  }

  /**
   * One round trip in the usual case: terms whose frequency is not known yet (rare words ANALYZE does
   * not list) are counted by the statement that ranks the first step, their choice made on a provisional
   * frequency. When the counts show the choice would have been another, that step is run again as chosen,
   * so the result is always that of the counted frequencies.
   */
  /** `read`: the team hive's bound on each statement, so an answer that comes later is dropped (see ReadOptions). */
  async searchEntries(terms: readonly string[], filter: EntryFilter, limit: number, read: ReadOptions = {}): Promise<SearchHit[]> {
    const queries = new Map<string, string[]>();
    const keyOf = (t: string) => {
      const tq = termQuery(t);
      if (tq) queries.set(tq.query, tq.lexemes);
      return tq?.query ?? "";
    };
    const unique = [...new Set(terms.map((t) => t.toLowerCase()))].filter((t) => keyOf(t));
    if (unique.length === 0 || limit <= 0) return [];
    const stats = await this.stats.get();
    const keys = unique.map(keyOf);
    const toCount = await this.uncountedTerms(keys, stats.entries, queries);
    const cap = Math.ceil(maxUsefulDocFrequency(stats.entries)) + 1;
    // Counting in the ranking statement pays when the uncounted terms are known to be rare: an OR with a
    // common term (no statistics yet, a phrase of common words) would rank thousands of rows first.
    const fuse = toCount.size > 0 && [...toCount.values()].every((bound) => bound <= FUSED_COUNT_MAX_ROWS);
    if (toCount.size > 0 && !fuse) this.termStats.fill([...toCount.keys()], await this.countTerms([...toCount.keys()], cap, read));
    const cached = this.termStats.lookup(() => [], keys.filter((k) => !fuse || !toCount.has(k)), stats.entries);
    const known = new Map(keys.filter((k) => cached.has(k)).map((k) => [k, cached.get(k)!]));
    const dfNow = (k: string) => (fuse && toCount.has(k) ? PROVISIONAL_DF : (known.get(k) ?? 0));
    const chosen = chooseQueryTerms((m) => m.map((term) => ({ term, doc: dfNow(term) })), unique, stats.entries, new TermStatsCache(), keyOf);
    const rank = (step: SearchStep, count: readonly string[] = []) => {
      const stepKeys = [...new Set(step.terms.map(keyOf).filter(Boolean))];
      const required = step.units.map((unit) => [...new Set(unit.map(keyOf).filter(Boolean))]).filter((u) => u.length > 0);
      return this.rankedRows({ keys: stepKeys, required, mode: step.mode, queries, df: (k) => known.get(k) ?? 0, count, cap, stats, filter, limit, read });
    };
    if (fuse) {
      const steps = leadingSteps(chosen);
      const ranked = await Promise.all(steps.map((step) => rank(step, [...toCount.keys()])));
      this.termStats.fill([...toCount.keys()], ranked[0]!.counted);
      for (const c of ranked[0]!.counted) known.set(c.term, c.doc);
      const exact = chooseQueryTerms((m) => m.map((term) => ({ term, doc: known.get(term) ?? 0 })), unique, stats.entries, new TermStatsCache(), keyOf);
      const again = searchSteps(exact);
      const ready: RankedStep[] = [];
      for (const [i, step] of steps.entries()) {
        if (!sameStep(step, again[i]!)) break;
        ready.push({ step: again[i]!, rows: ranked[i]!.rows });
      }
      return this.runSteps(exact, limit, ready, rank);
    }
    return this.runSteps(chosen, limit, [], rank);
  }

  private runSteps(
    chosen: TermChoice, limit: number, ready: readonly RankedStep[],
    rank: (step: SearchStep) => Promise<{ rows: Array<EntryRow & { rel: number }> }>,
  ): Promise<SearchHit[]> {
    const sent: RankedStep[] = [...ready];
    if (!sent.length) {
      for (const step of leadingSteps(chosen)) {
        const rows = rank(step).then((r) => r.rows);
        rows.catch(() => {});
        sent.push({ step, rows });
      }
    }
    return runSearchSteps(chosen, limit, async (step) => {
      // Steps ranked already (with the counts, or sent together) come first and in order.
      const at = sent.findIndex((s) => sameStep(s.step, step));
      const done = at >= 0 ? await sent[at]!.rows : undefined;
      if (at >= 0) sent.splice(0, at + 1);
      const rows = done ?? (step.terms.length ? (await rank(step)).rows : []);
      return rows.map((r) => ({ entry: this.toEntry(r), relevance: r.rel }));
    });
  }

  /**
   * BM25 of the rows matching one step, best first; `count` terms (whose idf is not known yet) are
   * counted here, their frequencies returned beside the rows.
   */
  private async rankedRows(a: {
    keys: readonly string[]; required: ReadonlyArray<readonly string[]>; mode: "any" | "all"; queries: ReadonlyMap<string, string[]>; df: (key: string) => number;
    count: readonly string[]; cap: number; stats: { entries: number; tokens: number }; filter: EntryFilter; limit: number; read: ReadOptions;
  }): Promise<{ rows: Array<EntryRow & { rel: number }>; counted: Array<{ term: string; doc: number }> }> {
    // Each lexeme scores with its term's idf (a phrase lends its idf to its words); a counted term's idf is
    // worked out in SQL from its count, as idfOf() does.
    const counting = new Set(a.count);
    const lexRows: Array<{ lex: string; idf: number | null; term: string | null }> = [];
    for (const k of a.keys) {
      const idf = counting.has(k) ? null : idfOf(a.stats.entries, a.df(k));
      for (const lex of a.queries.get(k) ?? []) lexRows.push({ lex, idf, term: idf === null ? k : null });
    }
    const p = new Params();
    // "all": one key of each unit (a word and its other spellings, spelling-units.ts) required.
    const tsq = p.add(a.mode === "all" ? a.required.map((u) => (u.length > 1 ? `(${u.join(" | ")})` : u[0])).join(" & ") : a.keys.join(" | "));
    const countTerms = p.add([...a.count]);
    const cap = p.add(a.cap);
    const total = p.add(a.stats.entries);
    const lex = p.add(lexRows.map((r) => r.lex));
    const weights = p.add(lexRows.map((r) => r.idf));
    const owners = p.add(lexRows.map((r) => r.term));
    const avgdl = p.add(Math.max(1, a.stats.tokens / Math.max(1, a.stats.entries)));
    const where = filterSql(a.filter, p);
    const saturation = (tf: string) =>
      `(${tf} * ${BM25_K1 + 1}) / (${tf} + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * e.search_len / ${avgdl}::float8))`;
    // One or two lexemes (most recalls): each row's count of each comes from ts_rank_cd with every weight 1 (a
    // lone lexeme's covers are its positions), a C call per lexeme a row instead of unnesting the row's matches
    // into a join and an aggregate; the same arithmetic on the same integers (two terms add the same in either
    // order, and a lexeme the row lacks adds exactly 0), so the same relevance. Measured on the bench's 100k
    // hive, server CPU a statement: one-word recalls 5.2 → 3.9 ms, two-word 4.05 → 3.45 ms; at six lexemes the
    // calls cost more than the unnest (2.4 → 2.7 ms). OFFSET 0 keeps each count from being worked out twice.
    const lexemes = [...new Set(lexRows.map((r) => r.lex))];
    const rel =
      lexemes.length <= COUNTED_LEXEMES_MAX
        ? `SELECT ${lexemes.map((l, i) => `(SELECT q.idf FROM q WHERE q.lex = ${p.add(l)}::text) * ${saturation(`t.tf${i}`)}`).join(" + ")} AS rel
             FROM (SELECT ${lexemes.map((l, i) => `ts_rank_cd('{1,1,1,1}', e.search_vec, ${p.add(quoteLexeme(l))}::tsquery)::int AS tf${i}`).join(", ")} OFFSET 0) t`
        : `SELECT COALESCE(sum(q.idf * ${saturation("cardinality(u.positions)")}), 0) AS rel
             FROM unnest(ts_filter(setweight(e.search_vec, 'A', ${lex}::text[]), '{a}')) AS u(lexeme, positions, weights)
             JOIN q ON q.lex = u.lexeme`;
    // Rank on the index columns alone, then read the page's rows: the sort never carries the entries' JSON.
    // The outer join keeps one row (with the counts) when nothing matches.
    const rows = await (await this.q()).query<EntryRow & { rel: number | null; counted: Record<string, number> | null }>(
      `WITH counted AS MATERIALIZED (
         SELECT c.term, (SELECT count(*)::int FROM (SELECT 1 FROM ${this.S}.entries e WHERE e.search_vec @@ c.term::tsquery LIMIT ${cap}) x) AS doc
           FROM unnest(${unestimated(`${countTerms}::text[]`)}) AS c(term)),
       q AS (
         SELECT w.lex, max(COALESCE(w.idf, CASE WHEN ln((${total}::float8 - c.doc + 0.5) / (c.doc + 0.5)) > 0
                                                THEN ln((${total}::float8 - c.doc + 0.5) / (c.doc + 0.5)) ELSE 1e-6 END)) AS idf
           FROM unnest(${lex}::text[], ${weights}::float8[], ${owners}::text[]) AS w(lex, idf, term)
           LEFT JOIN counted c ON c.term = w.term
          GROUP BY w.lex)
       SELECT ${ENTRY_ROW_COLUMNS}, top.rel, (SELECT json_object_agg(term, doc) FROM counted) AS counted
         FROM (SELECT 1) one
         LEFT JOIN (
           SELECT e.seq, r.rel
             FROM ${this.S}.entries e
             CROSS JOIN LATERAL (${rel}) r
            WHERE e.search_vec @@ ${unestimated(`${tsq}::tsquery`)} AND ${where}
            ORDER BY r.rel DESC, e.seq
            LIMIT ${p.add(a.limit)}
         ) top ON true
         LEFT JOIN ${this.S}.entries e ON e.seq = top.seq
        ORDER BY top.rel DESC, e.seq`,
      p.values,
      a.read,
    );
    const counts = rows[0]?.counted ?? {};
    return {
      rows: rows.filter((r) => r.seq !== null).map(({ counted: _, ...r }) => ({ ...r, rel: r.rel ?? 0 })),
      counted: a.count.map((term) => ({ term, doc: counts[term] ?? 0 })),
    };
  }

  async listEntries(filter: EntryFilter, opts: ListOptions = {}): Promise<Entry[]> {
    const p = new Params();
    const where = filterSql(filter, p);
    const order = opts.order === "oldest" ? "e.seq ASC" : opts.order === "confidence" ? "e.confidence DESC, e.seq DESC" : "e.seq DESC";
    const rows = await (await this.q()).query<EntryRow>(
      `SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE ${where} ORDER BY ${order} LIMIT ${p.add(opts.limit ?? 50)} OFFSET ${p.add(opts.offset ?? 0)}`,
      p.values,
    );
    return rows.map((r) => this.toEntry(r));
  }

  async pageEntries(q: PageQuery): Promise<PageRow[]> {
    const tsq = q.text?.trim() ? allTermsQuery(q.text) : undefined;
    if (q.text?.trim() && !tsq) return [];
    const p = new Params();
    const where = [filterSql(q.filter, p)];
    if (q.sort === "relevance") {
      if (!tsq) throw new CairnError("INVALID_INPUT", "Sorting by relevance needs search words.");
      // FTS5's bm25 of the SQLite store's MATCH (each word a phrase, prefixes included): every word's idf from
      // the rows it matches in the whole tier, its frequency in each row from the row's own positions.
      const words = browseTermQueries(q.text!);
      const db = await this.q();
      const [stats, counts] = await Promise.all([this.readTierStats(), this.countTerms(words, Number.MAX_SAFE_INTEGER)]);
      const docs = new Map(counts.map((c) => [c.term, c.doc]));
      const avgdl = p.add(Math.max(1, stats.tokens / Math.max(1, stats.entries)));
      const score = words
        .map((w) => bm25TermSql(p.add(idfOf(stats.entries, docs.get(w) ?? 0)), `ts_rank_cd('{1,1,1,1}', e.search_vec, ${p.add(w)}::tsquery)::int`, avgdl))
        .join(" + ");
      const query = p.add(tsq);
      const rows = await db.query<EntryRow & { k: number; seq: number }>(
        `SELECT ${ENTRY_ROW_COLUMNS}, e.seq::float8 AS seq, -(${score}) AS k
           FROM ${this.S}.entries e WHERE e.search_vec @@ ${query}::tsquery AND ${where.join(" AND ")}
          ORDER BY k, e.seq LIMIT ${p.add(q.limit)} OFFSET ${p.add(q.offset ?? 0)}`,
        p.values,
      );
      return rows.map((r) => ({ entry: this.toEntry(r), key: r.k, seq: r.seq }));
    }
    const col = PAGE_SORT_COLUMNS[q.sort];
    const dir = q.desc ? "DESC" : "ASC";
    if (tsq) where.push(`e.search_vec @@ ${p.add(tsq)}::tsquery`);
    if (q.after) where.push(`(${col}, e.seq) ${q.desc ? "<" : ">"} (${p.add(q.after.key)}, ${p.add(q.after.seq)})`);
    // PostgreSQL's planner chooses between the (column, seq) index walk and the filter's own index.
    const rows = await (await this.q()).query<EntryRow & { k: string | number; seq: number }>(
      `SELECT ${ENTRY_ROW_COLUMNS}, e.seq::float8 AS seq, ${col} AS k FROM ${this.S}.entries e
        WHERE ${where.join(" AND ")} ORDER BY ${col} ${dir}, e.seq ${dir} LIMIT ${p.add(q.limit)}`,
      p.values,
    );
    return rows.map((r) => ({ entry: this.toEntry(r), key: r.k, seq: r.seq }));
  }

  async countEntriesCapped(filter: EntryFilter, text: string | undefined, cap: number): Promise<number> {
    const tsq = text?.trim() ? allTermsQuery(text) : undefined;
    if (text?.trim() && !tsq) return 0;
    const p = new Params();
    const where = [filterSql(filter, p)];
    if (tsq) where.push(`e.search_vec @@ ${p.add(tsq)}::tsquery`);
    const rows = await (await this.q()).query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${this.S}.entries e WHERE ${where.join(" AND ")} LIMIT ${p.add(cap)}) c`,
      p.values,
    );
    return rows[0]?.n ?? 0;
  }

  async *iterateEntries(filter: EntryFilter = {}): AsyncIterable<Entry> {
    let after = 0;
    for (;;) {
      const p = new Params();
      const start = p.add(after);
      const where = filterSql(filter, p);
      const rows = await (await this.q()).query<EntryRow>(
        `SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE e.seq > ${start} AND ${where} ORDER BY e.seq LIMIT 500`,
        p.values,
      );
      if (rows.length === 0) return;
      for (const r of rows) yield this.toEntry(r);
      after = Number(rows[rows.length - 1]!.seq);
    }
  }

  async countEntries(filter: EntryFilter = {}): Promise<number> {
    const statuses = tallyStatuses(filter);
    if (statuses !== null) return sumTallies(await this.entryTallies(), statuses).entries;
    const p = new Params();
    const where = filterSql(filter, p);
    const rows = await (await this.q()).query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.S}.entries e WHERE ${where}`, p.values);
    return rows[0]?.n ?? 0;
  }

  private async counter(name: "entries" | "rules"): Promise<number> {
    const rows = await (await this.q()).query<{ v: number }>(`SELECT COALESCE(sum(value), 0)::float8 AS v FROM ${this.S}.counters WHERE name = $1`, [name]);
    return rows[0]?.v ?? 0;
  }

  async totalEntries(): Promise<number> {
    return this.counter("entries");
  }

  /**
   * The tier's size as its searches last read it and, for the terms its searches counted, how many rows
   * hold each (keyed by the stem, which is the lexeme this store indexes), with no round trip: recall pools
   * a small project tier's words with these, as beside a SQLite hive. A count at the search's cap only
   * says "at least", so such a term is not given (the pooling then leaves scores as they are); a term
   * ANALYZE lists is given its estimate.
   */
  async termFrequencies(terms: readonly string[] = []): Promise<TermFrequencies | undefined> {
    const stats = this.stats.peek();
    if (!stats) return undefined;
    const cap = Math.ceil(maxUsefulDocFrequency(stats.entries)) + 1;
    const docs = new Map<string, number>();
    for (const term of terms) {
      const tq = termQuery(term.toLowerCase());
      if (tq?.lexemes.length !== 1) continue;
      const n = this.termStats.peek(tq.query);
      if (n !== undefined && n < cap) docs.set(tq.lexemes[0]!, n);
    }
    return { rows: stats.entries, docs };
  }

  /** Rows holding each term's stem (the lexeme this store indexes for it), one GIN lookup each, up to `cap`. */
  async countTermDocs(terms: readonly string[], cap: number, read: ReadOptions = {}): Promise<TermFrequencies> {
    const stemOfQuery = new Map(terms.map((t) => [quoteLexeme(stemOf(t)), stemOf(t)]));
    const counted = await this.countTerms([...stemOfQuery.keys()], cap, read);
    const docs = new Map<string, number>();
    for (const c of counted) if (c.doc > 0) docs.set(stemOfQuery.get(c.term)!, c.doc);
    return { rows: this.stats.peek()?.entries ?? 0, docs };
  }

  /** Read-modify-write of a row this transaction holds FOR UPDATE. */
  private async updateLocked(q: Querier, row: EntryRow, mutate: (current: Entry) => Entry, event: EventInput, opts: UpdateOptions = {}): Promise<Entry> {
    const current = this.toEntry(row);
    const next = EntrySchema.parse(healDates({ ...mutate(structuredClone(current)), updated_at: nowIso() }));
    assertStorable(next, "lesson");
    assertStorable(event.data, "event");
    // The add path's lock on the lesson's fingerprint, taken after this row's: a racing add, edit or restore of the same lesson waits, then sees this one.
    const twin = opts.unique ? await this.liveTwin(q, next, Number(row.seq), opts.twinAllowed) : undefined;
    if (twin) throw new DuplicateEntryError(this.toEntry(twin));
    const v = this.columnsOf(next);
    // tier, created_at and the usage counters recordUsage keeps in columns are not rewritten here.
    await q.query(
      `UPDATE ${this.S}.entries SET lesson = $1, category = $2, kind = $3, status = $4, scope = $5, priority = $6, confidence = $7,
         utility = $8, fingerprint = $9, external_id = $10, source_project_id = $11, phases_alive = $12, max_phases = $13,
         auto_generated = $14, shown = $15, applied = $16, ignored = $17, violated = $18, prevented = $19, helpful = $20, harmful = $21,
         last_shown_at = $22, updated_at = $23, for_agents = $24, for_tools = $25, for_projects = $26, tags = $27, advisory = $28,
         search_vec = $29::tsvector, search_len = $30, data = $31::json
       WHERE seq = $32`,
      [...v.slice(1, 23), ...v.slice(24), row.seq],
    );
    await this.logEvent(q, current.id, event, next.updated_at);
    return { ...next, handle: current.handle };
  }

  /** The row lock serialises concurrent changes of one entry (approval, supersede, confirmations) across machines. */
  private async updateInTransaction(q: Querier, id: string, mutate: (current: Entry) => Entry, event: EventInput, opts: UpdateOptions = {}): Promise<Entry> {
    const row = await this.rowFor(q, id, true);
    if (!row) throw new NotFoundError(id);
    return this.updateLocked(q, row, mutate, event, opts);
  }

  async updateEntry(id: string, mutate: (current: Entry) => Entry, event: EventInput, opts: UpdateOptions = {}): Promise<Entry> {
    const entry = await this.tx((q) => this.updateInTransaction(q, id, mutate, event, opts));
    await this.emit({ type: "update", entry });
    return entry;
  }

  async updateEntryOnce(effectKey: string, id: string, mutate: (current: Entry) => Entry, event: EventInput): Promise<Entry | undefined> {
    const entry = await this.tx(async (q) => {
      const claimed = await q.query(`INSERT INTO ${this.S}.applied_effects(key, at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING key`, [effectKey, nowIso()]);
      if (claimed.length === 0) return undefined;
      return this.updateInTransaction(q, id, mutate, event);
    });
    if (entry) await this.emit({ type: "update", entry });
    return entry;
  }

  async claimEffect(effectKey: string): Promise<boolean> {
    const rows = await (await this.q()).query(`INSERT INTO ${this.S}.applied_effects(key, at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING key`, [effectKey, nowIso()]);
    return rows.length > 0;
  }

  async recordUsage(ids: readonly string[], counter: UsageCounter, actor: string, data?: Record<string, unknown>): Promise<void> {
    if (ids.length === 0) return;
    assertStorable({ actor, data }, "usage event");
    // The column name comes from this fixed list, never from the caller's text.
    if (!USAGE_COUNTERS.includes(counter)) throw new TypeError(`unknown usage counter ${String(counter)}`);
    const at = nowIso();
    const stamp = counter === "shown" ? ", last_shown_at = $2" : counter === "consulted" ? ", last_consulted_at = $2" : "";
    const type = counter === "shown" ? "shown" : counter === "consulted" ? "consulted" : "feedback";
    // One statement: the counters and their events commit together.
    await (await this.q()).query(
      `WITH u AS (UPDATE ${this.S}.entries SET ${counter} = ${counter} + 1${stamp} WHERE id = ANY($1::text[]) RETURNING id)
       INSERT INTO ${this.S}.events(entry_id, type, at, actor, data) SELECT id, $3, $2, $4, $5::json FROM u`,
      [[...ids], at, type, actor, JSON.stringify({ counter, ...data })],
    );
    await this.emit({ type: "usage", ids, counter });
  }

  /**
   * Usage counts replayed from a project's outbox, exactly once per entry and item: each (item, entry)
   * effect key (`keyPrefix` + id) is claimed, the counters moved by the claims (stamped with the latest
   * queued time), and one event per claim written — all items of a replay in one statement, where a
   * statement per item put a hive write beside every injection's search. An entry no longer here
   * claims nothing. Returns the ids counted now (not counted before), once each.
   */
  async recordUsageOnce(items: readonly UsageClaim[], counter: UsageCounter, type: EventType): Promise<string[]> {
    if (!USAGE_COUNTERS.includes(counter)) throw new TypeError(`unknown usage counter ${String(counter)}`);
    const claims = new Map<string, { id: string; queued: string; actor: string; data: string }>();
    for (const it of items) {
      const data = JSON.stringify(it.data);
      for (const id of it.ids) claims.set(it.keyPrefix + id, { id, queued: it.queuedAt, actor: it.actor, data });
    }
    if (claims.size === 0) return [];
    // Sorted by key, so two replays of overlapping items claim (and wait) in the same order and never deadlock.
    const keys = [...claims.keys()].sort();
    const rows = keys.map((k) => claims.get(k)!);
    const stamp = counter === "shown" ? ", last_shown_at = per.last" : counter === "consulted" ? ", last_consulted_at = per.last" : "";
    const counted = await (await this.q()).query<{ id: string }>(
      `WITH x AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(key, id, queued, actor, data, n)),
       claimed AS (
         INSERT INTO ${this.S}.applied_effects(key, at)
           SELECT x.key, $6 FROM x WHERE EXISTS (SELECT 1 FROM ${this.S}.entries e WHERE e.id = x.id) ORDER BY x.n
           ON CONFLICT DO NOTHING RETURNING key),
       c AS (SELECT x.* FROM x JOIN claimed USING (key)),
       per AS (SELECT id, count(*)::int AS times, max(queued) AS last FROM c GROUP BY id),
       locked AS (SELECT e.id FROM ${this.S}.entries e WHERE e.id IN (SELECT id FROM per) ORDER BY e.id FOR UPDATE),
       u AS (UPDATE ${this.S}.entries e SET ${counter} = ${counter} + per.times${stamp} FROM per JOIN locked USING (id) WHERE e.id = per.id RETURNING e.id),
       ev AS (INSERT INTO ${this.S}.events(entry_id, type, at, actor, data) SELECT c.id, $7, $6, c.actor, c.data::json FROM c WHERE c.id IN (SELECT id FROM u) ORDER BY c.n)
       SELECT id FROM u ORDER BY id`,
      [keys, rows.map((r) => r.id), rows.map((r) => r.queued), rows.map((r) => r.actor), rows.map((r) => r.data), nowIso(), type],
    );
    const ids = counted.map((r) => r.id);
    if (ids.length) await this.emit({ type: "usage", ids, counter });
    return ids;
  }

  async deleteEntry(id: string, event: EventInput): Promise<boolean> {
    const seq = await this.tx(async (q) => {
      const [row] = await q.query<{ seq: string }>(`DELETE FROM ${this.S}.entries WHERE id = $1 RETURNING seq`, [id]);
      if (!row) return undefined;
      await this.logEvent(q, id, event);
      return Number(row.seq);
    });
    if (seq === undefined) return false;
    await this.emit({ type: "delete", id, handle: handleFor(this.tier, seq) });
    return true;
  }

  async incrementPhasesAlive(statuses: readonly Status[]): Promise<number> {
    const p = new Params();
    const where = filterSql({ statuses }, p);
    const rows = await (await this.q()).query<{ n: number }>(
      `WITH u AS (UPDATE ${this.S}.entries e SET phases_alive = phases_alive + 1 WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM u`,
      p.values,
    );
    const n = rows[0]?.n ?? 0;
    if (n > 0) await this.emit({ type: "bulk" });
    return n;
  }

  async findExpired(statuses: readonly Status[], defaultMaxPhases: number, todoMaxPhases: number): Promise<Entry[]> {
    const p = new Params();
    const where = filterSql({ statuses }, p);
    const rows = await (await this.q()).query<EntryRow>(
      `SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE ${where}
         AND e.phases_alive > COALESCE(e.max_phases, CASE e.category WHEN 'todo' THEN ${p.add(todoMaxPhases)}::int ELSE ${p.add(defaultMaxPhases)}::int END)
       ORDER BY e.seq`,
      p.values,
    );
    return rows.map((r) => this.toEntry(r));
  }

  async evictionCandidates(limit: number): Promise<Entry[]> {
    const rows = await (await this.q()).query<EntryRow>(
      // Same expressions as the entries_eviction_order index, so the planner walks it.
      `SELECT ${ENTRY_ROW_COLUMNS} FROM ${this.S}.entries e WHERE status <> 'promoted'
       ORDER BY (CASE status WHEN 'archived' THEN 0 WHEN 'quarantined' THEN 0 WHEN 'superseded' THEN 0 ELSE 1 END), (COALESCE(utility, 0.5)), seq
       LIMIT $1`,
      [limit],
    );
    return rows.map((r) => this.toEntry(r));
  }

  async enqueueOutcome(id: string, payload: unknown, at: string): Promise<boolean> {
    const rows = await (await this.q()).query(
      `INSERT INTO ${this.S}.reflection_queue(id, payload, enqueued_at) VALUES ($1, $2::json, $3) ON CONFLICT DO NOTHING RETURNING id`,
      [id, JSON.stringify(payload), at],
    );
    return rows.length > 0;
  }

  async outcomeEnqueuedAt(id: string): Promise<string | undefined> {
    const rows = await (await this.q()).query<{ enqueued_at: string }>(`SELECT enqueued_at FROM ${this.S}.reflection_queue WHERE id = $1`, [id]);
    return rows[0]?.enqueued_at;
  }

  async claimNextOutcome(now: string, leaseUntil: string): Promise<QueuedOutcome | undefined> {
    const rows = await (await this.q()).query<QueueRow>(
      `UPDATE ${this.S}.reflection_queue SET status = 'processing', lease_until = $2, attempts = attempts + 1
        WHERE id = (SELECT id FROM ${this.S}.reflection_queue q
                     WHERE ((status = 'pending' AND (lease_until IS NULL OR lease_until <= $1)) OR (status = 'processing' AND lease_until < $1))
                       -- an earlier outcome of the same plan task not yet done or dead: this one waits (sqlite-store's EARLIER_OUTCOME_OF_TASK)
                       AND NOT EXISTS (SELECT 1 FROM ${this.S}.reflection_queue p
                                        WHERE p.status IN ('pending', 'processing') AND p.payload->>'task_id' = q.payload->>'task_id'
                                          AND (p.enqueued_at, p.id) < (q.enqueued_at, q.id))
                     ORDER BY enqueued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, payload, status, attempts, last_error, enqueued_at, processed_at, shares`,
      [now, leaseUntil],
    );
    return rows[0] ? queueItem(rows[0]) : undefined;
  }

  async saveOutcomeShares(id: string, shares: Record<string, number>): Promise<void> {
    await (await this.q()).query(`UPDATE ${this.S}.reflection_queue SET shares = $1::json WHERE id = $2`, [JSON.stringify(shares), id]);
  }

  async completeOutcome(id: string, result: unknown, at: string): Promise<void> {
    await (await this.q()).query(
      `UPDATE ${this.S}.reflection_queue SET status = 'done', processed_at = $1, lease_until = NULL, result = $2::json WHERE id = $3`,
      [at, JSON.stringify(result ?? null), id],
    );
  }

  async failOutcome(id: string, error: string, maxAttempts: number, retryAt?: string): Promise<QueueStatus> {
    const rows = await (await this.q()).query<{ status: QueueStatus }>(
      `UPDATE ${this.S}.reflection_queue
          SET status = CASE WHEN attempts >= $2 THEN 'dead' ELSE 'pending' END,
              last_error = $3,
              lease_until = CASE WHEN attempts >= $2 THEN NULL ELSE $4 END
        WHERE id = $1 RETURNING status`,
      [id, maxAttempts, error.slice(0, 2000), retryAt ?? null],
    );
    return rows[0]?.status ?? "pending";
  }

  async queueCounts(): Promise<Partial<Record<QueueStatus, number>>> {
    const out: Partial<Record<QueueStatus, number>> = {};
    const rows = await (await this.q()).query<{ status: QueueStatus; n: number }>(`SELECT status, count(*)::int AS n FROM ${this.S}.reflection_queue GROUP BY status`);
    for (const r of rows) out[r.status] = r.n;
    return out;
  }

  async listQueue(status: QueueStatus, limit = 50): Promise<QueuedOutcome[]> {
    const rows = await (await this.q()).query<QueueRow>(
      `SELECT id, payload, status, attempts, last_error, enqueued_at, processed_at, shares FROM ${this.S}.reflection_queue WHERE status = $1 ORDER BY enqueued_at LIMIT $2`,
      [status, limit],
    );
    return rows.map(queueItem);
  }

  async enqueueOutbox(id: string, op: string, payload: unknown, at: string): Promise<boolean> {
    const rows = await (await this.q()).query(
      `INSERT INTO ${this.S}.hive_outbox(id, op, payload, enqueued_at) VALUES ($1, $2, $3::json, $4) ON CONFLICT DO NOTHING RETURNING id`,
      [id, op, JSON.stringify(payload), at],
    );
    return rows.length > 0;
  }

  async listOutbox(status: OutboxStatus, limit = 100): Promise<OutboxItem[]> {
    const rows = await (await this.q()).query<OutboxItem & { seq: string; last_error: string | null }>(
      `SELECT seq, id, op, payload, status, attempts, last_error, enqueued_at FROM ${this.S}.hive_outbox WHERE status = $1 ORDER BY seq LIMIT $2`,
      [status, limit],
    );
    return rows.map(({ last_error, ...r }) => ({ ...r, seq: Number(r.seq), ...(last_error ? { last_error } : {}) }));
  }

  async completeOutbox(id: string): Promise<void> {
    await (await this.q()).query(`DELETE FROM ${this.S}.hive_outbox WHERE id = $1`, [id]);
  }

  async failOutbox(id: string, error: string, dead: boolean): Promise<void> {
    await (await this.q()).query(`UPDATE ${this.S}.hive_outbox SET attempts = attempts + 1, last_error = $2, status = $3 WHERE id = $1`, [
      id, error.slice(0, 2000), dead ? "dead" : "pending",
    ]);
  }

  async outboxCounts(): Promise<{ pending: number; dead: number; oldest?: string }> {
    const rows = await (await this.q()).query<{ status: OutboxStatus; n: number; oldest: string }>(
      `SELECT status, count(*)::int AS n, min(enqueued_at) AS oldest FROM ${this.S}.hive_outbox GROUP BY status`,
    );
    const pending = rows.find((r) => r.status === "pending");
    return { pending: pending?.n ?? 0, dead: rows.find((r) => r.status === "dead")?.n ?? 0, ...(pending ? { oldest: pending.oldest } : {}) };
  }

  async promotedTo(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await (await this.q()).query<{ id: string; promoted_to: string }>(
      `SELECT id, promoted_to FROM ${this.S}.entries WHERE id = ANY($1::text[]) AND promoted_to IS NOT NULL`,
      [[...ids]],
    );
    return new Map(rows.map((r) => [r.id, r.promoted_to]));
  }

  async promotedOriginals(hiveIds: readonly string[]): Promise<Map<string, string>> {
    if (hiveIds.length === 0) return new Map();
    const rows = await (await this.q()).query<{ id: string; promoted_to: string }>(
      `SELECT id, promoted_to FROM ${this.S}.entries WHERE promoted_to = ANY($1::text[])`,
      [[...hiveIds]],
    );
    return new Map(rows.map((r) => [r.id, r.promoted_to]));
  }

  async listPromotions(filter: EntryFilter): Promise<Promotion[]> {
    const p = new Params();
    const where = filterSql(filter, p);
    const rows = await (await this.q()).query<{ seq: string; id: string; promoted_to: string }>(
      `SELECT e.seq, e.id, e.promoted_to FROM ${this.S}.entries e WHERE e.promoted_to IS NOT NULL AND ${where} ORDER BY e.seq`,
      p.values,
    );
    return rows.map((r) => ({ id: r.id, handle: handleFor(this.tier, Number(r.seq)), promoted_to: r.promoted_to }));
  }

  async appendEvent(entryId: string, event: EventInput): Promise<void> {
    assertStorable(event, "event");
    await this.logEvent(await this.q(), entryId, event);
  }

  async listEvents(entryId?: string, limit = 100): Promise<EntryEvent[]> {
    const cols = "seq, entry_id, type, at, actor, db_role, data";
    const rows = entryId
      ? await (await this.q()).query<EventRow>(`SELECT ${cols} FROM ${this.S}.events WHERE entry_id = $1 ORDER BY seq LIMIT $2`, [entryId, limit])
      : await (await this.q()).query<EventRow>(`SELECT ${cols} FROM ${this.S}.events ORDER BY seq DESC LIMIT $1`, [limit]);
    return rows.map(eventOf);
  }

  async addRejected(r: Omit<RejectedLesson, "id">, cap: number): Promise<void> {
    await this.tx(async (q) => {
      await q.query(`INSERT INTO ${this.S}.rejected(lesson, reason, codes, source, at) VALUES ($1, $2, $3::json, $4, $5)`, [
        storableText(r.lesson), storableText(r.reason), JSON.stringify(r.codes.map(storableText)), storableText(r.source), r.at,
      ]);
      await q.query(`DELETE FROM ${this.S}.rejected WHERE seq <= (SELECT max(seq) FROM ${this.S}.rejected) - $1`, [cap]);
    });
  }

  async listRejected(limit = 50): Promise<RejectedLesson[]> {
    const rows = await (await this.q()).query<RejectedRow>(
      `SELECT seq, lesson, reason, codes, source, at FROM ${this.S}.rejected ORDER BY seq DESC LIMIT $1`,
      [limit],
    );
    return rows.map(rejectedOf);
  }

  async isRejected(lesson: string): Promise<RejectedLesson | undefined> {
    const rows = await (await this.q()).query<RejectedRow>(
      `SELECT seq, lesson, reason, codes, source, at FROM ${this.S}.rejected WHERE lesson = $1 ORDER BY seq DESC LIMIT 1`,
      [storableText(lesson)],
    );
    return rows[0] ? rejectedOf(rows[0]) : undefined;
  }

  async usageBySource(): Promise<SourceUsage[]> {
    return usageBySourceOf(await this.entryTallies());
  }

  async entryTallies(): Promise<EntryTally[]> {
    // Summed over the writers' shards (migration 4).
    return (await this.q()).query<EntryTally>(
      `SELECT status, source, sum(entries)::float8 AS entries, sum(shown)::float8 AS shown, sum(applied)::float8 AS applied,
              sum(consulted)::float8 AS consulted, sum(prevented)::float8 AS prevented
         FROM ${this.S}.entry_tallies GROUP BY status, source HAVING sum(entries) <> 0 ORDER BY status, source`,
    );
  }

  async countRejected(cap: number): Promise<number> {
    const rows = await (await this.q()).query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${this.S}.rejected ORDER BY seq DESC LIMIT $1) r`,
      [cap],
    );
    return rows[0]?.n ?? 0;
  }

  async sumUsage(filter: EntryFilter = {}): Promise<UsageTotals> {
    const statuses = tallyStatuses(filter);
    if (statuses !== null) return sumTallies(await this.entryTallies(), statuses);
    const p = new Params();
    const where = filterSql(filter, p);
    const rows = await (await this.q()).query<UsageTotals>(
      `SELECT count(*)::int AS entries, COALESCE(sum(shown), 0)::int AS shown, COALESCE(sum(applied), 0)::int AS applied,
              COALESCE(sum(consulted), 0)::int AS consulted, COALESCE(sum(prevented), 0)::int AS prevented
         FROM ${this.S}.entries e WHERE ${where}`,
      p.values,
    );
    return rows[0] ?? { entries: 0, shown: 0, applied: 0, consulted: 0, prevented: 0 };
  }

  async countOutcomes(filter: { success?: boolean } = {}): Promise<number> {
    const rows =
      filter.success === undefined
        ? await (await this.q()).query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.S}.reflection_queue`)
        : await (await this.q()).query<{ n: number }>(
            // As SQLite's json_extract(payload, '$.success') = 1 (or 0): a JSON boolean, or a number equal to 1 (or 0);
            // any other value (a string, null, no object) counts as neither, and never fails the count.
            `SELECT count(*)::int AS n FROM ${this.S}.reflection_queue
              WHERE CASE json_typeof(payload->'success')
                      WHEN 'boolean' THEN (payload->>'success')::boolean = $1
                      WHEN 'number' THEN (payload->>'success')::float8 = $2
                      ELSE false END`,
            [filter.success, filter.success ? 1 : 0],
          );
    return rows[0]?.n ?? 0;
  }

  async listEventsByType(type: EntryEvent["type"], since: string, limit = 1000): Promise<EntryEvent[]> {
    const rows = await (await this.q()).query<EventRow>(
      `SELECT seq, entry_id, type, at, actor, db_role, data FROM ${this.S}.events WHERE type = $1 AND at >= $2 ORDER BY at, seq LIMIT $3`,
      [type, since, limit],
    );
    return rows.map(eventOf);
  }

  async eventCountsByDay(types: readonly EventType[], since: string): Promise<DayCount[]> {
    if (types.length === 0) return [];
    return (await this.q()).query<DayCount>(
      `SELECT day, type, n::int AS n FROM ${this.S}.event_days WHERE day >= $1 AND type = ANY($2::text[]) ORDER BY day, type`,
      [since.slice(0, 10), [...types]],
    );
  }

  async projectUsage(limit: number): Promise<{ projects: ProjectUsageSummary[]; entries: ProjectUse[] }> {
    const db = await this.q();
    const projects = await db.query<ProjectUsageSummary>(
      `SELECT project_id, count(*)::int AS entries, sum(shown)::int AS shown, sum(applied)::int AS applied, max(last_at) AS last_at
         FROM ${this.S}.project_usage GROUP BY project_id ORDER BY sum(shown + applied) DESC, project_id LIMIT 50`,
    );
    const entries = await db.query<ProjectUse>(
      `WITH top AS (
         SELECT entry_id, count(*) AS reach, sum(shown + applied) AS uses FROM ${this.S}.project_usage
          GROUP BY entry_id ORDER BY reach DESC, uses DESC, entry_id LIMIT $1)
       SELECT p.project_id, p.entry_id, p.shown, p.applied, p.last_at FROM ${this.S}.project_usage p JOIN top ON top.entry_id = p.entry_id
        ORDER BY top.reach DESC, top.uses DESC, p.entry_id, p.shown + p.applied DESC`,
      [limit],
    );
    return { projects, entries };
  }

  async sourceProjects(limit: number): Promise<SourceProject[]> {
    const rows = await (await this.q()).query<SourceProject & { project_name: string | null }>(
      `SELECT source_project_id AS project_id, count(*)::int AS entries,
              count(*) FILTER (WHERE status IN ('candidate', 'established', 'promoted'))::int AS live,
              min(data->'provenance'->>'source_project_name') AS project_name
         FROM ${this.S}.entries WHERE source_project_id IS NOT NULL GROUP BY source_project_id ORDER BY entries DESC, project_id LIMIT $1`,
      [limit],
    );
    return rows.map(({ project_name, ...r }) => (project_name ? { ...r, project_name } : r));
  }

  async sourceProjectIds(limit: number): Promise<Array<{ project_id: string; project_name?: string }>> {
    // A skip scan over entries_source_project: each step seeks the next distinct id.
    const rows = await (await this.q()).query<{ id: string; name: string | null }>(
      `WITH RECURSIVE p(id, n) AS (
         SELECT min(source_project_id), 1 FROM ${this.S}.entries
         UNION ALL
         SELECT (SELECT min(source_project_id) FROM ${this.S}.entries WHERE source_project_id > p.id), n + 1 FROM p WHERE p.id IS NOT NULL AND n < $1)
       SELECT id, (SELECT data->'provenance'->>'source_project_name' FROM ${this.S}.entries WHERE source_project_id = p.id LIMIT 1) AS name
         FROM p WHERE id IS NOT NULL`,
      [limit],
    );
    return rows.map((r) => (r.name ? { project_id: r.id, project_name: r.name } : { project_id: r.id }));
  }

  /** Calls share a pool and a network round trip dominates each write: no grouping to gain, so none. */
  writeBatch<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  subscribe(listener: StoreListener): () => void {
    return this.listeners.subscribe(listener);
  }

  private emit(change: StoreChange): Promise<void> {
    return this.listeners.emit(change);
  }

  async rulesVersion(): Promise<number> {
    return this.counter("rules");
  }

  async schemaVersion(): Promise<number> {
    const rows = await (await this.q()).query<{ v: number | null }>(`SELECT max(version)::int AS v FROM ${this.S}.schema_migrations`);
    return rows[0]?.v ?? 0;
  }

  /** The database keeps its own pages consistent; what can drift is the counter beside the rows. */
  async integrityCheck(): Promise<string> {
    const rows = await (await this.q()).query<{ rows: number; counted: number }>(
      `SELECT (SELECT count(*) FROM ${this.S}.entries)::float8 AS rows, (SELECT COALESCE(sum(value), 0) FROM ${this.S}.counters WHERE name = 'entries')::float8 AS counted`,
    );
    const r = rows[0];
    if (!r) return "unknown";
    return r.rows === r.counted ? "ok" : `entry counter ${r.counted} differs from ${r.rows} rows`;
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

interface QueueRow {
  id: string;
  payload: unknown;
  status: QueueStatus;
  attempts: number;
  last_error: string | null;
  enqueued_at: string;
  processed_at: string | null;
  shares: Record<string, number> | null;
}

function queueItem(r: QueueRow): QueuedOutcome {
  return {
    id: r.id,
    payload: r.payload,
    status: r.status,
    attempts: r.attempts,
    enqueued_at: r.enqueued_at,
    ...(r.last_error ? { last_error: r.last_error } : {}),
    ...(r.processed_at ? { processed_at: r.processed_at } : {}),
    ...(r.shares ? { shares: r.shares } : {}),
  };
}

interface EventRow {
  seq: string;
  entry_id: string;
  type: EntryEvent["type"];
  at: string;
  actor: string;
  db_role: string;
  data: Record<string, unknown>;
}

function eventOf(r: EventRow): EntryEvent {
  return { seq: Number(r.seq), entry_id: r.entry_id, type: r.type, at: r.at, actor: r.actor, data: r.data, db_role: r.db_role };
}

interface RejectedRow {
  seq: string;
  lesson: string;
  reason: string;
  codes: string[];
  source: string;
  at: string;
}

function rejectedOf(r: RejectedRow): RejectedLesson {
  return { id: Number(r.seq), lesson: r.lesson, reason: r.reason, codes: r.codes, source: r.source, at: r.at };
}
