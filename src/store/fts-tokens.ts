// SQLite's `porter unicode61` tokenizer and FTS5's bm25 term score, in JS: what an in-memory ranking needs to rank as the index does.
import { porterStem } from "../core/porter.js";
import { queryTerms } from "../core/text.js";
import { unicode61Tokens } from "./unicode61.js";

/** FTS5's bm25 constants (fts5_aux.c). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;


/** FTS5's porter step applies to tokens of 3 to 64 bytes; the stemmer package is the same Porter algorithm. */
export function stemToken(t: string): string {
  return t.length >= 3 && t.length <= 64 && /^[a-z]+$/.test(t) ? porterStem(t) : t;
}

/** `porter unicode61`: case folded, Latin diacritics removed, split on non-token characters (unicode61.ts), stemmed. */
export function ftsTokens(text: string): string[] {
  return unicode61Tokens(text).map(stemToken);
}

/**
 * The words a person browses by (all must occur), less those the index holds nothing of (a letter of a script
 * newer than SQLite's Unicode tables): such a word would match no row in one store and be ignored by another.
 */
export function browseTerms(text: string): string[] {
  return queryTerms(text, 12).filter((t) => unicode61Tokens(t).length > 0);
}

/** A text's index tokens counted: how often each occurs, and how many there are (its length to bm25). */
export function ftsTermCounts(text: string): { tf: Map<string, number>; length: number } {
  const tokens = ftsTokens(text);
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, length: tokens.length };
}

/** FTS5's idf: log((N − n + ½)/(n + ½)), floored at 1e-6 for a term in most rows. */
export function bm25Idf(rows: number, docs: number): number {
  const raw = Math.log((0.5 + rows - docs) / (0.5 + docs));
  // Not above 0 (NaN included: counts taken at different moments can say more rows hold it than exist).
  return raw > 0 ? raw : 1e-6;
}

/** One term's part of a row's bm25: its idf, its frequency `f` in the row, the row's length against the average. */
export function bm25Term(idf: number, f: number, length: number, avgLength: number): number {
  return (idf * (f * (BM25_K1 + 1))) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength));
}
