// Other spellings of a query's words that lessons use for the same thing: a version joined to its name ("node20") split as prose writes it ("Node 20"), a hyphenated word joined ("pre-commit", "precommit"), a word's other number ("indices", "index"), a phrasal verb joined or apart ("set up", "setup"), a compound joined or apart ("lock file", "lockfile").
import { compoundApart, FIRST_WORDS, joinedCompound } from "../core/compound-words.js";
import { otherNumberForms } from "../core/irregular-plurals.js";
import { joinedPhrasal, PARTICLES, phrasalOf } from "../core/phrasal-verbs.js";
import { STOP_WORDS } from "../core/text.js";

/** A name with its version joined on: `node20`, `python3`, `es2022`, `ipv6`. */
const JOINED_RE = /^(\p{L}{2,})(\p{N}+)$/u;
const WORD_RE = /[\p{L}\p{N}]+/gu;

/**
 * The version forms the text does not spell itself: each joined name-and-version split ("node20"
 * → "node", "20"). unicode61 keeps "node20" one token, so without them a query naming "node20"
 * finds no lesson about "Node 20". The other way ("node 20" → "node20") is left out: the joined
 * term is rare, so it takes one of the few terms a large tier's search keeps (term-stats.ts) from a
 * word of the task, and a lesson that writes it joined mostly writes it apart too.
 */
export function versionForms(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.match(WORD_RE) ?? []) {
    const m = JOINED_RE.exec(word);
    if (m) {
      out.add(m[1]!.toLowerCase());
      out.add(m[2]!);
    }
  }
  return [...out].filter((t) => t.length >= 2 && !STOP_WORDS.has(t));
}

/** Letters joined by hyphens: `pre-commit`, `e-mail`, `re-render` (a hyphen between digits or at an edge is not one). */
// Anchored after a non-letter: unanchored, a 100,000-letter word was tried from every position (quadratic; the hostile recall test timed out).
const HYPHENATED_RE = /(?<!\p{L})\p{L}+(?:-\p{L}+)+/gu;

/**
 * Each hyphenated word joined ("pre-commit" → "precommit"): unicode61 splits the hyphenated word into
 * its parts, so a lesson that writes it joined, as many do, was found by neither part. Unlike a
 * version joined on (above), a hyphenated word's joined form is the same word, not a rarer spelling of
 * two; a form the index does not hold rides along in the search's OR at no cost (term-stats.ts).
 */
export function compoundForms(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.match(HYPHENATED_RE) ?? []) out.add(word.replace(/-/g, "").toLowerCase());
  return [...out].filter((t) => t.length >= 3 && !STOP_WORDS.has(t));
}

/** A word of plain letters, the only kind the table of irregular plurals holds. */
const LETTERS_RE = /\p{L}+/gu;

/**
 * Each word's other number where the index stems the two apart ("indices" → "index", "matrix" →
 * "matrices", "children" → "child"; core/irregular-plurals.ts): FTS5's porter stemmer files them under
 * different stems, so a lesson about the index was found by no query about indices. Asked both ways,
 * the query meets a lesson whichever number it writes, with no change to the index.
 */
export function numberForms(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.match(LETTERS_RE) ?? []) for (const form of otherNumberForms(word.toLowerCase())) out.add(form);
  return [...out];
}

/** What may stand between two words written as one (a verb and its particle, a compound's halves): spaces, a hyphen or an underscore ("set up", "set-up", "lock_file"), never a full stop or a comma. */
const WORD_GAP_RE = /^[\s_-]+$/;

/** A table of words written joined or as two (phrasal verbs, compounds). */
interface JoinedOrApart {
  /** The joined word of two lower-case words side by side, if the table has them. */
  join(first: string, second: string): string | undefined;
  /** The two words a lower-case joined word is written apart as, if the table has it. */
  apart(word: string): string | undefined;
}

/** Each word of the text, lower-cased, with the word before it when the two stand side by side (WORD_GAP_RE between). */
function* wordsSideBySide(text: string): Generator<{ word: string; before?: string }> {
  let previous: { word: string; end: number } | undefined;
  for (const m of text.matchAll(WORD_RE)) {
    const word = m[0].toLowerCase();
    yield previous && WORD_GAP_RE.test(text.slice(previous.end, m.index)) ? { word, before: previous.word } : { word };
    previous = { word, end: m.index + m[0].length };
  }
}

/** "first second" for each two words of the text side by side: what the word-join fallback may join (word-joins.ts). */
export function pairsSideBySide(text: string): Set<string> {
  const out = new Set<string>();
  for (const { word, before } of wordsSideBySide(text)) if (before) out.add(`${before} ${word}`);
  return out;
}

/** Each pair of the text's words side by side joined, and each joined word apart, as `table` has them. */
function otherWays(text: string, table: JoinedOrApart): string[] {
  const out = new Set<string>();
  for (const { word, before } of wordsSideBySide(text)) {
    const joined = before ? table.join(before, word) : undefined;
    if (joined) out.add(joined);
    const apart = /^[a-z]+$/.test(word) ? table.apart(word) : undefined;
    if (apart) out.add(apart);
  }
  return [...out];
}

const PHRASAL_VERBS: JoinedOrApart = { join: (verb, particle) => (PARTICLES.has(particle) ? joinedPhrasal(verb, particle) : undefined), apart: phrasalOf };
const COMPOUNDS: JoinedOrApart = { join: (first, second) => (FIRST_WORDS.has(first) ? joinedCompound(first, second) : undefined), apart: compoundApart };

/**
 * A phrasal verb written the other way (core/phrasal-verbs.ts): each verb and particle side by side joined
 * ("set up", "setting up" → "setup"; "timed out" → "timeout"), and each joined word as its phrase ("setup" →
 * "set up", searched as a phrase: the two words side by side in any tense, "setting up", "set-up"). The particle
 * is a stop word the query leaves out, so a query "set up the replica" asked for "set" alone and never met a
 * lesson about the replica setup; the word-join fallback (word-joins.ts) runs only when the search found too
 * little, which a store holding other lessons about the replica never does.
 */
export function phrasalForms(text: string): string[] {
  return otherWays(text, PHRASAL_VERBS);
}

/**
 * A compound written the other way (core/compound-words.ts): two words side by side, apart or hyphenated,
 * joined ("lock file", "lock-files" → "lockfile"), and each joined word apart ("timestamps" → "time stamp",
 * searched as a phrase: the two words side by side, "time stamps", "time-stamp"). The index keeps "lockfile" one
 * token and "lock file" two, so neither spelling met the other; the word-join fallback (word-joins.ts) runs only
 * when the search found too little. Only the table's words bring a variant: "time" alone, or "lock" and "file"
 * in different places, add nothing.
 */
export function compoundSpellings(text: string): string[] {
  return otherWays(text, COMPOUNDS);
}
