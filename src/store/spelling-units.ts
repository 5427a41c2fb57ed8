// Which terms of one search are the same word written otherwise ("setup" and "set up"; "set" and "setup"; "index" and "indices"): a search requiring every word requires one spelling of each, never all of them.
import { compoundApart } from "../core/compound-words.js";
import { otherNumberForms } from "../core/irregular-plurals.js";
import { phrasalOf } from "../core/phrasal-verbs.js";
import { stemToken } from "./fts-tokens.js";

/** Words of letters or digits, apart or joined by a space, a hyphen or an underscore. */
const SPELLED_RE = /^[\p{L}\p{N}]+(?:[\s_-]+[\p{L}\p{N}]+)*$/u;
const WORD_RE = /^[\p{L}\p{N}]+$/u;

/** A term's spelling-free key: its words run together, stemmed ("set up", "setups" → "setup"; "lock file", "lockfiles" → "lockfil"). */
function joinedKey(term: string): string | undefined {
  return SPELLED_RE.test(term) ? stemToken(term.replace(/[\s_-]+/g, "")) : undefined;
}

/** The two words a joined word is written apart as: by the tables ("setup" → set, up; "timeout" → time, out). */
function tableParts(word: string): string[] {
  const apart = compoundApart(word) ?? phrasalOf(word);
  return apart ? apart.split(" ") : [];
}

/**
 * The units a search requiring every word (term-stats.ts "all" mode) requires one term of each, rarest terms'
 * units first as `terms` are ordered. Two terms are one unit when they are one word written joined and apart
 * ("setup", "set up"), or a word's two numbers the index stems apart ("index", "indices"). A joined word whose
 * halves are terms of their own (the query wrote "set up the worker": terms "set", "worker" and the variant
 * "setup"; "lock file": "lock", "file" and "lockfile") is no unit of its own but an alternative in each half's:
 * `(set OR setup) AND worker`, `(lock OR lockfile) AND (file OR lockfile)`. Required apart, each spelling
 * excluded every lesson that writes only the other, which at scale is nearly every lesson (issue 16).
 */
export function spellingUnits(terms: readonly string[]): string[][] {
  const parent = terms.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const index = new Map(terms.map((t, i) => [t, i] as const));
  const byKey = new Map<string, number>();
  terms.forEach((t, i) => {
    const key = joinedKey(t);
    if (key === undefined) return;
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, i);
    else union(seen, i);
    for (const form of otherNumberForms(t)) {
      const j = index.get(form);
      if (j !== undefined) union(i, j);
    }
  });
  // A single word's stem → its indices, to find a joined word's halves among the terms.
  const wordsByStem = new Map<string, number[]>();
  terms.forEach((t, i) => {
    if (WORD_RE.test(t)) wordsByStem.set(stemToken(t), [...(wordsByStem.get(stemToken(t)) ?? []), i]);
  });
  /** Root of a joined word's class → the roots of the halves it is an alternative in. */
  const halvesOf = new Map<number, Set<number>>();
  terms.forEach((joined, j) => {
    if (!WORD_RE.test(joined)) return;
    const halves = new Set<number>();
    for (const part of tableParts(joined)) for (const i of wordsByStem.get(stemToken(part)) ?? []) halves.add(i);
    // Halves the tables do not know: "pre" and "commit" of "precommit", "node" and "20" of "node20".
    terms.forEach((first, a) => {
      if (a === j || !WORD_RE.test(first) || !joined.startsWith(first) || first.length >= joined.length) return;
      const b = index.get(joined.slice(first.length));
      if (b !== undefined && b !== j && WORD_RE.test(terms[b]!)) halves.add(a).add(b);
    });
    const root = find(j);
    const roots = new Set([...halves].map(find).filter((r) => r !== root));
    if (roots.size) halvesOf.set(root, new Set([...(halvesOf.get(root) ?? []), ...roots]));
  });
  const members = new Map<number, string[]>();
  terms.forEach((t, i) => {
    const r = find(i);
    members.set(r, [...(members.get(r) ?? []), t]);
  });
  // A joined word's class joins each of its halves' units; one that is itself a half (rare) keeps its own unit.
  const alternatives = new Map<number, string[]>();
  const joinedAway = new Set<number>();
  for (const [root, halves] of halvesOf) {
    if ([...halves].some((h) => halvesOf.has(h))) continue;
    joinedAway.add(root);
    for (const h of halves) alternatives.set(h, [...(alternatives.get(h) ?? []), ...members.get(root)!]);
  }
  const units: string[][] = [];
  for (const [root, own] of members) if (!joinedAway.has(root)) units.push([...own, ...(alternatives.get(root) ?? [])]);
  return units;
}
