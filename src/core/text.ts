// Code-aware tokenisation shared by the full-text index, query building and similarity checks.
import { cjkForms, cjkIndexTokens, hasCjk, isCjkChar } from "./cjk.js";
import { indexedSingulars } from "./irregular-plurals.js";
import { shortcuts } from "./shortcuts.js";

/**
 * English stop words plus filler common in lessons and task descriptions. Negations and
 * advice words (not, never, always, avoid…) are here too: they carry no topic, and the
 * similarity module judges polarity on its own.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren arent as at be because been " +
    "before being below between both but by can cannot cant could couldn couldnt did didn didnt do does " +
    "doesn doesnt doing don dont down during each etc even ever every few for from further had hadn " +
    "hadnt has hasn hasnt have haven havent having he her here hers herself him himself his how i if in " +
    "into is isn isnt it its itself just let lets ll may me might more most much must mustn mustnt my " +
    "myself need needs no nor not now of off often on once one only or other our ours ourselves out over " +
    "own per quite rather re really same shall shan she should shouldn shouldnt so some such than that " +
    "thats the their theirs them themselves then there these they this those through thus to too " +
    "under until up upon us very via was wasn wasnt we were weren werent what when where whether which " +
    "while who whom why will with within without won wont would wouldn wouldnt yet you your yours " +
    "yourself yourselves e g eg ie vs " +
    // filler: words that appear in most lessons and so rank nothing
    "always never avoid make sure ensure please basically actually simply just instead thing things " +
    "stuff way ways like using use used uses get gets got able important note remember good better best " +
    "properly correctly"
  ).split(/\s+/),
);

// unicode61 separates on everything that is not a letter, number or private-use char.
const WORD_RE = /[\p{L}\p{N}\p{Co}]+/gu;
// Chunks that may hold one identifier; quotes, brackets, commas and the like end a chunk.
const CHUNK_RE = /[^\s"'`()[\]{}<>,;!?=|*&^~+]+/gu;
const EDGE_PUNCT_RE = /^[^\p{L}\p{N}@$#]+|[^\p{L}\p{N}]+$/gu;
const INNER_SEP_RE = /[^\p{L}\p{N}]+/u;
const CAMEL_RE = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+\p{N}*|\p{Lu}+\p{N}*|\p{N}+|\p{L}+/gu;
const HAS_CAMEL_RE = /[\p{Ll}\p{N}]\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
// Numbers and versions (3.5, v1.2.3, 18.x) are values, not identifiers.
const NUMERIC_RE = /^v?[\p{N}.,:x*-]+$/iu;
const CONTROL_RE = /[\u0000-\u001f\u007f]/g;

/** Lowercased sub-words of one word at camelCase / PascalCase / acronym boundaries; [] if none. */
export function camelParts(word: string): string[] {
  if (!HAS_CAMEL_RE.test(word)) return [];
  const parts = word.match(CAMEL_RE) ?? [];
  return parts.length > 1 ? parts.map((p) => p.toLowerCase()) : [];
}

/**
 * The extra sub-tokens of code-ish tokens (camelCase, snake_case, kebab-case, paths, dotted
 * names, `@scope/pkg`), lowercased, distinct, in order of first appearance. Plain words and
 * pure numbers/versions yield nothing.
 */
export function splitIdentifiers(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (t: string) => {
    if (t && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  };
  for (const raw of text.match(CHUNK_RE) ?? []) {
    if (shortcuts.enabled && isPlainWordChunk(raw)) continue;
    const chunk = raw.replace(EDGE_PUNCT_RE, "");
    if (!chunk || NUMERIC_RE.test(chunk)) continue;
    // A plain word (no separator inside, no case change) yields nothing: most chunks of a lesson, told apart without building its pieces.
    if (!INNER_SEP_RE.test(chunk) && !HAS_CAMEL_RE.test(chunk)) continue;
    const pieces = chunk.split(INNER_SEP_RE).filter(Boolean);
    if (pieces.length === 0) continue;
    const camel = pieces.map(camelParts);
    if (pieces.length === 1 && camel[0]!.length === 0) continue;
    pieces.forEach((piece, i) => {
      const sub = camel[i]!;
      if (sub.length > 0) sub.forEach(push);
      else push(piece.toLowerCase());
    });
  }
  return out;
}

const isLower = (c: number) => c >= 97 && c <= 122;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isAsciiAlnum = (c: number) => isLower(c) || isUpper(c) || (c >= 48 && c <= 57);

/**
 * An ASCII chunk that is one word of lowercase letters, perhaps capitalised, between punctuation that
 * is not `@`, `$` or `#` before it: the edges come off, no separator or case change is left inside,
 * so splitIdentifiers would skip it. Most chunks of a lesson; read by character codes, no regex.
 */
function isPlainWordChunk(raw: string): boolean {
  let i = 0;
  const n = raw.length;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c > 127 || c === 64 || c === 36 || c === 35) return false;
    if (isAsciiAlnum(c)) break;
  }
  if (i < n && isUpper(raw.charCodeAt(i))) i++;
  while (i < n && isLower(raw.charCodeAt(i))) i++;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c > 127 || isAsciiAlnum(c)) return false;
  }
  return true;
}

const WORD_CHAR_RE = /^[\p{L}\p{N}\p{Co}]$/u;
const WORD_ONLY_RE = /^[\p{L}\p{N}\p{Co}]+$/u;
function isWordCodePoint(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  return cp < 128 ? isAsciiAlnum(cp) : WORD_CHAR_RE.test(String.fromCodePoint(cp));
}

