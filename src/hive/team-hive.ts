// The team hive as the engine sees it: PostgreSQL behind per-call timeouts, a bounded cache and the project's outbox.
import { answerWithin } from "../core/answer-within.js";
import type { Entry, EntryEvent, EventType, RejectedLesson, Status } from "../core/entry.js";
import { newEntryId } from "../core/ids.js";
import { CairnError } from "../errors.js";
import { betweenCalls } from "../store/between-calls.js";
import { isUnavailableError } from "../store/pg/client.js";
import { countsAfterAnswer } from "../store/store.js";
import type { PostgresStore } from "../store/pg/pg-store.js";
import type {
  BulkInsertOutcome, CopyResult, DayCount, TermFrequencies, EntryKey, EntryFilter, EventInput, PageQuery, Promotion, PageRow, ProjectUsageSummary, ProjectUse, SourceProject, InsertOptions, ListOptions, OutboxItem, OutboxStatus, QueuedOutcome, QueueStatus, SearchHit, SourceUsage, Store, VectorCount, VectorHit, VectorSpace,
  StoreListener, UpdateOptions, UsageCounter, UsageTotals,
} from "../store/store.js";
import { HiveResultCache } from "./cache.js";
import type { EntryTally } from "../store/tallies.js";

export interface TeamHiveOptions {
  /** Hot-path reads (injection, recall, advisories) wait this long, then fall back. */
  readTimeoutMs: number;
  /**
   * The first read of a process also opens the connection (and checks the schema), so it may take
   * this long: a fresh CLI must not skip the hive because connecting takes more than a read.
   */
  connectTimeoutMs: number;
  /** After a failure, hot-path reads skip the hive for this long. */
  retryAfterMs: number;
  cacheEntries: number;
  /** Where hive writes wait while the hive is unreachable: the project's own (swarm) database. */
  outbox: Store;
  /** One line per change of state, never one per call (default: stderr). */
  log?: (line: string) => void;
}

export type HiveState = "unknown" | "up" | "down";

class ReadTimeout extends Error {}

/**
 * Usage counts wait this long before their replay: a burst of turns (a swarm's agents, a busy session)
 * then shares one replay, one hive statement and one local commit, instead of putting a hive write
 * beside every injection's search. Other writes replay at once; flush() and close() do not wait.
 */
export const USAGE_REPLAY_DELAY_MS = 250;

/**
 * While the hive answers, the remembered results are checked against it at most this often, off the
 * turn's path: a teammate's quarantine, archive, removal or edit then reaches them before an outage
 * can make them the answer. One statement over the remembered ids; a turn never waits on it.
 */
export const CACHE_SYNC_EVERY_MS = 1000;

async function timeout<T>(p: Promise<T>, ms: number): Promise<T> {
  const answer = await answerWithin(p, ms);
  if (!answer) throw new ReadTimeout(`no answer within ${ms} ms`);
  return answer.value;
}

/**
 * A Store over the PostgreSQL hive that never makes a session wait on the network for long:
 * search, lookups and the rules version answer within `readTimeoutMs` or from recent results;
 * usage counts are written to the local outbox and replayed in the background; other calls go
 * straight through and fail with UNAVAILABLE (callers queue promotions and feedback on that).
 */
export class TeamHiveStore implements Store {
  readonly tier = "hive" as const;
  readonly location: string;
  readonly networked = true;
  readonly cache: HiveResultCache;
  private state: HiveState = "unknown";
  private retryAt = 0;
  private lastRules: number | undefined;
  private replayer: (() => Promise<unknown>) | undefined;
  private replaying: Promise<void> | undefined;
  private replayAgain = false;
  /** The last replay failure logged, so a lasting one is logged once. */
  private lastReplayError: string | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private usageTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private slowVectorsLogged = false;
  private vectorsSlowUntil = 0;
  private readonly log: (line: string) => void;
  private cacheSync: Promise<void> | undefined;
  private lastCacheSyncAt = 0;
  /** Hot-path reads given up on that have not finished yet (their answers are dropped: `fast`). */
  private readonly givenUp = new Set<Promise<unknown>>();

