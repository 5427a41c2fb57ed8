// The Porter stemmer (npm `stemmer`, the algorithm of FTS5's porter tokenizer) behind a bounded memo: an import or a session stems the same few thousand words again and again.
import { stemmer } from "stemmer";

/** Distinct words remembered (~50 bytes each); past it the memo starts again rather than growing in a long-running server. */
const MAX_WORDS = 20_000;
const memo = new Map<string, string>();

/** stemmer(word), remembered. */
export function porterStem(word: string): string {
  let stem = memo.get(word);
  if (stem === undefined) {
    if (memo.size >= MAX_WORDS) memo.clear();
    memo.set(word, (stem = stemmer(word)));
  }
  return stem;
}
