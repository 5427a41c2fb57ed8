// Document frequencies of query terms from the FTS5 vocabulary, so common words do not rank every row.
import { stemmer } from "stemmer";
import type { SqliteDriver } from "./driver.js";

export interface TermChoice {
  /** Terms worth matching, rarest first. */
  keep: string[];
  /** Terms dropped because most documents contain them. */
  dropped: string[];
}

/** A term found in more than this share of entries carries almost no ranking signal (BM25 idf ≈ 0). */
export const COMMON_TERM_SHARE = 0.1;
/** Below this many entries every term is kept: pruning only pays on large tiers. */
const MIN_ENTRIES_TO_PRUNE = 500;
const MAX_TERMS = 16;

/**
 * The index stores porter stems (tokenize='porter unicode61'); the same stemmer finds each
 * term's row in the fts5vocab table. A term whose stem is not found is kept: a stemming
 * difference must never drop a useful term.
 */
export function chooseQueryTerms(db: SqliteDriver, terms: readonly string[], totalEntries: number): TermChoice {
  const unique = [...new Set(terms.map((t) => t.toLowerCase()))].filter(Boolean);
  if (totalEntries < MIN_ENTRIES_TO_PRUNE) return { keep: unique.slice(0, MAX_TERMS * 2), dropped: [] };
  const limit = Math.max(50, totalEntries * COMMON_TERM_SHARE);
  const withDf = unique.map((t) => {
    const stem = /^[a-z]+$/.test(t) ? stemmer(t) : t;
    const row = db.get<{ doc: number }>("SELECT doc FROM temp.cairn_vocab WHERE term = ?", [stem]);
    return { t, df: row?.doc ?? 0 };
  });
  const sorted = withDf.sort((a, b) => a.df - b.df);
  const keep = sorted.filter((x) => x.df <= limit).slice(0, MAX_TERMS).map((x) => x.t);
  // When every term is common, the two rarest still say what the query is about.
  if (keep.length === 0) return { keep: sorted.slice(0, 2).map((x) => x.t), dropped: sorted.slice(2).map((x) => x.t) };
  return { keep, dropped: sorted.filter((x) => !keep.includes(x.t)).map((x) => x.t) };
}

export const CREATE_VOCAB_SQL = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.cairn_vocab USING fts5vocab(main, entries_fts, row)";
