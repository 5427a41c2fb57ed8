// Canonical form of lesson text before any gate looks at it: same meaning, one spelling of whitespace.
import { shortcuts } from "../core/shortcuts.js";

/**
 * Unicode spaces that render as a plain space; folding them stops `rm\u00A0-rf` slipping past a pattern. Each run
 * becomes one space, and a run that is one plain space already is not matched at all: replacing every space of a
 * pasted megabyte by itself cost V8 more than linear time (1 MB 9 ms, 4 MB 152 ms).
 */
const SPACE_RUN = /[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]{2,}|[\t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * Something the steps below would change: a character outside printable ASCII and `\n` (NFC, `\r`,
 * tabs and Unicode spaces), two spaces, a space beside a line break, three line breaks, space at an end.
 * Most lessons have none, and one scan for them is cheaper than the steps.
 */
const NOT_CANONICAL = /[^\n\x20-\x7e]| [ \n]|\n |\n\n\n|^[ \n]|[ \n]$/;

export function normalizeLessonText(text: string): string {
  if (shortcuts.enabled && !NOT_CANONICAL.test(text)) return text;
  return text
    .normalize("NFC")
    // U+2028/2029 are line breaks to a renderer; treat them as the newline they are.
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(SPACE_RUN, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
