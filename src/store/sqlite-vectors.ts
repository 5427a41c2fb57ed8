// A SQLite tier's vectors: stored per model space, searched through each space's in-memory index (vector-index.ts), hits filtered in rank order.
import type { Entry, Tier } from "../core/entry.js";
import { parseHandle } from "../core/ids.js";
import type { SqliteDriver, SqlValue } from "./driver.js";
import { ENTRY_ROW_COLUMNS } from "./entry-columns.js";
import { filterSql } from "./sqlite-filter.js";
import type { EntryRow } from "./sqlite-store.js";
import type { EntryFilter, UnreadVectorHit, VectorCount, VectorHit, VectorSearchOptions, VectorSpace } from "./store.js";
import type { RankedShortlist } from "./ranked-shortlist.js";
import { quantize, VectorIndex } from "./vector-index.js";

/**
 * A vector search re-ranks the nearest by sign code: 16 × `limit`, at least 256, and at least a 50th of
 * the space (1-bit codes blur as the space grows). Measured on the bench corpus, top 40 of the
 * re-ranked shortlist against the exact top 40: 97 % shared at 10k (640 re-ranked), 98 % at 100k (2,000);
 * the in-memory search of a 100k space then costs ~3 ms CPU, and a 100k + 100k recall ~32 ms CPU p50
 * against ~120 ms with an exact int8 scan (bench, shared machine at load ~13).
 */
function vectorShortlist(limit: number, vectors: number): number {
  return Math.max(limit * 16, 256, Math.ceil(vectors / 50));
}

/** How the store reads whole entries: rows with their JSON parsed, and the entry a row stands for. */
export interface EntryReader {
  rows(sql: string, params: SqlValue[]): EntryRow[];
  toEntry(row: EntryRow): Entry;
  /** Compiles an entry read ahead of its first use. */
  prepare(sql: string): void;
}

/**
 * The vector side of SqliteStore (its Store methods of the same names call these). Each space's
 * index is loaded at its first search and tops itself up from the table before every search.
 */
export class SqliteVectors {
  private readonly indexes = new Map<string, VectorIndex>();

  constructor(
    private readonly driver: SqliteDriver,
    private readonly tier: Tier,
    private readonly entries: EntryReader,
  ) {}

  async putVectors(space: VectorSpace, rows: readonly { id: string; vector: Float32Array }[]): Promise<void> {
    for (const r of rows) {
      if (r.vector.length !== space.dimension) throw new RangeError(`A ${r.vector.length}-dimension vector cannot be stored in a ${space.dimension}-dimension space.`);
    }
    if (rows.length === 0) return;
    this.driver.transaction(() => this.putVectorsInTransaction(space, rows));
  }

  /** putVectors inside the caller's transaction (the store's warm-up rehearses it). */
  putVectorsInTransaction(space: VectorSpace, rows: readonly { id: string; vector: Float32Array }[]): void {
    for (const r of rows) {
      const { scale, q } = quantize(r.vector);
      // Delete, then insert: the count triggers see both (a REPLACE's delete fires none), and the
      // new row takes a new id, so in-memory indexes pick the change up.
      this.driver.run("DELETE FROM entry_vectors WHERE model = ? AND dim = ? AND seq = (SELECT seq FROM entries WHERE id = ?)", [space.modelId, space.dimension, r.id]);
      this.driver.run(
        "INSERT INTO entry_vectors(seq, model, dim, scale, vec) SELECT seq, ?, ?, ?, ? FROM entries WHERE id = ?",
        [space.modelId, space.dimension, scale, Buffer.from(q.buffer, q.byteOffset, q.byteLength), r.id],
      );
    }
  }

  private vectorIndex(space: VectorSpace): VectorIndex {
    const key = `${space.modelId}\u0000${space.dimension}`;
    let idx = this.indexes.get(key);
    if (!idx) this.indexes.set(key, (idx = new VectorIndex(this.driver, space.modelId, space.dimension)));
    idx.refresh();
    return idx;
  }

