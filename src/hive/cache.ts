// The bounded memory of recent hive answers that injection, recall and advisories fall back on while the hive is unreachable.
import type { Entry } from "../core/entry.js";
import { lexemesOf } from "../store/pg/lexemes.js";
import { searchTextOf } from "../store/entry-columns.js";
import type { EntryFilter, SearchHit } from "../store/store.js";

interface CachedSearch {
  hits: Array<{ id: string; relevance: number }>;
}

/** A remembered entry whose status changed since its search (a quarantine made here) no longer answers that search. */
function admits(filter: EntryFilter, e: Entry): boolean {
  return !filter.statuses || filter.statuses.includes(e.lifecycle.status);
}

/**
 * Entries by id and handle (least recently used dropped first), and the last searches per filter.
 * A search is answered only from results fetched under the same filter, so a fallback can never
 * show an entry the filter (project, agent, scope, status) would have kept out.
 */
export class HiveResultCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * Each cached entry's index lexemes, computed the first time a fallback ranks the entry and kept
   * for the turns after: while the hive answers they are never needed, and working them out for every
   * hit of every search cost each turn its share of CPU and garbage.
   */
  private readonly lexemes = new Map<string, Set<string>>();
  private readonly handles = new Map<string, string>();
  private readonly searches = new Map<string, Map<string, CachedSearch>>();
  private searchCount = 0;

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  remember(e: Entry): void {
    if (this.maxEntries <= 0) return;
    this.entries.delete(e.id);
    this.entries.set(e.id, e);
    this.handles.set(e.handle.toUpperCase(), e.id);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      const gone = this.entries.get(oldest);
      this.entries.delete(oldest);
      this.lexemes.delete(oldest);
      if (gone && this.handles.get(gone.handle.toUpperCase()) === oldest) this.handles.delete(gone.handle.toUpperCase());
    }
  }

  /**
   * A change made through this engine (quarantine, archive, an edit): the remembered copy follows it, so a
   * fallback never answers with a lesson this process just retired. An entry not remembered stays out.
   */
  update(e: Entry): void {
    if (!this.entries.has(e.id)) return;
    this.entries.set(e.id, e);
    this.lexemes.delete(e.id);
  }

  /** Every remembered entry's id and the updated_at it was remembered with: what a sync asks the hive about. */
  versions(): Array<{ id: string; updated_at: string }> {
    return [...this.entries.values()].map((e) => ({ id: e.id, updated_at: e.updated_at }));
  }

  /**
   * A change found by a sync (made by anyone, a teammate included): taken only if the remembered copy is
   * still the one the sync asked about, so a newer copy a search remembered meanwhile is not set back.
   */
  updateIfStill(e: Entry, askedAt: string): void {
    if (this.entries.get(e.id)?.updated_at === askedAt) this.update(e);
  }

  /** A removal made through this engine: the entry is never answered again. */
  forget(id: string): void {
    const e = this.entries.get(id);
    this.entries.delete(id);
    this.lexemes.delete(id);
    if (e && this.handles.get(e.handle.toUpperCase()) === id) this.handles.delete(e.handle.toUpperCase());
  }

  /** By id or handle (H-12); a lookup counts as a use. */
  entry(ref: string): Entry | undefined {
    const id = this.entries.has(ref) ? ref : this.handles.get(ref.toUpperCase());
    const e = id ? this.entries.get(id) : undefined;
    if (e) this.remember(e);
    return e ? structuredClone(e) : undefined;
  }

  rememberSearch(terms: readonly string[], filter: EntryFilter, hits: readonly SearchHit[]): void {
    if (this.maxEntries <= 0) return;
    for (const h of hits) this.remember(h.entry);
    const fkey = JSON.stringify(filter);
    let byTerms = this.searches.get(fkey);
    if (!byTerms) this.searches.set(fkey, (byTerms = new Map()));
    const tkey = JSON.stringify([...terms].sort());
    if (!byTerms.has(tkey)) this.searchCount++;
    byTerms.delete(tkey);
    byTerms.set(tkey, { hits: hits.map((h) => ({ id: h.entry.id, relevance: h.relevance })) });
    // Bounded like the entries: the oldest searches go first.
    while (this.searchCount > this.maxEntries) {
      const [firstFilter, list] = this.searches.entries().next().value as [string, Map<string, CachedSearch>];
      list.delete(list.keys().next().value as string);
      this.searchCount--;
      if (list.size === 0) this.searches.delete(firstFilter);
    }
  }

  /**
   * The same search seen before answers as it did; otherwise entries from earlier searches
   * under the same filter, ranked by how many query words they hold.
   */
  search(terms: readonly string[], filter: EntryFilter, limit: number): SearchHit[] {
    const byTerms = this.searches.get(JSON.stringify(filter));
    if (!byTerms) return [];
    const exact = byTerms.get(JSON.stringify([...terms].sort()));
    if (exact) return this.resolve(exact.hits, filter).slice(0, limit);
    const want = new Set(terms.flatMap(lexemesOf));
    const seen = new Map<string, SearchHit>();
    for (const s of byTerms.values()) {
      for (const h of s.hits) {
        const e = this.entries.get(h.id);
        if (!e || seen.has(h.id) || !admits(filter, e)) continue;
        const have = this.entryLexemes(e);
        let overlap = 0;
        for (const l of want) if (have.has(l)) overlap++;
        if (overlap > 0) seen.set(h.id, { entry: structuredClone(e), relevance: overlap });
      }
    }
    return [...seen.values()].sort((a, b) => b.relevance - a.relevance).slice(0, limit);
  }

  /** Entries whose index lexemes have been worked out (by a fallback search); tests read it. */
  get indexed(): number {
    return this.lexemes.size;
  }

  private entryLexemes(e: Entry): Set<string> {
    let have = this.lexemes.get(e.id);
    if (!have) this.lexemes.set(e.id, (have = new Set(lexemesOf(searchTextOf(e)))));
    return have;
  }

  private resolve(hits: ReadonlyArray<{ id: string; relevance: number }>, filter: EntryFilter): SearchHit[] {
    const out: SearchHit[] = [];
    for (const h of hits) {
      const e = this.entries.get(h.id);
      if (e && admits(filter, e)) out.push({ entry: structuredClone(e), relevance: h.relevance });
    }
    return out;
  }
}
