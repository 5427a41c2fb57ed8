// A one-letter slip in a rare query word ("kuberentes", "postgers", "dokcer"): the word the index knows one edit away, asked for only when the plain search found too little.
import type { Store } from "../store/store.js";
import { STOP_WORDS } from "../core/text.js";
import { stemOf } from "../store/term-stats.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
/** Shorter words get no edit of every kind: one edit from a short word lie other words ("bread", "break"; "pods", "rods"). */
const MIN_LENGTH = 7;
/**
 * Words from this length up to MIN_LENGTH are mended by the slips that seldom make another word: two
 * neighbours swapped ("reids", "dokcer", "tokne") or a letter typed twice ("reddis").
 */
const SHORT_MIN_LENGTH = 4;
/**
 * A three-letter word is mended only by a swap ("nmp", "gti"), and only to a word at least this many
 * lessons hold: most three-letter words are abbreviations the index need not hold ("pdo" is not the
 * "pod" of one lesson), while a tool's name a slip garbles ("npm", "git") runs through many lessons.
 */
const THREE_LETTER_MIN_DOCS = 2;
/** Nor longer ones: no word is this long, and a run of one letter pasted 100,000 times would ask about ~54 × 100,000 spellings of that length. */
const MAX_LENGTH = 40;
/** A networked tier counts a spelling's lessons up to this: past it, which of two spellings is commoner changes nothing a person would see. */
const COUNT_CAP = 1000;
/** At most this many words of one query are corrected: each asks the index about ~54 × its length spellings. */
const MAX_WORDS = 3;

/**
 * Every spelling one edit from `word` (a–z only): a letter dropped, two neighbours swapped, one letter
 * changed, one added. The slips a typist makes; ~54 × length of them, deduplicated.
 */
export function oneEditAway(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of LETTERS) {
      if (tail) out.add(head + c + tail.slice(1));
      out.add(head + c + tail);
    }
  }
  out.delete(word);
  return [...out];
}

/** The spellings a typist's slip in a short word leaves: two neighbours swapped, or a letter typed twice. */
export function swappedOrDoubled(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] === word[i + 1]) out.add(word.slice(0, i) + word.slice(i + 1));
    else out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  return [...out];
}

/**
 * A short word's other English spelling: "colour" and "color", "honour" and "honor", "grey" and "gray".
 * Longer ones ("behaviour", "initialise") are one edit apart, which a word of seven letters or more is mended by.
 */
export function otherEnglishSpellings(word: string): string[] {
  const out: string[] = [];
  if (word.endsWith("our")) out.push(`${word.slice(0, -3)}or`);
  else if (word.endsWith("or")) out.push(`${word.slice(0, -2)}our`);
  for (const [from, to] of [["ey", "ay"], ["ay", "ey"]] as const) {
    const at = word.indexOf(from);
    if (at >= 0) out.push(word.slice(0, at) + to + word.slice(at + from.length));
  }
  return out;
}

/** The spellings a slip in `word` may have come from: one edit for a long word, a swap, a doubled letter or the other English spelling for a short one, a swap alone for three letters. */
function slipsOf(word: string): string[] {
  if (word.length >= MIN_LENGTH) return oneEditAway(word);
  const slips = swappedOrDoubled(word);
  return word.length >= SHORT_MIN_LENGTH ? [...slips, ...otherEnglishSpellings(word)] : slips.filter((sp) => sp.length === word.length);
}

/**
 * How many lessons of the tiers hold each word: a local tier from its FTS5 vocabulary (one query a tier
 * for all the words), a team hive on PostgreSQL by one GIN lookup a word in one round trip, within a
 * search's wait (its termFrequencies knows only the terms its searches counted, never a spelling).
 * Undefined when no tier can tell.
 */
export function tierDocCounts(stores: readonly Store[]): ((words: readonly string[]) => Promise<(word: string) => number>) | undefined {
  const asked = stores.filter((st) => (st.networked ? st.countTermDocs : st.termFrequencies));
  if (asked.length === 0) return undefined;
  return async (words) => {
    const known = await Promise.all(asked.map((st) => (st.networked ? st.countTermDocs!(words, COUNT_CAP) : st.termFrequencies!(words))));
    return (word) => known.reduce((n, k) => n + (k?.docs.get(stemOf(word)) ?? 0), 0);
  };
}

/**
 * For each plain word of the query (a–z, three letters or more — under seven only its swaps and doubles,
 * three letters only its swaps to a word several lessons hold; at most three) that no tier's index
 * holds, the spelling one edit away that the most lessons hold, if any does (counted by tierDocCounts:
 * a team whose lessons live in its PostgreSQL hive has its slips mended as on a SQLite hive).
 * Costs ~1–3 ms, so recall calls it only as a fallback.
 */
export async function spellingCorrections(stores: readonly Store[], terms: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const words = terms.filter((t) => t.length >= 3 && t.length <= MAX_LENGTH && /^[a-z]+$/.test(t));
  const counts = tierDocCounts(stores);
  if (!counts || words.length === 0) return out;
  const docsOf = await counts(words);
  for (const word of words.filter((w) => docsOf(w) === 0).slice(0, MAX_WORDS)) {
    // A stop word ("with" for "wiht", "the" for "teh") is in nearly every lesson, so it would always win and match them all.
    const spellings = slipsOf(word).filter((sp) => !STOP_WORDS.has(sp));
    const docs = await counts(spellings);
    let best: string | undefined;
    let bestDocs = word.length < SHORT_MIN_LENGTH ? THREE_LETTER_MIN_DOCS - 1 : 0;
    for (const sp of spellings) {
      const n = docs(sp);
      if (n > bestDocs) [best, bestDocs] = [sp, n];
    }
    if (best) out.set(word, best);
  }
  return out;
}
