// Near-duplicate candidates for a trusted bulk import from an in-memory copy of the SQLite tier's full-text index, ranked as FTS5's bm25 ranks them.
import { fingerprintLesson, handleFor, parseHandle } from "../core/ids.js";
import type { Entry, Status } from "../core/entry.js";
import { searchTextOf, type DerivedColumns } from "../store/entry-columns.js";
import { SqliteStore } from "../store/sqlite-store.js";
import type { SearchHit, Store } from "../store/store.js";
import { chooseQueryTerms, runSearchSteps, TermStatsCache, type SearchStep } from "../store/term-stats.js";
import { bm25Idf, bm25Term, ftsTermCounts, ftsTokens } from "../store/fts-tokens.js";
import { PostingLists } from "./postings.js";

const ENTRY_CACHE = 8192;
/** Query terms whose index token is remembered (see phraseId); past it the memo starts again. */
const PHRASE_CACHE = 20_000;

interface Doc {
  /** Its place in the arrays below and in the postings (slots are dense and reused; seqs may not be). */
  slot: number;
  id: string;
  /** What dedup compares: a candidate's entry is read only when a decision names it (see candidates). */
  lesson: string;
  fingerprint: string;
}

/** A row the search found: its lesson now, its entry on demand (undefined when it has left the database since). */
export interface NeighbourCandidate {
  id: string;
  lesson: string;
  relevance: number;
  entry: () => Promise<Entry | undefined>;
}

/**
 * The tier's rows (read once at the first lookup) and every row this process inserts or updates
 * afterwards (heard through the store's change listener), with FTS5's statistics: row count, total
 * tokens, per-term document frequency. A search takes the same term choice (chooseQueryTerms on
 * these frequencies) and the same steps (runSearchSteps) as SqliteStore.searchEntries, and ranks
 * by the same bm25, so a row meets the candidates the per-row FTS query would have given it —
 * without one query per row (most of a write-path import's cost).
 *
 * Known limitation: rows another process writes during the import are not in this copy, so a
 * near-duplicate added concurrently elsewhere is not merged (an exact copy still is: the
 * fingerprint check and the insert's twin check read the database).
 */
export class BulkNeighbours {
  private readonly docs = new Map<number, Doc>();
  /** Per token, the rows holding it and how often: a ranking walk reads nothing else per row but its length. */
  private readonly postings = new PostingLists();
  /** By slot: the row's seq, status and length, and a score reused by every ranking (typed arrays: ~2× a Map's speed). */
  private slotSeq: number[] = [];
  private slotStatus: Status[] = [];
  private lengths = new Float64Array(1024);
  private scores = new Float64Array(1024);
  /** The slots a ranking met, reused by every ranking (see rank). */
  private touched = new Int32Array(1024);
  private readonly freeSlots: number[] = [];
  private totalTokens = 0;
  private readonly termStats = new TermStatsCache();
  /** Query term → its first index token (undefined when it has none). */
  private readonly phrases = new Map<string, string | undefined>();
  /**
   * Entries as this process last wrote them, so a candidate costs no read: an import's rows are the
   * neighbours of the rows after them. Bounded (~3 KB an entry), the oldest dropped when full.
   */
  private readonly entries = new Map<number, Entry>();
  /**
   * Rows an import holds back to insert with their batch (InsertQueue), under the seq they will be
   * stored as: neighbours of the rows after them already, though not yet in the database. Never
   * evicted (a candidate missing from memory would be read from the database, where it is not yet).
   */
  private readonly staged = new Map<number, Entry>();
  private readonly stagedByFingerprint = new Map<string, Entry[]>();
  /** How many rows (stored or staged) hold each lesson fingerprint: a lesson none holds needs no read (see findByFingerprint). */
  private readonly fingerprints = new Map<string, number>();
  /** SQLite's count of commits by other connections when the rows were read; once it moves, every lookup reads the database. */
  private readonly dataVersion: number;
  private othersWrote = false;
  /** The write transaction (driver.writeTransactions) in which data_version was last read, if one was open. */
  private checkedInTransaction = -1;
  private readonly unsubscribe: () => void;

