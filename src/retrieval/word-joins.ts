// A word written joined that lessons write apart ("precommit", "pre-commit"; "lockfile", "lock file"), and two words written apart that lessons write joined: asked for only when the plain search found too little.
import type { Store } from "../store/store.js";
import { tierDocCounts } from "./spelling.js";

/** Each part of a split is at least this long ("re" + "render"); a lone letter is not a word to find. */
const MIN_PART = 2;
/** Words longer than this are not split: no compound is, and each split asks the index about two words. */
const MAX_SPLIT_LENGTH = 30;
/** At most this many words of one query are split, and this many neighbouring pairs joined. */
const MAX_WORDS = 3;

export interface WordJoins {
  /** A query word no tier holds → the two words the tiers hold it as, as a phrase ("precommit" → "pre commit"). */
  split: Map<string, string>;
  /** Two neighbouring query words joined, as the tiers hold them ("lock", "file" → "lockfile"). */
  joined: string[];
}

/**
 * The other way lessons write the query's compounds. A plain word (a–z) no tier holds is split where
 * both halves are held, the split whose rarer half the most lessons hold winning; it is searched as a
 * phrase, so the halves must stand side by side ("pre-commit", "pre commit"). Two neighbouring plain
 * words are joined where the tiers hold the joined word and the context writes them side by side
 * (`sideBySide`, query-variants.ts pairsSideBySide): "lock file" is "lockfile", "lock the file" is not, though
 * the query's terms ("lock", "file") are neighbours once the stop word is gone. Counted as spelling.ts counts (tierDocCounts), on the
 * local tiers only: a phrase is searched as FTS5 reads one, which a team hive on PostgreSQL has no test of here.
 */
export async function wordJoins(stores: readonly Store[], terms: readonly string[], sideBySide: ReadonlySet<string>): Promise<WordJoins> {
  const out: WordJoins = { split: new Map(), joined: [] };
  const counts = tierDocCounts(stores.filter((st) => !st.networked));
  const plain = terms.filter((t) => /^[a-z]+$/.test(t));
  if (!counts || plain.length === 0) return out;
  const pairs = terms
    .slice(1)
    .map((t, i) => [terms[i]!, t] as const)
    .filter(([a, b]) => /^[a-z]+$/.test(a) && /^[a-z]+$/.test(b) && sideBySide.has(`${a} ${b}`))
    .slice(0, MAX_WORDS);
  const docsOf = await counts([...plain, ...pairs.map(([a, b]) => a + b)]);
  out.joined = pairs.map(([a, b]) => a + b).filter((j) => docsOf(j) > 0 && !terms.includes(j));
  const unknown = plain.filter((w) => w.length >= 2 * MIN_PART && w.length <= MAX_SPLIT_LENGTH && docsOf(w) === 0).slice(0, MAX_WORDS);
  for (const word of unknown) {
    const splits: Array<[string, string]> = [];
    for (let i = MIN_PART; i + MIN_PART <= word.length; i++) splits.push([word.slice(0, i), word.slice(i)]);
    const halves = await counts(splits.flat());
    let best: string | undefined;
    let bestDocs = 0;
    for (const [a, b] of splits) {
      const n = Math.min(halves(a), halves(b));
      if (n > bestDocs) [best, bestDocs] = [`${a} ${b}`, n];
    }
    if (best) out.split.set(word, best);
  }
  return out;
}
