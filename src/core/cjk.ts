// Chinese, Japanese and Korean words inside a run of characters with no spaces: the overlapping character pairs (bigrams) the index and queries share.

/**
 * Characters of scripts written without spaces between words (Han, kana, Hangul), and the kana
 * length mark and the Han repetition mark, which sit inside such words. unicode61 keeps a whole run
 * of them one token ("数据库连接池超时"), so no word inside it could be found.
 */
const CJK_CHAR_RE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u30fc\u3005]/u;
/** The same class, for walking a word's code points one at a time. */
const CJK_CP_RE = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u30fc\u3005]$/u;

/**
 * The same characters as a bracket class for SQLite's GLOB and PostgreSQL's regular expressions
 * (both compare code points), the Basic Multilingual Plane's blocks only: what a migration uses to
 * find the rows worth reindexing without reading the others into JavaScript.
 */
export const CJK_SQL_CLASS = "[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]";

const CJK_CHARS_RE = new RegExp(CJK_CHAR_RE.source, "gu");

/** How many CJK characters the text holds (the vagueness check weighs a lesson written in them by this). */
export function countCjkChars(text: string): number {
  return text.match(CJK_CHARS_RE)?.length ?? 0;
}

/** Whether the text holds any CJK character: one test, so Latin text pays nothing more. */
export function hasCjk(text: string): boolean {
  return CJK_CHAR_RE.test(text);
}

/**
 * The tokens the index holds for one word (a unicode61 token: letters and numbers) that contains CJK
 * characters: each CJK run as its overlapping pairs ("连接池" → "连接", "接池"; a run of one or two
 * characters as itself), and each other run (Latin written against the CJK with no space, as
 * "Redis连接池" often is) as itself, lower-cased. Pairs, not a dictionary's words: the same text
 * always gives the same pairs, whatever the runtime's ICU data, so an index built by one version
 * (or by Bun) is matched by queries of another, and a word is found wherever a run holds it.
 * A word of at most two CJK characters and nothing else is its own token: [word].
 */
export function cjkForms(word: string): string[] {
  const runs: Array<{ cjk: boolean; chars: string[] }> = [];
  for (const ch of word) {
    const cjk = CJK_CP_RE.test(ch);
    const last = runs[runs.length - 1];
    if (last && last.cjk === cjk) last.chars.push(ch);
    else runs.push({ cjk, chars: [ch] });
  }
  if (runs.length === 1 && runs[0]!.cjk && runs[0]!.chars.length <= 2) return [word];
  const out: string[] = [];
  for (const { cjk, chars } of runs) {
    if (!cjk) out.push(chars.join("").toLowerCase());
    else if (chars.length <= 2) out.push(chars.join(""));
    else for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

const WORD_RE = /[\p{L}\p{N}\p{Co}]+/gu;

/**
 * The CJK characters of a word that the index holds one by one: every character of each run of two or
 * more (a run of one is already a form of its own). A single character is a word ("锁", "鍵", "락"), and
 * one at the end of a run ("死锁") starts no pair, so a query of one character is matched on these.
 */
function cjkSingles(word: string): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length >= 2) out.push(...run);
    run = [];
  };
  for (const ch of word) {
    if (CJK_CP_RE.test(ch)) run.push(ch);
    else flush();
  }
  flush();
  return out;
}

/** Whether a query form is one CJK character: a word of its own, kept where one-letter Latin terms are dropped. */
export function isCjkChar(form: string): boolean {
  return CJK_CP_RE.test(form);
}

/**
 * The tokens an index adds for a text's CJK words (see cjkForms), and each character of their runs
 * (cjkSingles), every occurrence kept so term frequencies stay honest; words that are their own token
 * add no form. [] for text without CJK.
 */
export function cjkIndexTokens(text: string): string[] {
  if (!hasCjk(text)) return [];
  const out: string[] = [];
  for (const word of text.match(WORD_RE) ?? []) {
    if (!hasCjk(word)) continue;
    const forms = cjkForms(word);
    if (forms.length !== 1 || forms[0] !== word) out.push(...forms);
    out.push(...cjkSingles(word));
  }
  return out;
}
