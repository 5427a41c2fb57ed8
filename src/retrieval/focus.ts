// The `focus` signal: how much of the context's weighted terms a candidate holds, read from its opening text.
import type { Entry } from "../core/entry.js";
import { hasCjk } from "../core/cjk.js";
import { porterStem } from "../core/porter.js";
import type { WeightedTerm } from "./context.js";

/** Only a lesson's opening is read: long memories then cost no more than short lessons. */
export const FOCUS_TEXT_CHARS = 600;

/** What a lesson says and what it applies to. */
function focusText(e: Entry): string {
  const a = e.applicability;
  return [e.title ?? "", e.lesson.slice(0, FOCUS_TEXT_CHARS), e.tags.join(" "), a.triggers.join(" "), a.tech_stack.join(" "), a.file_globs.join(" ")]
    .join(" ")
    .toLowerCase();
}

/** A term's stem: "cookies" → "cooki" finds "cookie"; short and non-alphabetic terms stay whole. */
function stemOf(term: string): string {
  return /^[a-z]+$/.test(term) && term.length > 3 ? porterStem(term) : term;
}

// A word matches a stem it starts with, plus at most this many letters of suffix ("hang" → "hanging").
const MAX_SUFFIX = 4;
/** Words are runs of letters and digits (any script); everything else separates them. */
const WORD_CHAR_RE = /[\p{L}\p{N}]/u;
const WORD_RE = /^[\p{L}\p{N}]+$/u;

/** The code point starting at `i` is a letter or digit; ASCII is decided without the regex. */
function wordCharAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
  return WORD_CHAR_RE.test(String.fromCodePoint(text.codePointAt(i)!));
}

/** The code point ending just before `i` is a letter or digit (a surrogate pair read whole). */
function wordCharBefore(text: string, i: number): boolean {
  const low = text.charCodeAt(i - 1);
  const pair = low >= 0xdc00 && low <= 0xdfff && i >= 2 && (text.charCodeAt(i - 2) & 0xfc00) === 0xd800;
  return wordCharAt(text, pair ? i - 2 : i - 1);
}

/** Where the word running through `from` ends. */
function wordEnd(text: string, from: number): number {
  let j = from;
  while (j < text.length && wordCharAt(text, j)) j += text.codePointAt(j)! > 0xffff ? 2 : 1;
  return j;
}

/** A word of `text` starts with `prefix` and is at most `maxLength` long. */
function wordStarting(text: string, prefix: string, maxLength: number): boolean {
  for (let at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
    if (at > 0 && wordCharBefore(text, at)) continue;
    if (wordEnd(text, at + prefix.length) - at <= maxLength) return true;
  }
  return false;
}

/**
 * The text holds a word that is the stem plus at most MAX_SUFFIX letters (a stem under three letters:
 * the word itself). Read in place with indexOf: splitting every candidate's text into words, per
 * turn, was a tenth of an injection's garbage.
 */
function holds(text: string, stem: string): boolean {
  if (!stem || !WORD_RE.test(stem)) return false;
  if (stem.length < 3) return wordStarting(text, stem, stem.length);
  if (wordStarting(text, stem, stem.length + MAX_SUFFIX)) return true;
  // Porter turns a final y into i ("retry" → "retri"), which no unstemmed word starts with.
  return stem.length > 3 && stem.endsWith("i") && wordStarting(text, `${stem.slice(0, -1)}y`, stem.length + MAX_SUFFIX);
}

/**
 * For each entry in the pool, the weighted share of context terms it contains. A term's worth
 * is its field weight times its rarity within the pool, so a word every candidate shares
 * counts little and a task word counts more than a word of chatter.
 */
export function focusScores(pool: readonly Entry[], terms: readonly WeightedTerm[]): Map<Entry, number> {
  const out = new Map<Entry, number>();
  if (pool.length === 0 || terms.length === 0) return out;
  const stems = terms.map((t) => stemOf(t.term));
  // A CJK term is a character pair (core/cjk.ts) that sits inside a run with no word boundary around it.
  const inRun = stems.map(hasCjk);
  const hits = pool.map((e) => {
    const text = focusText(e);
    return stems.map((st, j) => (inRun[j] ? text.includes(st) : holds(text, st)));
  });
  const worth = terms.map((t, j) => {
    const df = hits.reduce((n, row) => n + (row[j] ? 1 : 0), 0);
    return df === 0 ? 0 : t.weight * Math.log(1 + pool.length / df);
  });
  const total = worth.reduce((a, w) => a + w, 0);
  pool.forEach((e, i) => out.set(e, total === 0 ? 0 : hits[i]!.reduce((a, hit, j) => a + (hit ? worth[j]! : 0), 0) / total));
  return out;
}
