// Document frequencies of query terms from the FTS5 vocabulary, so common words do not rank every row.
import { isCjkChar } from "../core/cjk.js";
import { toFtsMatchQuery } from "../core/text.js";
import { ftsTokens, stemToken } from "./fts-tokens.js";
import { spellingUnits } from "./spelling-units.js";
import { unicode61Tokens } from "./unicode61.js";
import type { SqliteDriver } from "./driver.js";

/** Document frequencies of index stems, for the stems not cached yet (an FTS5 vocab table, a PostgreSQL GIN count). */
export type FetchFrequencies = (stems: readonly string[]) => ReadonlyArray<{ term: string; doc: number }>;

/**
 * The FTS5 vocabulary of the SQLite index answers df lookups of words with one IN query; a phrase ("set up",
 * "lock file": the other spelling of "setup", "lockfile", retrieval/query-variants.ts) has no row there, so its
 * rows are counted by the index, up to `cap` (past the most rows a kept term may match it is common anyway).
 * Counted as in no lesson, a phrase was left out whenever a large tier's other query words were all common
 * ("all" mode), and "setup the gateway lockfile" never met "Set up the gateway lock file…". Its rarest word's
 * count would bound it, but would also charge it that word's rows of the row budget, displacing the query's own words.
 */
export function sqliteFrequencies(db: SqliteDriver, cap = Number.MAX_SAFE_INTEGER): FetchFrequencies {
  return (missing) => {
    const phrases = missing.filter(isPhrase);
    const words = missing.filter((t) => !isPhrase(t));
    // One IN query: fts5vocab answers it from the term index, far cheaper than one query per term.
    // One statement text for any number of stems (json_each), so a new count prepares nothing.
    const rows = words.length ? db.all<{ term: string; doc: number }>("SELECT term, doc FROM temp.cairn_vocab WHERE term IN (SELECT value FROM json_each(?))", [JSON.stringify(words)]) : [];
    for (const term of phrases) {
      const match = toFtsMatchQuery([term], { prefix: false });
      const doc = match ? (db.get<{ n: number }>("SELECT count(*) AS n FROM (SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? LIMIT ?)", [match, cap])?.n ?? 0) : 0;
      rows.push({ term, doc });
    }
    return rows;
  };
}

/** A term of several index tokens, which the index matches as a phrase (stemOf leaves it whole). */
function isPhrase(term: string): boolean {
  return unicode61Tokens(term).length > 1;
}

/**
 * The index's stem of a query term: the one token `porter unicode61` makes of it (folded as the index folds
 * "Café" to "cafe", then stemmed), so its count is found in the vocabulary; a term of several tokens as it is.
 */
export function stemOf(term: string): string {
  if (/^[a-z]+$/.test(term)) return stemToken(term);
  const tokens = ftsTokens(term);
  return tokens.length === 1 ? tokens[0]! : term;
}

export interface TermChoice {
  /** Terms worth matching, rarest first. */
  keep: string[];
  /**
   * "any" ORs the terms. "all" when even the rarest terms are common: requiring them together
   * ranks only their intersection instead of tens of thousands of rows.
   */
  mode: "any" | "all";
  /**
   * In "all" mode, what is required: one term of each unit (a word and its other spellings, spelling-units.ts),
   * rarest unit first; `keep` holds their terms.
   */
  units?: string[][];
  /**
   * When words the tier holds were dropped (too common, or past the row budget): every present word's
   * unit, rarest first, required together by a first step. Ranked on the kept words alone, a lesson holding every
   * word of the query placed among the hundreds holding the kept ones by their length.
   */
  everyWord?: string[][];
  /** Terms dropped because most documents contain them. */
  dropped: string[];
}

/** A term found in more than this share of entries carries almost no ranking signal (BM25 idf ≈ 0). */
export const COMMON_TERM_SHARE = 0.1;
/**
 * The most documents a kept term may match: a share of the tier, but growing only with √N, so
 * ranking cost (linear in matched rows) grows ~3× from 10k to 100k entries rather than 10×.
 */
