// A small tier's text relevance worked out with word statistics pooled across tiers, so its lessons compete fairly with a large tier's.
import { searchTextOf } from "../store/entry-columns.js";
import { bm25Idf, bm25Term, ftsTermCounts } from "../store/fts-tokens.js";
import type { SearchHit, Store } from "../store/store.js";
import { stemOf } from "../store/term-stats.js";

/**
 * Below this many rows a tier's own idf says little: FTS5 floors a word in more than half the rows
 * to ~0, so in a hive of one lesson every word scores nothing, and a hive of ten scores a word in one
 * lesson log(9.5/1.5) = 1.8 where a 10,000-row project scores a word in ten 6.9. Relevance is compared
 * across tiers (score.ts divides by the best hit of any tier), so such a hive's lessons lost to
 * project lessons sharing one rare word with the context, whatever they held.
 */
export const SMALL_TIER_ROWS = 200;

export interface TierHits {
  store: Store;
  hits: SearchHit[];
}

/**
 * Each small tier's hits re-scored with FTS5's bm25 over the pooled tiers: row counts added, and per
 * query word the rows holding it added (a small tier's from its hits, which are nearly all its
 * matching rows; a large tier's from its index). Large tiers keep their scores. Nothing changes when
 * no small tier has hits, or when a tier cannot tell its counts without a round trip (a large team
 * hive on PostgreSQL tells those its search just counted, except a word at its count's cap: with such a
 * word in the query a small project tier beside it keeps its own scores).
 */
export async function poolSmallTiers(tiers: readonly TierHits[], terms: readonly string[], optional: ReadonlySet<string> = new Set()): Promise<SearchHit[][]> {
  const unchanged = tiers.map((t) => t.hits);
  if (tiers.length < 2 || !tiers.some((t) => t.hits.length > 0)) return unchanged;
  // Sizes first (no word counts asked: nothing to look up on a turn that has no small tier).
  const sizes = await Promise.all(tiers.map((t) => t.store.termFrequencies?.([])));
  if (sizes.some((c) => c === undefined)) return unchanged;
  const small = tiers.map((t, i) => sizes[i]!.rows < SMALL_TIER_ROWS && t.hits.length > 0);
  if (!small.some(Boolean)) return unchanged;
  const known = await Promise.all(tiers.map(async (t, i) => (small[i] ? sizes[i]! : ((await t.store.termFrequencies!(terms)) ?? sizes[i]!))));
  // An optional word (of a phrase the query builder added beside a word of the query, "web hook" for "webhook")
  // is scored only where every large tier knows its count: a team hive counts only the words its search asked.
  const knownToAll = (st: string) => tiers.every((_, i) => small[i] || known[i]!.docs.has(st));
  const required = new Set(terms.filter((t) => !optional.has(t)).map((t) => stemOf(t.toLowerCase())));
  const stems = [...new Set(terms.map((t) => stemOf(t.toLowerCase())))].filter((st) => required.has(st) || knownToAll(st));

  // Each small tier's hit, its tokens counted once.
  const counted = new Map<SearchHit, { tf: Map<string, number>; length: number }>();
  let rows = 0;
  const docs = new Map<string, number>(stems.map((st) => [st, 0]));
  for (const [i, t] of tiers.entries()) {
    // A size read a moment before this tier's last writes can be below its hits.
    rows += Math.max(known[i]!.rows, t.hits.length);
    if (!small[i]) {
      for (const st of stems) {
        const n = known[i]!.docs.get(st);
        if (n === undefined) return unchanged;
        docs.set(st, docs.get(st)! + n);
      }
      continue;
    }
    for (const h of t.hits) {
      const c = ftsTermCounts(searchTextOf(h.entry));
      counted.set(h, c);
      for (const st of stems) if (c.tf.has(st)) docs.set(st, docs.get(st)! + 1);
    }
  }

  return tiers.map((t, i) => {
    if (!small[i]) return t.hits;
    const avgLength = Math.max(1, t.hits.reduce((a, h) => a + counted.get(h)!.length, 0) / t.hits.length);
    return t.hits.map((h) => {
      const { tf, length } = counted.get(h)!;
      let relevance = 0;
      for (const st of stems) {
        const f = tf.get(st);
        if (f) relevance += bm25Term(bm25Idf(rows, docs.get(st)!), f, length, avgLength);
      }
      return { ...h, relevance };
    });
  });
}
