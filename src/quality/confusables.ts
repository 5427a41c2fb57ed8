// Non-ASCII look-alikes read as the ASCII letters they are drawn like (UTS #39 prototypes): the injection gates' folding, and the check on people's names.
import { createRequire } from "node:module";

/**
 * Non-ASCII look-alikes to their ASCII prototype, case kept (the table maps capital `І` to `l`, so a
 * capital is looked up in lower case and raised again). Used by the advice rules, which are case-sensitive.
 */
// Loaded on the first non-ASCII character: its 6,000-entry table costs ~25 ms to load, and most lessons are ASCII.
let unhomoglyphFn: ((s: string) => string) | undefined;
function unhomoglyph(s: string): string {
  unhomoglyphFn ??= createRequire(import.meta.url)("unhomoglyph") as (s: string) => string;
  return unhomoglyphFn(s);
}

/** Curly, low and angled double quotes, and the double prime: the table turns most into two apostrophes (''), which no `"` in a rule matches. */
const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/;

export function foldConfusables(text: string): string {
  return text
    .replace(/[^\x00-\x7f]/gu, (ch) => {
      if (DOUBLE_QUOTES.test(ch)) return '"';
      // An accented Latin letter is that letter (the table sends ö to an Arabic letter it resembles).
      if (/^[A-Za-z]\p{M}+$/u.test(ch.normalize("NFD"))) return ch;
      const lower = ch.toLowerCase();
      if (lower === ch) return asLatinLetter(unhomoglyph(ch));
      const mapped = asLatinLetter(unhomoglyph(lower));
      return mapped === lower ? ch : mapped.toUpperCase();
    })
    .replace(/[\u2018\u2019\u02bc]/g, "'");
}

/**
 * The table's prototypes for Cyrillic lower case are small capitals and IPA letters (т → ᴛ, м → ʍ,
 * к → ĸ, н → ʜ, в → ʙ): to a reader, and to the rules, they are t, m, k, h, b.
 */
const SMALL_CAPITALS: Record<string, string> = {
  "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ĸ": "k", "ʟ": "l",
  "ᴍ": "m", "ʍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
};
function asLatinLetter(mapped: string): string {
  return SMALL_CAPITALS[mapped] ?? mapped;
}