export function maxUsefulDocFrequency(totalEntries: number): number {
  return Math.max(50, Math.min(totalEntries * COMMON_TERM_SHARE, 10 * Math.sqrt(totalEntries)));
}

/**
 * How many matching rows the kept terms may add up to. Rare terms carry the ranking signal; the
 * common tail only multiplies the rows to score (measured: ~18 ms → ~4 ms per tier at 10k).
 */
export function matchedRowBudget(totalEntries: number): number {
  return Math.max(800, 4 * Math.sqrt(totalEntries));
}
/**
 * One CJK character held by more than this share of a tier's lessons (and by more than BROAD_CHAR_MIN_DOCS)
 * reads as a stop word beside the query's other words: "的", "是", "の" sit in nearly every sentence,
 * and one such character would pull in every lesson written in that language, whatever the query is about.
 */
const BROAD_CHAR_SHARE = COMMON_TERM_SHARE;
/** Below this many lessons a character is not broad, whatever its share: in a tier of twenty, "锁" in three is a topic. */
const BROAD_CHAR_MIN_DOCS = 5;

/** Always keep at least this many terms, however common, so a query never shrinks to one word. */
const MIN_TERMS = 2;

/** Below this many entries every term is kept: pruning only pays on large tiers. */
const MIN_ENTRIES_TO_PRUNE = 500;
const MAX_TERMS = 16;
/**
 * When every term is common, up to this many are required together: their intersection is what
 * tells one lesson among many similar ones apart. searchSteps backs off to the two rarest.
 */
const MAX_ALL_TERMS = 8;

/**
 * A query of at most this many words the tier holds has them all required together by a first step (TermChoice.everyWord):
 * past it (an injected context, a pasted paragraph) no lesson holds them all, and the step only cost time.
 */
const MAX_EVERY_WORD_UNITS = 6;

/**
 * Document frequencies change slowly, so they are cached per store and thrown away once the
 * tier's size moves by 5% (or 50 entries): a stale df only shifts which terms are pruned, and the
 * pruning limits are shares of the tier. At 1% a bulk import refetched every stem every 50 rows.
 */
const DF_DRIFT_SHARE = 0.05;

export class TermStatsCache {
  private readonly df = new Map<string, number>();
  private sizeAtFill = -1;

  /** Stems whose frequency is not cached (after dropping a cache the tier has outgrown). */
  missing(stems: readonly string[], totalEntries: number): string[] {
    if (Math.abs(totalEntries - this.sizeAtFill) > Math.max(50, totalEntries * DF_DRIFT_SHARE) || this.df.size > 20_000) {
      this.df.clear();
      this.sizeAtFill = totalEntries;
    }
    return [...new Set(stems.filter((st) => !this.df.has(st)))];
  }

  /** Records fetched frequencies; a stem not among `rows` is in no document. */
  fill(missing: readonly string[], rows: ReadonlyArray<{ term: string; doc: number }>): void {
    for (const st of missing) this.df.set(st, 0);
    for (const r of rows) this.df.set(r.term, r.doc);
  }

  /** The cached frequency of one stem, if any, with no side effect. */
  peek(stem: string): number | undefined {
    return this.df.get(stem);
  }

  lookup(fetch: FetchFrequencies, stems: readonly string[], totalEntries: number): Map<string, number> {
    const missing = this.missing(stems, totalEntries);
    if (missing.length) this.fill(missing, fetch(missing));
    return this.df;
  }
}

/**
 * The index stores porter stems (tokenize='porter unicode61'); the same stemmer finds each
 * term's row in the fts5vocab table. Only terms found in the index compete for the row budget:
 * a term in no document matches nothing, so it must never displace one that matches something.
 * Such terms still ride along in "any" mode (free in an OR, and a guard against a stemming
 * difference between our stem and the tokenizer), never in "all" mode, where they would empty it.
 */
