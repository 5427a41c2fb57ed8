// The focus signal reads words in place: the same scores as splitting each candidate's text into a word index (the former way), on random texts of any script.
import { test } from "node:test";
import assert from "node:assert/strict";
import { stemmer } from "stemmer";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { FOCUS_TEXT_CHARS, focusScores } from "../../src/retrieval/focus.js";
import type { WeightedTerm } from "../../src/retrieval/context.js";
import { makeRng } from "../../bench/rng.js";

// The former implementation, kept here as the oracle.
function focusText(e: Entry): string {
  const a = e.applicability;
  return [e.title ?? "", e.lesson.slice(0, FOCUS_TEXT_CHARS), e.tags.join(" "), a.triggers.join(" "), a.tech_stack.join(" "), a.file_globs.join(" ")].join(" ").toLowerCase();
}
const stemOf = (term: string) => (/^[a-z]+$/.test(term) && term.length > 3 ? stemmer(term) : term);
function wordIndex(text: string): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const w of text.split(/[^\p{L}\p{N}]+/u)) {
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
  const alt = stem.endsWith("i") ? `${stem.slice(0, -1)}y` : undefined;
  return words.some((w) => (w.startsWith(stem) || (alt !== undefined && w.startsWith(alt))) && w.length - stem.length <= 4);
}
function oracle(pool: readonly Entry[], terms: readonly WeightedTerm[]): number[] {
  if (pool.length === 0 || terms.length === 0) return [];
  const stems = terms.map((t) => stemOf(t.term));
  const hits = pool.map((e) => {
    const text = focusText(e);
    const index = wordIndex(text);
    // A CJK term is a character pair: found anywhere inside a run, which has no word boundaries.
    return stems.map((st) => (/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u.test(st) ? text.includes(st) : holds(index, st)));
  });
  const worth = terms.map((t, j) => {
    const df = hits.reduce((n, row) => n + (row[j] ? 1 : 0), 0);
    return df === 0 ? 0 : t.weight * Math.log(1 + pool.length / df);
  });
  const total = worth.reduce((a, w) => a + w, 0);
  return pool.map((_, i) => (total === 0 ? 0 : hits[i]!.reduce((a, hit, j) => a + (hit ? worth[j]! : 0), 0) / total));
}

const WORDS = ["retry", "retries", "retrying", "token", "tokens", "auth", "cache", "caching", "db", "io", "go", "k8s", "v2", "node20", "tri", "try", "trying", "hang", "hanging", "hangs", "café", "naïve", "Ärger", "über", "日本語", "データ", "𝒜lpha", "x𝒜", "a", "ab", "abc", "abcdefgh", "abcdefghijkl", "deploy", "deployment", "deployments", "λx", "straße", "İstanbul"];
const SEPARATORS = [" ", "  ", ".", "/", "-", "_", ", ", "😀", "\u2014", "\ud800", "(", "\n", "'"];

test("focus scores are those of the former word index, for random texts and terms (ASCII, accents, CJK, astral letters, emoji, lone surrogates)", () => {
  const rng = makeRng(20261124);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const text = (n: number) => Array.from({ length: n }, () => pick(WORDS) + pick(SEPARATORS)).join("");
  const at = new Date().toISOString();
  for (let round = 0; round < 300; round++) {
    const pool = Array.from({ length: 1 + Math.floor(rng() * 8) }, () =>
      EntrySchema.parse({
        id: newEntryId(), handle: "", tier: "hive", lesson: text(5 + Math.floor(rng() * 30)) || "x", category: "tooling", kind: "learning", created_at: at, updated_at: at,
        tags: rng() < 0.3 ? [pick(WORDS).toLowerCase()] : [],
      }),
    );
    const terms: WeightedTerm[] = Array.from({ length: 1 + Math.floor(rng() * 12) }, () => {
      const w = pick(WORDS).toLowerCase();
      // Whole words, prefixes, porter stems, the inside of a word (must not match mid-word, but for a CJK run's pair), and terms no word holds.
      const r = rng();
      const term = r < 0.25 ? w : r < 0.5 ? w.slice(0, 1 + Math.floor(rng() * w.length)) : r < 0.7 ? stemmer(w) : r < 0.85 ? [...w].slice(1).join("") : r < 0.95 ? `${w}.ts` : "";
      return { term, weight: 0.5 + rng() } as WeightedTerm;
    });
    const got = focusScores(pool, terms);
    assert.deepEqual(pool.map((e) => got.get(e)), oracle(pool, terms), `round ${round}: ${JSON.stringify({ lessons: pool.map((e) => e.lesson), terms })}`);
  }
});