  private constructor(private readonly store: SqliteStore) {
    this.dataVersion = this.readDataVersion();
    const rows = store.driver.all<{ seq: number; status: Status; search_text: string; id: string; lesson: string; fingerprint: string }>("SELECT seq, status, search_text, id, lesson, fingerprint FROM entries", []);
    for (const r of rows) this.put(r.seq, r.status, r.search_text, r.id, r.lesson, r.fingerprint);
    this.unsubscribe = store.subscribe((change) => {
      if (change.type === "insert" || change.type === "update") {
        const seq = parseHandle(change.entry.handle)?.seq;
        if (seq !== undefined) {
          // A staged row stored under the seq it was staged as is indexed already: only its entry changes hands.
          const adopted = change.type === "insert" && this.staged.get(seq)?.id === change.entry.id;
          this.unstage(seq);
          if (!adopted) this.put(seq, change.entry.lifecycle.status, searchTextOf(change.entry), change.entry.id, change.entry.lesson, fingerprintLesson(change.entry.lesson));
          this.remember(seq, change.entry);
        }
      } else if (change.type === "delete") {
        const seq = parseHandle(change.handle)?.seq;
        if (seq !== undefined) this.remove(seq);
      } else {
        // Counters changed on rows not named here: read them again when next met.
        this.entries.clear();
      }
    });
  }

  /** An index for a SQLite tier; undefined for other stores (PostgreSQL ranks with its own functions). */
  static for(store: Store): BulkNeighbours | undefined {
    return store instanceof SqliteStore ? new BulkNeighbours(store) : undefined;
  }

  close(): void {
    this.unsubscribe();
  }

  /**
   * Indexes `entry`, not yet in the database, as the row it will be under `seq`: searches and
   * findByFingerprint meet it from now on. Its insert (heard from the store) confirms it; settle()
   * forgets what was not stored under the seq it was staged as. `derived`: the entry's fingerprint
   * and search text when the caller has them already (InsertQueue derives them once for the insert too).
   */
  stage(seq: number, entry: Entry, derived?: Pick<DerivedColumns, "fingerprint" | "searchText">): void {
    this.unstage(seq);
    const fingerprint = derived?.fingerprint ?? fingerprintLesson(entry.lesson);
    this.put(seq, entry.lifecycle.status, derived?.searchText ?? searchTextOf(entry), entry.id, entry.lesson, fingerprint);
    this.staged.set(seq, entry);
    const twins = this.stagedByFingerprint.get(fingerprint);
    if (twins) twins.push(entry);
    else this.stagedByFingerprint.set(fingerprint, [entry]);
  }

  /** After the staged rows' insert: a row still staged was not stored as staged (refused as a twin, or another insert took its seq). */
  settle(): void {
    for (const seq of [...this.staged.keys()]) {
      this.unstage(seq);
      this.remove(seq);
    }
  }

  private unstage(seq: number): void {
    const entry = this.staged.get(seq);
    if (!entry) return;
    this.staged.delete(seq);
    // The staged row's doc is still indexed under its seq (put() replaces it only after this).
    const fingerprint = this.docs.get(seq)?.fingerprint ?? fingerprintLesson(entry.lesson);
    const twins = this.stagedByFingerprint.get(fingerprint)?.filter((e) => e !== entry) ?? [];
    if (twins.length) this.stagedByFingerprint.set(fingerprint, twins);
    else this.stagedByFingerprint.delete(fingerprint);
  }

  /**
   * As Store.findByFingerprint, staged rows included (after the stored ones: their seqs are higher).
   * A fingerprint no row of this copy holds is not read from the database (a read a row, most of an
   * import's rows being new) — unless another connection has committed since the copy was made
   * (PRAGMA data_version moved): its rows are not in this copy, so from then on every lookup reads.
   */
  async findByFingerprint(fingerprint: string): Promise<Entry[]> {
    if (!this.othersWrote) this.checkOthersWrote();
    const stored = this.othersWrote || this.fingerprints.has(fingerprint) ? await this.store.findByFingerprint(fingerprint) : [];
    const staged = this.stagedByFingerprint.get(fingerprint);
    return staged ? [...stored, ...staged] : stored;
  }

  /**
   * Notes whether another connection has committed since the rows were read. Inside a write
   * transaction none can, so its first lookup reads data_version for all the others (an import
   * batch's rows: a read per row was ~5 % of an import's main thread).
   */
  private checkOthersWrote(): void {
    const driver = this.store.driver;
    if (driver.inWriteTransaction && driver.writeTransactions === this.checkedInTransaction) return;
    if (this.readDataVersion() !== this.dataVersion) this.othersWrote = true;
    this.checkedInTransaction = driver.inWriteTransaction ? driver.writeTransactions : -1;
  }