  async searchVectors(space: VectorSpace, query: Float32Array, filter: EntryFilter, limit: number): Promise<VectorHit[]>;
  async searchVectors(space: VectorSpace, query: Float32Array, filter: EntryFilter, limit: number, opts: VectorSearchOptions): Promise<Array<VectorHit | UnreadVectorHit>>;
  async searchVectors(space: VectorSpace, query: Float32Array, filter: EntryFilter, limit: number, opts: VectorSearchOptions = {}): Promise<Array<VectorHit | UnreadVectorHit>> {
    if (query.length !== space.dimension) throw new RangeError(`A ${query.length}-dimension query cannot search a ${space.dimension}-dimension space.`);
    if (limit <= 0) return [];
    const f = filterSql(filter);
    // Prepared before anything can return early: a warm-up on a tier with no vectors yet still readies them.
    const reads = this.vectorHitReads(f.where);
    const idx = this.vectorIndex(space);
    if (idx.size === 0) return [];
    const read = { known: this.knownBySeq(opts.known ?? []), entriesFrom: opts.entriesFrom ?? -Infinity, readAtMost: opts.readAtMost ?? Infinity, ...reads };
    const shortlist = vectorShortlist(limit, idx.size);
    // The shortlist re-ranked exactly, then the filter in rank order: a chunk a little over `limit`
    // first (most entries pass a recall's filter), then the rest of the shortlist.
    const ranked = idx.ranked(query, shortlist);
    const hits = this.passingInOrder(ranked, f, limit, read);
    if (hits.length >= limit || ranked.length >= idx.size) return hits;
    // A filter that passes few of the nearest: ask SQL which entries pass, and shortlist only those,
    // so the filter applies before the top-k and never empties it.
    const pass = new Set(this.driver.all<{ seq: number }>(`SELECT e.seq AS seq FROM entries e WHERE ${f.where}`, f.params).map((r) => r.seq));
    return this.passingInOrder(idx.ranked(query, shortlist, (seq) => pass.has(seq)), f, limit, read);
  }

  /**
   * The two reads of vector hits under a filter (`where`): whole entries, or only which seqs pass. Both
   * are prepared at the filter's first search, whichever its hits need, so a warm-up whose hits the text
   * search had read already (or that never reached the cut) leaves the first real call nothing to compile.
   * json_each drives the join (CROSS JOIN fixes the order, so rows come in rank order and LIMIT keeps the
   * nearest): each seq is one rowid lookup. With `seq IN (json_each)` SQLite walks the status index over
   * every row instead (6× slower at 10k).
   */
  private vectorHitReads(where: string): { wholeSql: string; seqSql: string } {
    const sql = `FROM json_each(?) j CROSS JOIN entries e ON e.seq = j.value WHERE ${where} LIMIT ?`;
    const reads = { wholeSql: `SELECT ${ENTRY_ROW_COLUMNS} ${sql}`, seqSql: `SELECT e.seq AS seq ${sql}` };
    this.entries.prepare(reads.wholeSql);
    this.driver.prepare(reads.seqSql);
    return reads;
  }

  /** Entries of this tier already read in this call, by seq (their handle's number). */
  private knownBySeq(known: readonly Entry[]): Map<number, Entry> {
    const bySeq = new Map<number, Entry>();
    for (const e of known) {
      const h = parseHandle(e.handle);
      if (h && h.tier === this.tier) bySeq.set(h.seq, e);
    }
    return bySeq;
  }

