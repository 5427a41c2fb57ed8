// Whether a mixed-case run with few digits was drawn at random (a key) or is words run together in CamelCase (a name in code).
import { shannonEntropy } from "./entropy.js";

/** The pieces of a CamelCase name: an acronym before a capitalised word (`XML` of `XMLHttp`), a word, a run of capitals, digits. */
const PIECE = /[A-Z]{2,}(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/g;

/** Words and abbreviations of two letters that names in code hold (`getUserById`, `IsEnabled`, `JsonDbPool`); a drawn pair rarely is one. */
const TWO_LETTER_WORDS = new Set(
  "an as at be by do go id if in io is it me my no of ok on op or os so to up us we db js ts py rb fn ip ms px em rx tx vm ui ux qa id hd ai ml".split(" "),
);

/**
 * A piece that reads as a word or an acronym: a run of capitals (`HTTP`, `X`), or letters with a vowel (y counts), no five
 * consonants in a row, no three vowels in a row and no four consonants at the start (`Retry`, `Attempts`, `Strength`, `Is`).
 */
function isWordPiece(p: string): boolean {
  if (/^\d+$/.test(p)) return true;
  if (/^[A-Z]+$/.test(p)) return true;
  if (p.length < 2) return false;
  if (p.length === 2) return TWO_LETTER_WORDS.has(p.toLowerCase());
  const low = p.toLowerCase();
  return /[aeiouy]/.test(low) && !/[^aeiouy]{5}/.test(low) && !/[aeiou]{3}/.test(low) && !/^[^aeiouy]{4}/.test(low);
}

/**
 * Words run together in CamelCase (`MaxRetryAttempts`, `XMLHttpRequestUpload`, `getUserById`): at most two acronyms, a third of the letters or fewer, and at most one
 * piece, a fifth of the letters or fewer, that reads as no word (a drawn value's pieces are mostly pairs no word is: `xKpLm…` is x Kp Lm).
 */
export function isCamelWords(v: string): boolean {
  const pieces = v.match(PIECE) ?? [];
  const acronyms = pieces.filter((p) => /^[A-Z]{2,}$/.test(p));
  // Acronyms are a few of a name's letters (`NSURLSessionDataTask`); a drawn value's capitals fall in runs all through it.
  if (acronyms.length > 2 || acronyms.join("").length * 3 > v.replace(/[^A-Za-z]/g, "").length) return false;
  let odd = 0;
  let oddLetters = 0;
  let letters = 0;
  for (const p of pieces) {
    if (/\d/.test(p)) continue;
    letters += p.length;
    if (!isWordPiece(p)) {
      odd++;
      oddLetters += p.length;
    }
  }
  return odd <= 1 && oddLetters * 5 <= letters;
}

/**
 * Letters of both cases (and at most two digits: with three or more the callers' other checks read it) drawn at random, 16 or more
 * of them: what a provider's short key looks like once named ("the billing api key is QmVzdFRvaWVuQWJj"). Not words in CamelCase.
 */
export function isDrawnMixedCase(v: string): boolean {
  if (!/^[A-Za-z0-9]{16,512}$/.test(v) || !/[a-z]/.test(v) || !/[A-Z]/.test(v)) return false;
  if ((v.match(/\d/g)?.length ?? 0) > 2) return false;
  return shannonEntropy(v) >= 3.5 && !isCamelWords(v);
}
