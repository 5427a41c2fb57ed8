// The `focus` signal: how much of the context's weighted terms a candidate holds, read from its opening text.
import type { Entry } from "../core/entry.js";
import { stemmer } from "stemmer";
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
  return /^[a-z]+$/.test(term) && term.length > 3 ? stemmer(term) : term;
}

const WORD_SPLIT_RE = /[^\p{L}\p{N}]+/u;
// A word matches a stem it starts with, plus at most this many letters of suffix ("hang" → "hanging").
const MAX_SUFFIX = 4;

/** The text's words grouped by their first three letters, so each term looks at a handful of words. */
function wordIndex(text: string): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const w of text.split(WORD_SPLIT_RE)) {
    if (!w) continue;
    const key = w.slice(0, 3);
    const list = index.get(key);
    if (!list) index.set(key, [w]);
    else if (!list.includes(w)) list.push(w);
  }
  return index;
}

function holds(index: Map<string, string[]>, stem: string): boolean {
  const words = index.get(stem.slice(0, 3));
  if (!words) return false;
  if (stem.length < 3) return words.includes(stem);
  // Porter turns a final y into i ("retry" → "retri"), which no unstemmed word starts with.
  const alt = stem.endsWith("i") ? `${stem.slice(0, -1)}y` : undefined;
  return words.some((w) => (w.startsWith(stem) || (alt !== undefined && w.startsWith(alt))) && w.length - stem.length <= MAX_SUFFIX);
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
  const hits = pool.map((e) => {
    const index = wordIndex(focusText(e));
    return stems.map((st) => holds(index, st));
  });
  const worth = terms.map((t, j) => {
    const df = hits.reduce((n, row) => n + (row[j] ? 1 : 0), 0);
    return df === 0 ? 0 : t.weight * Math.log(1 + pool.length / df);
  });
  const total = worth.reduce((a, w) => a + w, 0);
  pool.forEach((e, i) => out.set(e, total === 0 ? 0 : hits[i]!.reduce((a, hit, j) => a + (hit ? worth[j]! : 0), 0) / total));
  return out;
}