/**
 * Whether `word` (letters and numbers only) is one of the words WORD_RE finds in `text`: an occurrence
 * with no word character either side. Cheaper than the set of all the text's words, for a handful of sub-tokens.
 */
function hasWholeWord(text: string, word: string): boolean {
  // Lowercasing can leave a mark in a sub-token ("İ" is "i" and U+0307): no word holds it.
  if (!WORD_ONLY_RE.test(word)) return false;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!isWordCodePoint(codePointBefore(text, at)) && !isWordCodePoint(text.codePointAt(at + word.length))) return true;
  }
  return false;
}

/** The code point that ends just before `at` (a surrogate pair read whole). */
function codePointBefore(text: string, at: number): number | undefined {
  if (at === 0) return undefined;
  const unit = text.charCodeAt(at - 1);
  const high = at >= 2 ? text.charCodeAt(at - 2) : 0;
  return unit >= 0xdc00 && unit <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? text.codePointAt(at - 2) : unit;
}

/** Membership in the set of the text's words, built once (what hasWholeWord answers without the set). */
function wordSetOf(text: string): (t: string) => boolean {
  const words = new Set(text.match(WORD_RE) ?? []);
  return (t) => words.has(t);
}

/**
 * Text for an FTS5 column tokenised `porter unicode61`: the parts joined by newlines, then a
 * line of the sub-tokens unicode61 would not produce by itself (camelCase pieces mostly), so
 * `getUserById` is found by `user`. Sub-tokens already present as words are not repeated, to
 * keep term frequencies (and so bm25) honest.
 */
export function buildSearchText(parts: string[]): string {
  const text = parts.map((p) => p.trim()).filter(Boolean).join("\n");
  // A CJK run is one unicode61 token: its character pairs go on a line of their own (core/cjk.ts).
  const cjk = cjkIndexTokens(text);
  const split = splitIdentifiers(text);
  const lower = text.toLowerCase();
  const isWord = split.length === 0 ? () => true : shortcuts.enabled ? (t: string) => hasWholeWord(lower, t) : wordSetOf(lower);
  const extra = split.filter((t) => !isWord(t));
  // "indices" is indexed as "indic", the stem of "indicate": its singular beside it is what "index" finds (core/irregular-plurals.ts),
  // in a name too ("getIndices" → "get indices"), unless the text or a name's pieces hold it already.
  const singulars = indexedSingulars([text, ...extra].join(" ")).filter((w) => !hasWholeWord(lower, w) && !extra.includes(w));
  const added = [...cjk, ...singulars];
  const withAdded = added.length > 0 ? `${text}\n${added.join(" ")}` : text;
  return extra.length > 0 ? `${withAdded}\n${extra.join(" ")}` : withAdded;
}

/**
 * Distinct meaningful terms of a free-text query, in order of first appearance: each word
 * (a camelCase identifier stays whole, since the index holds it whole too) followed by its
 * camelCase pieces; stop words, filler and one-letter terms (not one CJK character) removed; at most `max`.
 */
export function queryTerms(text: string, max = 32): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (t: string) => {
    // One CJK character is a word (the index holds each one, core/cjk.ts); one Latin letter is not.
    if (out.length < max && (t.length >= 2 || isCjkChar(t)) && !STOP_WORDS.has(t) && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  };
  const original = text.replace(/(\p{L})['’](\p{L})/gu, "$1$2").match(WORD_RE) ?? [];
  // One test of the whole text: a query without CJK never looks at its words' scripts.
  const cjk = hasCjk(text);
  for (const word of original) {
    if (out.length >= max) break;
    if (cjk && hasCjk(word)) {
      // The index holds a CJK run as its character pairs (core/cjk.ts), so the query asks for those.
      for (const form of cjkForms(word)) push(form);
      continue;
    }
    push(word.toLowerCase());
    for (const part of camelParts(word)) push(part);
  }
  return out;
}

/** Prefix matching starts at this length: shorter prefixes match too much to rank. */
export const PREFIX_MIN_LENGTH = 4;

/** Whether a (trimmed) search word matches as a prefix: PREFIX_MIN_LENGTH letters or digits, nothing else. Every store decides alike. */
export function isPrefixTerm(term: string): boolean {
  return term.length >= PREFIX_MIN_LENGTH && /^[\p{L}\p{N}]+$/u.test(term);
}

/**
 * An FTS5 MATCH expression OR-ing the terms. Every term is a double-quoted string (inner
 * quotes doubled, control characters dropped), so no input can form FTS5 operators, column
 * filters or NEAR groups. Terms of PREFIX_MIN_LENGTH or more letters/digits get a trailing `*`
 * so "auth" also finds "authorization"; pass `{ prefix: false }` for exact tokens only.
 * Returns "" when there is nothing to search for (the caller must skip the MATCH).
 */
export function toFtsMatchQuery(terms: string[], opts: { prefix?: boolean } = {}): string {
  const prefix = opts.prefix ?? true;
  const out: string[] = [];
  for (const raw of terms) {
    const term = raw.replace(CONTROL_RE, " ").trim();
    // A term with no letter or digit tokenises to nothing and FTS5 rejects `""*`.
    if (!/[\p{L}\p{N}]/u.test(term)) continue;
    const quoted = `"${term.replace(/"/g, '""')}"`;
    const star = prefix && isPrefixTerm(term);
    out.push(star ? `${quoted}*` : quoted);
  }
  return out.join(" OR ");
}

