// PostgreSQL index lexemes made the way FTS5's `porter unicode61` tokenizer makes them, so both stores match (and rank) the same words.
import { ftsTokens } from "../fts-tokens.js";

/** PostgreSQL keeps at most 256 positions per lexeme and none past 16383. */
const MAX_POSITIONS = 256;
const MAX_POSITION = 16383;

/** The lexemes of a text in order, one per token: what FTS5's `porter unicode61` indexes for the same text. */
export function lexemesOf(text: string): string[] {
  return ftsTokens(text);
}

/** A lexeme quoted for tsvector/tsquery input: quotes and backslashes doubled, so no input forms an operator. */
export function quoteLexeme(lex: string): string {
  return `'${lex.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/**
 * The tsvector literal of a search text (bound as a parameter and cast) and its length in tokens:
 * positions give BM25 its term frequencies, the length its document length.
 */
export function tsvectorOf(searchText: string): { literal: string; length: number } {
  const tokens = lexemesOf(searchText);
  const positions = new Map<string, number[]>();
  tokens.forEach((t, i) => {
    let list = positions.get(t);
    if (!list) positions.set(t, (list = []));
    if (list.length < MAX_POSITIONS) list.push(Math.min(i + 1, MAX_POSITION));
  });
  const literal = [...positions].map(([t, ps]) => `${quoteLexeme(t)}:${ps.join(",")}`).join(" ");
  return { literal, length: tokens.length };
}

/**
 * One query term as a tsquery: a lexeme, or a phrase (`a <-> b`) when the term holds several words.
 * `prefix`: its last lexeme matches as a prefix (`:*`), as FTS5's `"term"*` matches on the stemmed token.
 */
export function termQuery(term: string, opts: { prefix?: boolean } = {}): { query: string; lexemes: string[] } | undefined {
  const lexemes = lexemesOf(term);
  if (lexemes.length === 0) return undefined;
  const quoted = lexemes.map(quoteLexeme);
  if (opts.prefix) quoted[quoted.length - 1] += ":*";
  const query = quoted.length === 1 ? quoted[0]! : `(${quoted.join(" <-> ")})`;
  return { query, lexemes };
}