  /**
   * The first `limit` of `ranked` whose entries pass the filter, fetched by seq (no scan), in rank order.
   * Read in chunks sized by the share that passed so far: on the bench a recall's filter passes ~3 in 4
   * (38 to 68 of the first 68), and a chunk that fell short used to read the whole rest of the
   * shortlist (600 rows at 10k, 2,000 at 100k) for the few entries missing.
   *
   * A `known` entry (read by this call's text search, with this filter) passed already and is not read
   * again. Of the others, as many are read as the chunk's first `wanted` places hold: the number needed
   * if they all pass (when some fail, SQL reads on past them, so one statement mostly suffices). The
   * walk stops at the last row read (an entry beyond it may pass unread); the next chunk starts there.
   * Below `entriesFrom`, and past the first `readAtMost` unknown hits above it, only whether an entry
   * passes is asked (its seq, not its row's JSON): on the retrieval eval's real lessons ~43 of a recall's
   * ~52 vector hits not found by words sit below it.
   */
  private passingInOrder(
    ranked: RankedShortlist, f: { where: string; params: SqlValue[] }, limit: number,
    read: { known: ReadonlyMap<number, Entry>; entriesFrom: number; readAtMost: number; wholeSql: string; seqSql: string },
  ): Array<VectorHit | UnreadVectorHit> {
    const { known, entriesFrom, readAtMost, wholeSql, seqSql } = read;
    const hits: Array<VectorHit | UnreadVectorHit> = [];
    const n = ranked.length;
    // Ranked best first: entries are wanted for the places before `cut` (from entriesFrom up, and no more
    // than readAtMost of them to read), only a yes or no after it.
    let cut = 0;
    for (let toRead = 0; cut < n && ranked.similarity(cut) >= entriesFrom; cut++) {
      if (!known.has(ranked.seq(cut)) && toRead++ === readAtMost) break;
    }
    let walked = 0;
    for (let from = 0, chunk = Math.ceil(limit * 1.5) + 8; from < n && hits.length < limit; ) {
      // A chunk never straddles the cut: its rows are read whole or not at all.
      const to = Math.min(n, from < cut ? Math.min(from + chunk, cut) : from + chunk);
      const whole = from < cut;
      const wanted = limit - hits.length;
      const unread: number[] = [];
      // As many as the chunk's first `wanted` places hold (all that is needed if every one passes); none
      // when those are all known, as they fill the rest.
      let take = 0;
      for (let i = from; i < to; i++) {
        const seq = ranked.seq(i);
        if (known.has(seq)) continue;
        unread.push(seq);
        if (i < from + wanted) take++;
      }
      const params = [JSON.stringify(unread), ...f.params, take];
      const rows: Array<{ seq: number | string; row?: EntryRow }> =
        take === 0 ? [] : whole ? this.entries.rows(wholeSql, params).map((row) => ({ seq: row.seq, row })) : this.driver.all<{ seq: number }>(seqSql, params);
      const bySeq = new Map(rows.map((r) => [Number(r.seq), r] as const));
      const lastRead = take > 0 && rows.length === take ? Number(rows[rows.length - 1]!.seq) : undefined;
      let end = to - from;
      for (let i = from; i < to && hits.length < limit; i++) {
        const seq = ranked.seq(i);
        const similarity = ranked.similarity(i);
        const entry = known.get(seq);
        const passed = entry ? undefined : bySeq.get(seq);
        if (entry) hits.push({ entry, similarity });
        else if (passed?.row) hits.push({ entry: this.entries.toEntry(passed.row), similarity });
        else if (passed) hits.push({ tier: this.tier, similarity });
        end = i + 1 - from;
        if (seq === lastRead) break;
      }
      from += end;
      walked += end;
      // The next chunk: what is still missing at the share passed so far, with room to spare.
      const passShare = Math.max(hits.length, 1) / walked;
      chunk = Math.ceil(((limit - hits.length) / passShare) * 1.5) + 8;
    }
    return hits;
  }

  async entriesWithoutVector(space: VectorSpace, limit: number, afterSeq = 0): Promise<{ seq: number; entry: Entry }[]> {
    return this.entries.rows(
      `SELECT ${ENTRY_ROW_COLUMNS} FROM entries e
        WHERE e.seq > ? AND NOT EXISTS (SELECT 1 FROM entry_vectors v WHERE v.model = ? AND v.dim = ? AND v.seq = e.seq)
        ORDER BY e.seq LIMIT ?`,
      [afterSeq, space.modelId, space.dimension, limit],
    ).map((r) => ({ seq: r.seq, entry: this.entries.toEntry(r) }));
  }

  async vectorCounts(): Promise<VectorCount[]> {
    return this.driver.all<VectorCount>(
      "SELECT model AS modelId, dim AS dimension, entries FROM entry_vector_counts WHERE entries > 0 ORDER BY entries DESC",
      [],
    );
  }
}
