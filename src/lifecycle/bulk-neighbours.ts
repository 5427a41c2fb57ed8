// Near-duplicate candidates for a trusted bulk import from an in-memory copy of the SQLite tier's full-text index, ranked as FTS5's bm25 ranks them.
import { handleFor, parseHandle } from "../core/ids.js";
import type { Entry, Status } from "../core/entry.js";
import { searchTextOf } from "../store/entry-columns.js";
import { SqliteStore } from "../store/sqlite-store.js";
import type { SearchHit, Store } from "../store/store.js";
import { chooseQueryTerms, runSearchSteps, TermStatsCache, type SearchStep } from "../store/term-stats.js";
import { stemmer } from "stemmer";

/** FTS5's bm25 constants (fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;
/** unicode61's token characters (letters, numbers, private use), as core/text.ts's WORD_RE. */
const TOKEN_RE = /[\p{L}\p{N}\p{Co}]+/gu;
const ENTRY_CACHE = 8192;

/** FTS5's porter step applies to tokens of 3 to 64 bytes; the stemmer package is the same Porter algorithm. */
function stemToken(t: string): string {
  return t.length >= 3 && t.length <= 64 && /^[a-z]+$/.test(t) ? stemmer(t) : t;
}

/** `porter unicode61`: case folded, Latin diacritics removed, split on non-token characters, stemmed. */
export function ftsTokens(text: string): string[] {
  const folded = text.toLowerCase().normalize("NFD").replace(/\p{Mn}/gu, "");
  return (folded.match(TOKEN_RE) ?? []).map(stemToken);
}

interface Doc {
  seq: number;
  status: Status;
  length: number;
  tf: Map<string, number>;
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
  private readonly postings = new Map<string, Set<number>>();
  private totalTokens = 0;
  private readonly termStats = new TermStatsCache();
  /**
   * Entries as this process last wrote them, so a candidate costs no read: an import's rows are the
   * neighbours of the rows after them. Bounded (~3 KB an entry), dropped wholesale when full.
   */
  private readonly entries = new Map<number, Entry>();
  private readonly unsubscribe: () => void;

  private constructor(private readonly store: SqliteStore) {
    const rows = store.driver.all<{ seq: number; status: Status; search_text: string }>("SELECT seq, status, search_text FROM entries", []);
    for (const r of rows) this.put(r.seq, r.status, r.search_text);
    this.unsubscribe = store.subscribe((change) => {
      if (change.type === "insert" || change.type === "update") {
        const seq = parseHandle(change.entry.handle)?.seq;
        if (seq !== undefined) {
          this.put(seq, change.entry.lifecycle.status, searchTextOf(change.entry));
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

  private remember(seq: number, entry: Entry): void {
    if (this.entries.size >= ENTRY_CACHE && !this.entries.has(seq)) this.entries.clear();
    this.entries.set(seq, entry);
  }

  private remove(seq: number): void {
    this.entries.delete(seq);
    const d = this.docs.get(seq);
    if (!d) return;
    for (const t of d.tf.keys()) this.postings.get(t)?.delete(seq);
    this.totalTokens -= d.length;
    this.docs.delete(seq);
  }

  private put(seq: number, status: Status, text: string): void {
    this.remove(seq);
    const tokens = ftsTokens(text);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = new Set()));
      p.add(seq);
    }
    this.docs.set(seq, { seq, status, length: tokens.length, tf });
    this.totalTokens += tokens.length;
  }

  /** As SqliteStore.searchEntries(terms, { statuses }, limit), answered from memory. */
  async search(terms: readonly string[], statuses: readonly Status[], limit: number): Promise<SearchHit[]> {
    const n = this.docs.size;
    const chosen = chooseQueryTerms(
      (missing) => missing.map((term) => ({ term, doc: this.postings.get(term)?.size ?? 0 })).filter((r) => r.doc > 0),
      terms, n, this.termStats,
    );
    const hits = await runSearchSteps(chosen, limit, (step) => this.rank(step, statuses, limit));
    if (hits.length === 0) return [];
    const out: SearchHit[] = [];
    for (const h of hits) {
      let entry = this.entries.get(h.seq);
      if (!entry) {
        entry = await this.store.getEntry(handleFor(this.store.tier, h.seq));
        if (entry) this.remember(h.seq, entry);
      }
      if (entry) out.push({ entry, relevance: h.relevance });
    }
    return out;
  }

  private rank(step: SearchStep, statuses: readonly Status[], limit: number): Array<{ entry: { id: string }; seq: number; relevance: number }> {
    // Each query term is one token to FTS5 (terms are WORD_RE words), stemmed by the tokenizer. Two
    // terms with one stem stay two phrases: FTS5 scores each of them.
    const phrases = step.terms.flatMap((t) => ftsTokens(t).slice(0, 1));
    if (phrases.length === 0) return [];
    const lists = phrases.map((p) => this.postings.get(p) ?? new Set<number>());
    const nRow = this.docs.size;
    const avgdl = nRow ? this.totalTokens / nRow : 0;
    // Scores accumulate phrase by phrase, in query order, as fts5's bm25 sums them (a phrase absent from a row adds 0).
    const scores = new Map<number, number>();
    let allowed: Set<number> | undefined;
    if (step.mode === "all") {
      const [first, ...rest] = [...lists].sort((x, y) => x.size - y.size);
      allowed = new Set<number>();
      for (const seq of first!) if (rest.every((l) => l.has(seq))) allowed.add(seq);
    }
    const idfs = lists.map((list) => {
      const raw = Math.log((0.5 + nRow - list.size) / (0.5 + list.size));
      return raw <= 0 ? 1e-6 : raw;
    });
    const term = (i: number, d: Doc, f: number) => (idfs[i]! * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * d.length) / avgdl));
    if (allowed) {
      // Only the rows holding every term: walking the common terms' whole lists cost ~1 ms a row.
      for (const seq of allowed) {
        const d = this.docs.get(seq)!;
        let score = 0;
        for (let i = 0; i < phrases.length; i++) score += term(i, d, d.tf.get(phrases[i]!)!);
        scores.set(seq, score);
      }
    } else {
      for (let i = 0; i < phrases.length; i++) {
        const phrase = phrases[i]!;
        for (const seq of lists[i]!) {
          const d = this.docs.get(seq)!;
          scores.set(seq, (scores.get(seq) ?? 0) + term(i, d, d.tf.get(phrase)!));
        }
      }
    }
    // ORDER BY rank LIMIT: the best `limit`, equal ranks in rowid order (as FTS5 yields its matches).
    const top: Array<{ entry: { id: string }; seq: number; relevance: number }> = [];
    const better = (x: { seq: number; relevance: number }, y: { seq: number; relevance: number }) => x.relevance > y.relevance || (x.relevance === y.relevance && x.seq < y.seq);
    for (const [seq, relevance] of scores) {
      if (top.length === limit && !better({ seq, relevance }, top[limit - 1]!)) continue;
      if (!statuses.includes(this.docs.get(seq)!.status)) continue;
      const hit = { entry: { id: `seq:${seq}` }, seq, relevance };
      let at = top.length;
      while (at > 0 && better(hit, top[at - 1]!)) at--;
      top.splice(at, 0, hit);
      if (top.length > limit) top.pop();
    }
    return top;
  }
}