  private remember(seq: number, entry: Entry): void {
    // Full: the oldest goes (a Map keeps insertion order); re-setting a key keeps its old place.
    if (this.entries.size >= ENTRY_CACHE && !this.entries.has(seq)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(seq, entry);
  }

  /** Changes only when another connection commits to the file (this one's own commits leave it). */
  private readDataVersion(): number {
    return this.store.driver.get<{ data_version: number }>("PRAGMA data_version", [])?.data_version ?? Number.NaN;
  }

  private remove(seq: number): void {
    this.entries.delete(seq);
    const d = this.docs.get(seq);
    if (!d) return;
    const holders = (this.fingerprints.get(d.fingerprint) ?? 1) - 1;
    if (holders > 0) this.fingerprints.set(d.fingerprint, holders);
    else this.fingerprints.delete(d.fingerprint);
    this.postings.remove(d.slot);
    this.totalTokens -= this.lengths[d.slot]!;
    this.docs.delete(seq);
    this.freeSlots.push(d.slot);
  }

  private put(seq: number, status: Status, text: string, id: string, lesson: string, fingerprint: string): void {
    this.remove(seq);
    this.fingerprints.set(fingerprint, (this.fingerprints.get(fingerprint) ?? 0) + 1);
    const { tf, length } = ftsTermCounts(text);
    const slot = this.freeSlots.pop() ?? this.docs.size;
    this.postings.add(slot, tf);
    this.docs.set(seq, { slot, id, lesson, fingerprint });
    if (slot >= this.lengths.length) {
      const lengths = new Float64Array(this.lengths.length * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
      this.scores = new Float64Array(lengths.length);
    }
    this.slotSeq[slot] = seq;
    this.slotStatus[slot] = status;
    this.lengths[slot] = length;
    this.totalTokens += length;
  }

  /** As SqliteStore.searchEntries(terms, { statuses }, limit), answered from memory. */
  async search(terms: readonly string[], statuses: readonly Status[], limit: number): Promise<SearchHit[]> {
    const out: SearchHit[] = [];
    for (const c of await this.candidates(terms, statuses, limit)) {
      const entry = await c.entry();
      if (entry) out.push({ entry, relevance: c.relevance });
    }
    return out;
  }

  /**
   * The rows search() would return, in its order, without reading their entries: dedup compares
   * lessons, and only the few hits a decision names need the whole entry (reading every candidate's
   * was ~0.1 ms a row once an import outgrew the entry cache).
   */
  async candidates(terms: readonly string[], statuses: readonly Status[], limit: number): Promise<NeighbourCandidate[]> {
    const n = this.docs.size;
    const chosen = chooseQueryTerms(
      (missing) => missing.map((term) => ({ term, doc: this.postings.frequency(term) })).filter((r) => r.doc > 0),
      terms, n, this.termStats,
    );
    const hits = await runSearchSteps(chosen, limit, (step) => this.rank(step, statuses, limit));
    return hits.map(({ entry: doc, seq, relevance }) => ({ id: doc.id, lesson: doc.lesson, relevance, entry: () => this.entryAt(seq) }));
  }

  /** The entry stored (or staged) under `seq`, from memory when this process wrote or read it lately. */
  private async entryAt(seq: number): Promise<Entry | undefined> {
    let entry = this.staged.get(seq) ?? this.entries.get(seq);
    if (!entry) {
      entry = await this.store.getEntry(handleFor(this.store.tier, seq));
      if (entry) this.remember(seq, entry);
    }
    return entry;
  }

  /**
   * The posting list id of a query term's first index token (-1: no row holds it; undefined: it has
   * none), remembered: an import's rows ask for the same words again and again, and tokenising one
   * (case folding, NFD, the stemmer) cost more than walking its list.
   */
  private phraseId(term: string): number | undefined {
    let token = this.phrases.get(term);
    if (token === undefined && !this.phrases.has(term)) {
      if (this.phrases.size >= PHRASE_CACHE) this.phrases.clear();
      this.phrases.set(term, (token = ftsTokens(term)[0]));
    }
    return token === undefined ? undefined : this.postings.idOf(token);
  }

  private rank(step: SearchStep, statuses: readonly Status[], limit: number): Array<{ entry: Doc; seq: number; relevance: number }> {
    // Each query term is one token to FTS5 (terms are WORD_RE words), stemmed by the tokenizer. Two
    // terms with one stem stay two phrases: FTS5 scores each of them.
    const ids: number[] = [];
    for (const t of step.terms) {
      const id = this.phraseId(t);
      if (id !== undefined) ids.push(id);
    }
    if (ids.length === 0) return [];
    const { postings, lengths, scores, slotSeq } = this;
    const nRow = this.docs.size;
    const avgdl = nRow ? this.totalTokens / nRow : 0;
    const idfs = ids.map((id) => bm25Idf(nRow, postings.sizeOf(id)));
    // Scores accumulate phrase by phrase, in query order, as fts5's bm25 sums them (a phrase absent from a row adds 0).
    // The rows met go into a buffer kept between calls: allocating per row met was most of an import's garbage.
    let touched = 0;
    const touch = (slot: number) => {
      if (touched === this.touched.length) {
        const grown = new Int32Array(this.touched.length * 2);
        grown.set(this.touched);
        this.touched = grown;
      }
      this.touched[touched++] = slot;
    };
    if (step.mode === "all" && step.units.some((u) => u.length > 1)) {
      // One term of each unit required (a word and its other spelling, store/spelling-units.ts), scored over
      // every term of every unit in order, as the store's `(a OR b) AND c` is.
      const units = step.units.map((u) => u.map((t) => this.phraseId(t)).filter((id): id is number => id !== undefined));
      if (units.some((u) => u.length === 0)) return [];
      const flat = units.flat();
      const flatIdfs = flat.map((id) => bm25Idf(nRow, postings.sizeOf(id)));
      const size = (u: number[]) => u.reduce((n, id) => n + postings.sizeOf(id), 0);
      const shortest = units.reduce((a, b) => (size(b) < size(a) ? b : a));
      const met = new Set<number>();
      for (const id of shortest) {
        const pairs = postings.pairsOf(id);
        for (let k = 0, end = 2 * postings.sizeOf(id); k < end; k += 2) met.add(pairs[k]!);
      }
      for (const slot of met) {
        if (!units.every((u) => u.some((id) => postings.frequencyIn(slot, id) > 0))) continue;
        let score = 0;
        for (let i = 0; i < flat.length; i++) {
          const f = postings.frequencyIn(slot, flat[i]!);
          if (f > 0) score += bm25Term(flatIdfs[i]!, f, lengths[slot]!, avgdl);
        }
        scores[slot] = score;
        touch(slot);
      }
    } else if (step.mode === "all") {
      // Only the rows holding every term, found from the shortest list: walking the common terms' whole lists cost ~1 ms a row.
      let shortest = ids[0]!;
      for (const id of ids) if (postings.sizeOf(id) < postings.sizeOf(shortest)) shortest = id;
      const pairs = postings.pairsOf(shortest);
      const end = 2 * postings.sizeOf(shortest);
      next: for (let k = 0; k < end; k += 2) {
        const slot = pairs[k]!;
        let score = 0;
        for (let i = 0; i < ids.length; i++) {
          const f = postings.frequencyIn(slot, ids[i]!);
          if (f === 0) continue next;
          score += bm25Term(idfs[i]!, f, lengths[slot]!, avgdl);
        }
        scores[slot] = score;
        touch(slot);
      }
    } else {
      for (let i = 0; i < ids.length; i++) {
        const pairs = postings.pairsOf(ids[i]!);
        const end = 2 * postings.sizeOf(ids[i]!);
        const idf = idfs[i]!;
        for (let k = 0; k < end; k += 2) {
          const slot = pairs[k]!;
          if (scores[slot] === 0) touch(slot);
          scores[slot]! += bm25Term(idf, pairs[k + 1]!, lengths[slot]!, avgdl);
        }
      }
    }
    // ORDER BY rank LIMIT: the best `limit`, equal ranks in rowid order (as FTS5 yields its matches).
    // Kept as numbers while rows come and go (a row kept is displaced ~3 times over), made hits at the end.
    const topRelevance: number[] = [];
    const topSeq: number[] = [];
    const better = (relevance: number, seq: number, at: number) => relevance > topRelevance[at]! || (relevance === topRelevance[at]! && seq < topSeq[at]!);
    for (let k = 0; k < touched; k++) {
      const slot = this.touched[k]!;
      const relevance = scores[slot]!;
      scores[slot] = 0;
      const seq = slotSeq[slot]!;
      if (topSeq.length === limit && !better(relevance, seq, limit - 1)) continue;
      if (!statuses.includes(this.slotStatus[slot]!)) continue;
      let at = Math.min(topSeq.length, limit - 1);
      while (at > 0 && better(relevance, seq, at - 1)) {
        topRelevance[at] = topRelevance[at - 1]!;
        topSeq[at] = topSeq[at - 1]!;
        at--;
      }
      topRelevance[at] = relevance;
      topSeq[at] = seq;
    }
    // A hit's entry is its row's doc: runSearchSteps tells hits apart by entry id, which a doc holds (no string made per hit).
    return topSeq.map((seq, i) => ({ entry: this.docs.get(seq)!, seq, relevance: topRelevance[i]! }));
  }
}
