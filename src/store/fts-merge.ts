// Idle merging of the full-text index's segments: every query term seeks each segment, so fewer make every search cheaper, with the same answers.
import { betweenCalls } from "./between-calls.js";
import type { SqliteDriver } from "./driver.js";

/**
 * FTS5 writes each commit as a new segment and merges a level only once it holds four: a tier built
 * one lesson at a time (or the bench's 10k corpus) carries 8–10 segments, and each query term is
 * looked up in each (its doclist, then again for bm25's document count). Merged until no level holds
 * two (usermerge 2), a 10k tier's search costs ~20% less CPU (3.97 → 3.24 ms per search, the bench's
 * queries, interleaved). The rows found, their bm25 and their order do not depend on the segments.
 */
const USERMERGE = 2;
/** Leaf pages one step may merge: ~5–10 ms at 10k entries on a slow machine, short enough to sit between two calls. */
export const MERGE_PAGES_PER_STEP = 16;
/** A first step runs this long after the open or the write that asked for it: between calls, not inside one. */
const IDLE_MS = 1000;
/** The next step of a merge under way, or the retry of one that found the lock taken. */
const NEXT_STEP_MS = 200;
/** Steps in a row that could not run (lock taken, or failing) before waiting for the next write to ask again. */
const MAX_MISSES = 5;

/** One bounded merge step of `table` (an FTS5 table) in the caller's write transaction; true when more work remains. */
export function mergeSearchSegments(driver: SqliteDriver, table: string, pages = MERGE_PAGES_PER_STEP): boolean {
  const usermerge = driver.get<{ v: number }>(`SELECT v FROM ${table}_config WHERE k = 'usermerge'`)?.v;
  // Written into the SQL: FTS5 takes only an integer here, and a bound JS number may arrive as a real.
  if (usermerge !== USERMERGE) driver.run(`INSERT INTO ${table}(${table}, rank) VALUES ('usermerge', ${USERMERGE})`);
  const before = driver.get<{ n: number }>("SELECT total_changes() AS n")!.n;
  driver.run(`INSERT INTO ${table}(${table}, rank) VALUES ('merge', ${Math.floor(pages)})`);
  // FTS5's own measure of progress: a step that merged nothing changes at most the structure record.
  return driver.get<{ n: number }>("SELECT total_changes() AS n")!.n - before >= 2;
}

/** Runs merge steps of one store's index in idle moments, after its open and after writes that change the index. */
export class SearchSegmentMerger {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private misses = 0;
  /** Steps run so far (tests read it). */
  steps = 0;

  constructor(
    private readonly driver: SqliteDriver,
    private readonly table: string,
  ) {}

  schedule(delay = IDLE_MS): void {
    if (this.timer || this.closed || this.driver.readOnly || this.driver.file === ":memory:") return;
    this.timer = setTimeout(() => betweenCalls(() => this.step()), delay);
    this.timer.unref?.();
  }

  private step(): void {
    this.timer = undefined;
    if (this.closed) return;
    this.steps++;
    // Lock taken by another writer: try again a little later rather than wait on it.
    const done = this.driver.upkeep(() => this.driver.writeIfFree(() => mergeSearchSegments(this.driver, this.table)));
    this.misses = done ? 0 : this.misses + 1;
    if (done ? done.value : this.misses < MAX_MISSES) this.schedule(NEXT_STEP_MS);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
