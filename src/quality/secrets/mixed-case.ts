// Whether a mixed-case run with few digits was drawn at random (a key) or is words run together in CamelCase (a name in code).
import { shannonEntropy } from "./entropy.js";

/** The pieces of a CamelCase name: an acronym before a capitalised word (`XML` of `XMLHttp`), a word, a run of capitals, digits. */
const PIECE = /[A-Z]{2,}(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/g;

/**
 * A piece that reads as a word or an acronym: a run of capitals (`HTTP`, `X`), or letters with a vowel (y counts), no five
 * consonants in a row, no three vowels in a row and no four consonants at the start (`Retry`, `Attempts`, `Strength`, `Is`).
 */
function isWordPiece(p: string): boolean {
  if (/^\d+$/.test(p)) return true;
  if (/^[A-Z]+$/.test(p)) return true;
  if (p.length < 2) return false;
  const low = p.toLowerCase();
  return /[aeiouy]/.test(low) && !/[^aeiouy]{5}/.test(low) && !/[aeiou]{3}/.test(low) && !/^[^aeiouy]{4}/.test(low);
}

/**
 * Words run together in CamelCase (`MaxRetryAttempts`, `XMLHttpRequestUpload`, `useAuthenticatedFetch`): no lone lower-case letter
 * after the first character (a drawn value nearly always holds one: `xKpLm…`), at most two acronyms, and at most one piece, a fifth of
 * the letters or fewer, that reads as no word. About 2 in 100 drawn 16–19 character values pass as words; names of words all do.
 */
export function isCamelWords(v: string): boolean {
  if (/.[^a-z][a-z](?![a-z])/.test(v)) return false;
  const pieces = v.match(PIECE) ?? [];
  if (pieces.filter((p) => /^[A-Z]{2,}$/.test(p)).length > 2) return false;
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
