// Words in order within one sentence, each within a bounded gap of the one before: the injection cues' linear stand-in for long regexes.
import { withNeeds, type Needs } from "./cue-needs.js";

const SENTENCE_END = /[.!?\n]/;

/**
 * Words in order, each within `gaps[i]` characters of the previous one and in the same sentence.
 * One regex with `[^.!?]{0,40}?` gaps and these alternations compiled for over a second (V8 unrolls
 * bounded repeats); small regexes and a bounded look-ahead window cost microseconds, linearly.
 */
export function inOrder(parts: readonly RegExp[], gaps: readonly number[]): ((t: string) => boolean) & { needs: Needs } {
  const follows = (t: string, from: number, k: number): boolean => {
    if (k === parts.length) return true;
    const gap = gaps[k - 1]!;
    const window = t.slice(from, from + gap + 60);
    // Past the window's first sentence end no later word is in the same sentence.
    const end = window.search(SENTENCE_END);
    const re = parts[k]!;
    re.lastIndex = 0;
    for (let m = re.exec(window); m && m.index <= gap; m = re.exec(window)) {
      if (end >= 0 && end < m.index) return false;
      if (follows(t, from + m.index + m[0].length, k + 1)) return true;
    }
    return false;
  };
  // A copy of its own: cues share word lists (SHORT_VERBS), and exec moves a regex's lastIndex.
  const first = new RegExp(parts[0]!.source, parts[0]!.flags);
  // True only where every part matches in a piece of the text: what the injection cues' prefilter reads.
  return withNeeds((t: string) => {
    first.lastIndex = 0;
    for (let m = first.exec(t); m; m = first.exec(t)) {
      if (follows(t, m.index + m[0].length, 1)) return true;
      if (m[0].length === 0) first.lastIndex++; // as matchAll steps past an empty match
    }
    return false;
  }, { regexes: parts });
}