export function chooseQueryTerms(
  fetch: FetchFrequencies,
  terms: readonly string[],
  totalEntries: number,
  cache = new TermStatsCache(),
  /** How the store keys a term's frequency (the FTS5 stem by default). */
  keyOf: (term: string) => string = stemOf,
): TermChoice {
  const unique = [...new Set(terms.map((t) => t.toLowerCase()))].filter(Boolean);
  // A query with one CJK character has its counts read even on a small tier: one broad character there is the whole tier's language.
  const small = totalEntries < MIN_ENTRIES_TO_PRUNE;
  if (small && !unique.some(isCjkChar)) return { keep: unique.slice(0, MAX_TERMS * 2), dropped: [], mode: "any" };
  const limit = maxUsefulDocFrequency(totalEntries);
  const stems = unique.map(keyOf);
  const df = cache.lookup(fetch, stems, totalEntries);
  const all = unique.map((t, i) => ({ t, df: df.get(stems[i]!) ?? 0 }));
  const broadAt = Math.max(BROAD_CHAR_MIN_DOCS, totalEntries * BROAD_CHAR_SHARE);
  const isBroad = (x: { t: string; df: number }) => x.df > broadAt && isCjkChar(x.t);
  // Beside a word the tier holds, a broad character is a stop word; a query of nothing else still asks for it.
  const broad = all.some((x) => x.df > 0 && !isBroad(x)) ? all.filter(isBroad) : [];
  const scored = all.filter((x) => !broad.includes(x));
  if (small) return { keep: scored.map((x) => x.t).slice(0, MAX_TERMS * 2), dropped: broad.map((x) => x.t), mode: "any" };
  const present = scored.filter((x) => x.df > 0).sort((a, b) => a.df - b.df);
  const absent = scored.filter((x) => x.df === 0).map((x) => x.t);
  // Rarest first until the rows they match reach the budget: ranking cost is linear in matched rows.
  const budget = matchedRowBudget(totalEntries);
  const keep: string[] = [];
  let rows = 0;
  for (const x of present) {
    if (x.df > limit || keep.length >= MAX_TERMS) break;
    if (keep.length >= MIN_TERMS && rows + x.df > budget) break;
    keep.push(x.t);
    rows += x.df;
  }
  let mode: TermChoice["mode"] = rows > budget && keep.length > 1 ? "all" : "any";
  let units: string[][] | undefined;
  if (mode === "all" || (keep.length === 0 && present.length > 0)) {
    // Required together, a word and its other spelling ("setup", "set up") are one unit, either of them met: each
    // required apart excluded the lessons writing only the other. Every indexed term common: the rarest few units.
    const dfOf = new Map(present.map((x) => [x.t, x.df] as const));
    const required = spellingUnits(present.map((x) => x.t))
      .filter((u) => mode !== "all" || u.some((t) => keep.includes(t)))
      .map((terms) => ({ terms, df: terms.reduce((n, t) => n + dfOf.get(t)!, 0) }))
      .sort((a, b) => a.df - b.df)
      .slice(0, mode === "all" ? MAX_TERMS : MAX_ALL_TERMS);
    keep.splice(0, keep.length, ...new Set(required.flatMap((u) => u.terms)));
    mode = required.length > 1 ? "all" : "any";
    if (mode === "all") units = required.map((u) => u.terms);
  }
  let everyWord: string[][] | undefined;
  if (keep.length > 0 && present.some((x) => x.df <= limit && !keep.includes(x.t))) {
    const dfOf = new Map(present.map((x) => [x.t, x.df] as const));
    const units = spellingUnits(present.map((x) => x.t)).map((terms) => ({ terms, df: terms.reduce((n, t) => n + dfOf.get(t)!, 0) }));
    // Only words the budget left out, not those too common to rank (an AND with one of those is the step's cost, for little).
    const every = units.filter((u) => u.df <= limit || u.terms.some((t) => keep.includes(t))).sort((a, b) => a.df - b.df);
    const adds = every.some((u) => !u.terms.some((t) => keep.includes(t)));
    if (adds && every.length > 1 && units.length <= MAX_EVERY_WORD_UNITS) everyWord = every.map((u) => u.terms);
  }
  // In an OR a term of no document costs nothing, and it may match under the tokenizer's own stem.
  if (mode === "any") keep.push(...absent.slice(0, Math.max(0, MAX_TERMS - keep.length)));
  return {
    keep, dropped: all.filter((x) => !keep.includes(x.t)).sort((a, b) => a.df - b.df).map((x) => x.t), mode,
    ...(units ? { units } : {}), ...(everyWord ? { everyWord } : {}),
  };
}