  constructor(
    readonly remote: PostgresStore,
    private readonly opts: TeamHiveOptions,
  ) {
    this.location = remote.location;
    this.cache = new HiveResultCache(opts.cacheEntries);
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  get health(): HiveState {
    return this.state;
  }

  /** Runs the outbox replay (set by the engine, which knows how to apply each kind of write). */
  setReplayer(replay: () => Promise<unknown>): void {
    this.replayer = replay;
  }

  private markDown(e: unknown): void {
    // Work still settling after close() is not an outage.
    if (this.closed) return;
    this.retryAt = Date.now() + this.opts.retryAfterMs;
    if (this.state === "down") return;
    this.state = "down";
    const why = e instanceof ReadTimeout ? (e as Error).message : ((e as Error).message ?? String(e)).replace(/^The team hive \S+ (\(schema \S+\) )?is unreachable: /, "");
    this.log(`cairn: team hive ${this.location} unreachable (${why.slice(0, 200)}); answering from this project and recent hive results, hive writes wait in the outbox`);
    this.scheduleRetry();
  }

  private markUp(): void {
    if (this.state === "up") return;
    if (this.state === "down") this.log(`cairn: team hive ${this.location} reachable again; replaying the outbox`);
    this.state = "up";
    // Also on a process's first contact: writes an earlier process queued are replayed now.
    this.kickReplay();
  }

  /** While down, the hive is tried again now and then so the outbox drains without waiting for a read. */
  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed || this.state !== "down") return;
      void this.remote.schemaVersion().then(
        () => this.markUp(),
        (e: unknown) => {
          this.markDown(e);
          this.scheduleRetry();
        },
      );
    }, this.opts.retryAfterMs);
    this.retryTimer.unref?.();
  }

  private skipping(): boolean {
    return this.state === "down" && Date.now() < this.retryAt;
  }

  /** How long a hot-path read may wait: the first of a process also connects (and checks the schema). */
  private readWaitMs(): number {
    return this.state === "unknown" ? Math.max(this.opts.readTimeoutMs, this.opts.connectTimeoutMs) : this.opts.readTimeoutMs;
  }

  /**
   * A hot-path read: bounded wait, and on a timeout or an outage the fallback answers. `read` gets the
   * bound, for reads whose statements can drop an answer that comes later (PgClient's ReadOptions).
   * `answered` (what the answer teaches the cache) runs only for an answer within the bound: a read given
   * up on may still finish later (a statement that waited for a pooled connection has no timer of its
   * own until it gets one), and what it finds then must not reach the cache.
   */
  private async fast<T>(read: (waitMs: number) => Promise<T>, fallback: () => T, answered?: (v: T) => void): Promise<T> {
    if (this.skipping()) return fallback();
    try {
      const waitMs = this.readWaitMs();
      const reading = read(waitMs);
      const v = await timeout(reading, waitMs).catch((e: unknown) => {
        if (e instanceof ReadTimeout) {
          const settled = reading.then(() => undefined, () => undefined);
          this.givenUp.add(settled);
          void settled.finally(() => this.givenUp.delete(settled));
        }
        throw e;
      });
      this.markUp();
      answered?.(v);
      return v;
    } catch (e) {
      if (!(e instanceof ReadTimeout) && !isUnavailableError(e)) throw e;
      this.markDown(e);
      return fallback();
    }
  }

  /**
   * Any other call: the hive's own timeouts; an outage is recorded (one log line) and passed on.
   * Right after a failure it is passed on at once, so queued writes do not each wait to connect.
   */
  private async through<T>(call: () => Promise<T>): Promise<T> {
    if (this.skipping()) throw new CairnError("UNAVAILABLE", `The team hive ${this.location} is unreachable (retrying shortly).`);
    return this.observed(call);
  }

  /** Runs a call against the hive; its outcome sets the state (up on success, down on an outage). */
  private async observed<T>(call: () => Promise<T>): Promise<T> {
    try {
      const v = await call();
      this.markUp();
      return v;
    } catch (e) {
      if (isUnavailableError(e)) this.markDown(e);
      throw e;
    }
  }

  private unavailable(what: string): CairnError {
    return new CairnError("UNAVAILABLE", `The team hive ${this.location} is unreachable and ${what} is not in the recent results.`);
  }

  /**
   * A hot-path read, but a slow answer is not an outage: vector search may be exact (no pgvector) and
   * slower than a text search, so on a timeout the turn goes on without vector hits and the hive stays
   * up for everything else (said once). Unreachable is an outage as for any read. No hits while down:
   * the cache answers text searches only (an entry found by meaning is also found by its words).
   */
  async searchVectors(space: VectorSpace, query: Float32Array, filter: EntryFilter, limit: number): Promise<VectorHit[]> {
    // After a slow one, vector searches pause a while: each would hold a pooled connection the text search needs.
    if (this.skipping() || Date.now() < this.vectorsSlowUntil) return [];
    const waitMs = this.readWaitMs();
    try {
      const hits = await timeout(this.remote.searchVectors(space, query, filter, limit), waitMs);
      this.markUp();
      for (const h of hits) this.cache.remember(h.entry);
      return hits;
    } catch (e) {
      if (e instanceof ReadTimeout) {
        this.vectorsSlowUntil = Date.now() + this.opts.retryAfterMs;
        if (!this.slowVectorsLogged) {
          this.slowVectorsLogged = true;
          this.log(`cairn: vector search on the team hive ${this.location} took longer than ${waitMs} ms; turns go on with text results and vector search pauses for ${this.opts.retryAfterMs} ms at a time (pgvector on the server makes it fast)`);
        }
        return [];
      }
      if (!isUnavailableError(e)) throw e;
      this.markDown(e);
      return [];
    }
  }
  /** Vectors of a write made while the hive was down are not queued: the replayed write embeds again, and reindex fills any gap. */
  putVectors(space: VectorSpace, rows: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    return this.through(() => this.remote.putVectors(space, rows));
  }
  entriesWithoutVector(space: VectorSpace, limit: number, afterSeq?: number): Promise<{ seq: number; entry: Entry }[]> {
    return this.through(() => this.remote.entriesWithoutVector(space, limit, afterSeq));
  }
  vectorCounts(): Promise<VectorCount[]> {
    return this.through(() => this.remote.vectorCounts());
  }
  vectorsOf(space: VectorSpace, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.through(() => this.remote.vectorsOf(space, ids));
  }

  searchEntries(terms: readonly string[], filter: EntryFilter, limit: number): Promise<SearchHit[]> {
    return this.fast(
      (waitMs) => this.remote.searchEntries(terms, filter, limit, { readTimeoutMs: waitMs }),
      () => this.cache.search(terms, filter, limit),
      (hits) => {
        this.cache.rememberSearch(terms, filter, hits);
        this.syncCacheSoon();
      },
    );
  }

  /**
   * Brings the remembered results up to the hive's rows (CACHE_SYNC_EVERY_MS apart, one at a time, in the
   * background): the cache otherwise follows only this engine's own changes, and a lesson a teammate
   * retired just before an outage would be injected from it.
   */
  private syncCacheSoon(): void {
    if (this.closed || this.cacheSync || Date.now() - this.lastCacheSyncAt < CACHE_SYNC_EVERY_MS) return;
    this.lastCacheSyncAt = Date.now();
    const sync = async () => {
      const asked = this.cache.versions();
      const { changed, gone } = await this.remote.changedAmong(asked);
      const askedAt = new Map(asked.map((k) => [k.id, k.updated_at]));
      for (const e of changed) this.cache.updateIfStill(e, askedAt.get(e.id)!);
      for (const id of gone) this.cache.forget(id);
    };
    // Not inside the turn that kicked it (its statement would share the turn's wait): once that turn has answered.
    this.cacheSync = new Promise<void>((resolve, reject) => betweenCalls(() => void sync().then(resolve, reject)))
      // A failed sync leaves the cache as it was; the next turn's search says whether the hive is down.
      .catch(() => {})
      .finally(() => {
        this.cacheSync = undefined;
      });
  }

  /** Settles once every hot-path read given up on has finished and its answer was dropped (tests read the cache after it). */
  async givenUpReadsSettled(): Promise<void> {
    await Promise.all([...this.givenUp]);
  }

  /** Settles once a cache sync under way has finished (tests, and anything wanting the cache current). */
  async cacheSynced(): Promise<void> {
    await this.cacheSync;
  }

  getEntry(ref: string): Promise<Entry | undefined> {
    return this.fast(
      () => this.remote.getEntry(ref),
      () => {
        // Only hive refs can be answered; anything else may or may not be in the hive.
        const hit = this.cache.entry(ref);
        if (hit) return hit;
        throw this.unavailable(`entry ${ref.slice(0, 60)}`);
      },
      (e) => {
        if (e) this.cache.remember(e);
      },
    );
  }

  rulesVersion(): Promise<number> {
    return this.fast(
      () => this.remote.rulesVersion(),
      () => {
        if (this.lastRules === undefined) throw this.unavailable("the advisory rules");
        return this.lastRules;
      },
      (v) => (this.lastRules = v),
    );
  }

  /** Usage counts never wait on the network: they are queued locally and replayed exactly once. */
  async recordUsage(ids: readonly string[], counter: UsageCounter, actor: string, data?: Record<string, unknown>): Promise<void> {
    if (ids.length === 0) return;
    const at = new Date().toISOString();
    await this.opts.outbox.enqueueOutbox(newEntryId(), "usage", { ids: [...ids], counter, actor, ...(data ? { data } : {}), at }, at, { afterCall: countsAfterAnswer(counter) });
    this.kickReplaySoon();
  }

  /** A replay within USAGE_REPLAY_DELAY_MS, shared by everything queued meanwhile. */
  private kickReplaySoon(): void {
    if (this.usageTimer || !this.replayer || this.closed) return;
    // Not inside a call waiting on the hive (its local writes and statement would stretch that call): after it answers.
    this.usageTimer = setTimeout(() => betweenCalls(() => this.kickReplay()), USAGE_REPLAY_DELAY_MS);
    this.usageTimer.unref?.();
  }

  private replayLock: Promise<unknown> = Promise.resolve();
  /** One outbox replay at a time in this process (the background one and `cairn hive sync`). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.replayLock.then(fn, fn);
    this.replayLock = run.catch(() => {});
    return run;
  }

  /** An explicit replay (`cairn hive sync`): tried now even while reads skip the hive; its outcome sets the state. */
  replayNow<T>(replay: (remote: PostgresStore) => Promise<T>): Promise<T> {
    return this.exclusive(() => this.observed(() => replay(this.remote)));
  }

  /** Replays the outbox soon, off the caller's path. */
  kickReplay(): void {
    if (this.usageTimer) clearTimeout(this.usageTimer);
    this.usageTimer = undefined;
    if (!this.replayer || this.closed) return;
    if (this.replaying) {
      this.replayAgain = true;
      return;
    }
    this.replaying = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        do {
          this.replayAgain = false;
          await this.exclusive(this.replayer!);
        } while (this.replayAgain && !this.closed && this.state !== "down");
        this.lastReplayError = undefined;
      })
      .catch((e: unknown) => {
        // A replay still running when close() stopped waiting fails on the closed databases; its writes stay
        // queued for the next process, so that is not worth a line in the user's terminal.
        if (this.closed) return;
        if (isUnavailableError(e)) return this.markDown(e);
        // A failure that repeats on every turn is one line until a replay works, not one per turn.
        const message = (e as Error).message ?? String(e);
        if (message === this.lastReplayError) return;
        this.lastReplayError = message;
        this.log(`cairn: replaying the hive outbox failed: ${message} (writes wait in the outbox; \`cairn hive status\`)`);
      })
      .finally(() => {
        this.replaying = undefined;
      });
  }

  /** Waits (at most `ms`) for queued hive writes to be replayed: short-lived processes call it before exiting. */
  async flush(ms = 2000): Promise<void> {
    if (!this.replayer) return;
    // A count queued while a replay ran waits on the timer: it joins this flush too.
    if (!this.replaying || this.usageTimer) this.kickReplay();
    const pending = this.replaying;
    if (pending) await timeout(pending, ms).catch(() => {});
  }

  async close(): Promise<void> {
    if (!this.closed && this.state !== "down") await this.flush();
    this.closed = true;
    if (this.usageTimer) clearTimeout(this.usageTimer);
    this.usageTimer = undefined;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.remote.close();
  }

  // Everything else goes straight to the hive.
  insertEntry(entry: Entry, event: EventInput, opts?: InsertOptions): Promise<Entry> {
    return this.through(() => this.remote.insertEntry(entry, event, opts));
  }
  copyEntry(entry: Entry, events: readonly EntryEvent[]): Promise<CopyResult> {
    return this.through(() => this.remote.copyEntry(entry, events));
  }
  findByFingerprint(fingerprint: string): Promise<Entry[]> {
    return this.through(() => this.remote.findByFingerprint(fingerprint));
  }
  insertEntries(entries: readonly Entry[], event: EventInput, opts?: InsertOptions): Promise<BulkInsertOutcome[]> {
    return this.through(() => this.remote.insertEntries(entries, event, opts));
  }

  entryKeys(): Promise<EntryKey[]> {
    return this.through(() => this.remote.entryKeys());
  }
  listEntries(filter: EntryFilter, opts?: ListOptions): Promise<Entry[]> {
    return this.through(() => this.remote.listEntries(filter, opts));
  }
  async *iterateEntries(filter?: EntryFilter): AsyncIterable<Entry> {
    if (this.skipping()) throw this.unavailable("the full list");
    try {
      yield* this.remote.iterateEntries(filter);
    } catch (e) {
      if (isUnavailableError(e)) this.markDown(e);
      throw e;
    }
  }
  pageEntries(q: PageQuery): Promise<PageRow[]> {
    return this.through(() => this.remote.pageEntries(q));
  }
  countEntriesCapped(filter: EntryFilter, text: string | undefined, cap: number): Promise<number> {
    return this.through(() => this.remote.countEntriesCapped(filter, text, cap));
  }
  countEntries(filter?: EntryFilter): Promise<number> {
    return this.through(() => this.remote.countEntries(filter));
  }
  totalEntries(): Promise<number> {
    return this.through(() => this.remote.totalEntries());
  }
  /** No round trip (see PostgresStore.termFrequencies), so it answers while the database is down too. */
  termFrequencies(terms: readonly string[] = []): Promise<TermFrequencies | undefined> {
    return this.remote.termFrequencies(terms);
  }
  /** Spelling mending's counts, within a search's wait: a hive that cannot answer in it mends nothing. */
  countTermDocs(terms: readonly string[], cap: number): Promise<TermFrequencies | undefined> {
    return this.fast((waitMs) => this.remote.countTermDocs(terms, cap, { readTimeoutMs: waitMs }), () => undefined);
  }
  // A change made here reaches the remembered results too: a lesson just retired must not come back from them during an outage.
  async updateEntry(id: string, mutate: (current: Entry) => Entry, event: EventInput, opts?: UpdateOptions): Promise<Entry> {
    const e = await this.through(() => this.remote.updateEntry(id, mutate, event, opts));
    this.cache.update(e);
    return e;
  }
  async deleteEntry(id: string, event: EventInput): Promise<boolean> {
    const gone = await this.through(() => this.remote.deleteEntry(id, event));
    this.cache.forget(id);
    return gone;
  }
  incrementPhasesAlive(statuses: readonly Status[]): Promise<number> {
    return this.through(() => this.remote.incrementPhasesAlive(statuses));
  }
  findExpired(statuses: readonly Status[], defaultMaxPhases: number, todoMaxPhases: number): Promise<Entry[]> {
    return this.through(() => this.remote.findExpired(statuses, defaultMaxPhases, todoMaxPhases));
  }
  evictionCandidates(limit: number): Promise<Entry[]> {
    return this.through(() => this.remote.evictionCandidates(limit));
  }
  async updateEntryOnce(effectKey: string, id: string, mutate: (current: Entry) => Entry, event: EventInput): Promise<Entry | undefined> {
    const e = await this.through(() => this.remote.updateEntryOnce(effectKey, id, mutate, event));
    if (e) this.cache.update(e);
    return e;
  }
  claimEffect(effectKey: string): Promise<boolean> {
    return this.through(() => this.remote.claimEffect(effectKey));
  }
  enqueueOutcome(id: string, payload: unknown, at: string): Promise<boolean> {
    return this.through(() => this.remote.enqueueOutcome(id, payload, at));
  }
  outcomeEnqueuedAt(id: string): Promise<string | undefined> {
    return this.through(() => this.remote.outcomeEnqueuedAt(id));
  }
  claimNextOutcome(now: string, leaseUntil: string): Promise<QueuedOutcome | undefined> {
    return this.through(() => this.remote.claimNextOutcome(now, leaseUntil));
  }
  saveOutcomeShares(id: string, shares: Record<string, number>): Promise<void> {
    return this.through(() => this.remote.saveOutcomeShares(id, shares));
  }
  completeOutcome(id: string, result: unknown, at: string): Promise<void> {
    return this.through(() => this.remote.completeOutcome(id, result, at));
  }
  failOutcome(id: string, error: string, maxAttempts: number, retryAt?: string): Promise<QueueStatus> {
    return this.through(() => this.remote.failOutcome(id, error, maxAttempts, retryAt));
  }
  queueCounts(): Promise<Partial<Record<QueueStatus, number>>> {
    return this.through(() => this.remote.queueCounts());
  }
  listQueue(status: QueueStatus, limit?: number): Promise<QueuedOutcome[]> {
    return this.through(() => this.remote.listQueue(status, limit));
  }
  enqueueOutbox(id: string, op: string, payload: unknown, at: string): Promise<boolean> {
    return this.through(() => this.remote.enqueueOutbox(id, op, payload, at));
  }
  listOutbox(status: OutboxStatus, limit?: number): Promise<OutboxItem[]> {
    return this.through(() => this.remote.listOutbox(status, limit));
  }
  completeOutbox(id: string): Promise<void> {
    return this.through(() => this.remote.completeOutbox(id));
  }
  failOutbox(id: string, error: string, dead: boolean): Promise<void> {
    return this.through(() => this.remote.failOutbox(id, error, dead));
  }
  outboxCounts(): Promise<{ pending: number; dead: number; oldest?: string }> {
    return this.through(() => this.remote.outboxCounts());
  }
  appendEvent(entryId: string, event: EventInput): Promise<void> {
    return this.through(() => this.remote.appendEvent(entryId, event));
  }
  listEvents(entryId?: string, limit?: number): Promise<EntryEvent[]> {
    return this.through(() => this.remote.listEvents(entryId, limit));
  }
  addRejected(r: Omit<RejectedLesson, "id">, cap: number): Promise<void> {
    return this.through(() => this.remote.addRejected(r, cap));
  }
  listRejected(limit?: number): Promise<RejectedLesson[]> {
    return this.through(() => this.remote.listRejected(limit));
  }
  isRejected(lesson: string): Promise<RejectedLesson | undefined> {
    return this.through(() => this.remote.isRejected(lesson));
  }
  usageBySource(): Promise<SourceUsage[]> {
    return this.through(() => this.remote.usageBySource());
  }
  entryTallies(): Promise<EntryTally[]> {
    return this.through(() => this.remote.entryTallies());
  }
  countRejected(cap: number): Promise<number> {
    return this.through(() => this.remote.countRejected(cap));
  }
  sumUsage(filter?: EntryFilter): Promise<UsageTotals> {
    return this.through(() => this.remote.sumUsage(filter));
  }
  countOutcomes(filter?: { success?: boolean }): Promise<number> {
    return this.through(() => this.remote.countOutcomes(filter));
  }
  promotedTo(ids: readonly string[]): Promise<Map<string, string>> {
    return this.through(() => this.remote.promotedTo(ids));
  }

  promotedOriginals(hiveIds: readonly string[]): Promise<Map<string, string>> {
    return this.through(() => this.remote.promotedOriginals(hiveIds));
  }

  listPromotions(filter: EntryFilter): Promise<Promotion[]> {
    return this.through(() => this.remote.listPromotions(filter));
  }

  listEventsByType(type: EntryEvent["type"], since: string, limit?: number): Promise<EntryEvent[]> {
    return this.through(() => this.remote.listEventsByType(type, since, limit));
  }
  eventCountsByDay(types: readonly EventType[], since: string): Promise<DayCount[]> {
    return this.through(() => this.remote.eventCountsByDay(types, since));
  }
  projectUsage(limit: number): Promise<{ projects: ProjectUsageSummary[]; entries: ProjectUse[] }> {
    return this.through(() => this.remote.projectUsage(limit));
  }
  sourceProjects(limit: number): Promise<SourceProject[]> {
    return this.through(() => this.remote.sourceProjects(limit));
  }
  sourceProjectIds(limit: number): Promise<Array<{ project_id: string; project_name?: string }>> {
    return this.through(() => this.remote.sourceProjectIds(limit));
  }
  writeBatch<T>(fn: () => Promise<T>): Promise<T> {
    return this.remote.writeBatch(fn);
  }

  subscribe(listener: StoreListener): () => void {
    return this.remote.subscribe(listener);
  }
  schemaVersion(): Promise<number> {
    return this.through(() => this.remote.schemaVersion());
  }
  integrityCheck(): Promise<string> {
    return this.through(() => this.remote.integrityCheck());
  }
}