/** One full-text query of a search: its terms and how they combine. */
export interface SearchStep {
  terms: string[];
  mode: TermChoice["mode"];
  /** In "all" mode, one term of each is required (TermChoice.units); `terms` holds them all, in order. */
  units: string[][];
  /** Run only when the steps before found nothing (an OR of common terms ranks many rows). */
  onlyIfEmpty: boolean;
}

/**
 * The queries a search runs in turn, each adding entries not found yet until the limit is reached:
 * an AND of common terms can be narrower than the limit or empty (words that never meet), and
 * coming back empty while entries match some of the words is the one outcome never wanted.
 */
export function searchSteps(chosen: TermChoice): SearchStep[] {
  if (chosen.mode === "any") {
    const any: SearchStep = { terms: chosen.keep, mode: "any", units: chosen.keep.map((t) => [t]), onlyIfEmpty: false };
    const every = chosen.everyWord;
    return every ? [{ terms: [...new Set(every.flat())], mode: "all", units: every, onlyIfEmpty: false }, any] : [any];
  }
  const all = chosen.units ?? chosen.keep.map((t) => [t]);
  const termsOf = (units: string[][]) => [...new Set(units.flat())];
  // Halving the required units (dropping the commonest) bounds the steps at log2(MAX_ALL_TERMS) + 3.
  const steps: SearchStep[] = [];
  const every = chosen.everyWord;
  if (every && every.length > all.length) steps.push({ terms: termsOf(every), mode: "all", units: every, onlyIfEmpty: false });
  for (let n = all.length; n >= 2; n = n > 2 ? Math.max(2, Math.ceil(n / 2)) : 0) {
    steps.push({ terms: termsOf(all.slice(0, n)), mode: "all", units: all.slice(0, n), onlyIfEmpty: false });
  }
  const last = termsOf(all.slice(0, 2));
  steps.push({ terms: last, mode: "any", units: last.map((t) => [t]), onlyIfEmpty: true });
  return steps;
}

/**
 * Runs the steps of a search in turn (see searchSteps). A later step's rows rank below every row
 * found before (their scores scaled down): an entry holding more of the required words comes first.
 */
export async function runSearchSteps<H extends { entry: { id: string }; relevance: number }>(
  chosen: TermChoice, limit: number, run: (step: SearchStep) => Promise<H[]> | H[],
): Promise<H[]> {
  const out: H[] = [];
  const seen = new Set<string>();
  for (const step of searchSteps(chosen)) {
    if (out.length >= limit || (step.onlyIfEmpty && out.length > 0)) break;
    const fresh = (await run(step)).filter((h) => !seen.has(h.entry.id));
    const floor = out.length ? Math.min(...out.map((h) => h.relevance)) : Infinity;
    const top = Math.max(0, ...fresh.map((h) => h.relevance));
    const scale = top > floor ? Math.max(0, floor) / top : 1;
    for (const h of fresh.slice(0, limit - out.length)) {
      seen.add(h.entry.id);
      out.push(scale === 1 ? h : { ...h, relevance: h.relevance * scale });
    }
  }
  return out;
}

export const CREATE_VOCAB_SQL = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.cairn_vocab USING fts5vocab(main, entries_fts, row)";
