// Which of many regex cues can match a text at all: the literals each requires, found in one Aho–Corasick pass over the lowercased text.
import type { TestWithNeeds } from "./cue-needs.js";

/** Clauses that must all be met, each by one of its literals (lowercase ASCII) found in the text. */
export type Requirement = ReadonlyArray<ReadonlySet<string>>;

/** The cue's test, as the injection gate holds it. */
export type CueTest = RegExp | ((text: string) => boolean);

/** A scan's verdict: for each cue, whether it may match (1) or cannot (0). Undefined: the text is not ASCII, run every cue. */
export type MayMatch = Uint8Array | undefined;

export interface CuePrefilter {
  mayMatch(text: string): MayMatch;
  /** The requirement found for each cue (empty: always run), for tests and reports. */
  readonly requirements: readonly Requirement[];
}

/**
 * The key a cue's requirement is kept under (cue-literals.ts): a hash of its regex, or of the regexes a function says it
 * needs. A cue edited since the table was made has a new key and no entry, so it always runs: a stale table costs speed,
 * never an answer.
 */
export function cueKey(test: CueTest): string | undefined {
  if (test instanceof RegExp) return hash(`${test.flags}/${test.source}`);
  const needs = (test as TestWithNeeds).needs;
  if (!needs) return undefined;
  const sources = (list: readonly RegExp[] | undefined) => (list ?? []).map((re) => `${re.flags}/${re.source}`).join("\u0000");
  return hash(`needs${needs.cutAtSpaces ? " cut" : ""}:${sources(needs.regexes)}\u0001${sources(needs.anyOf)}`);
}

/** Two FNV-1a hashes with different offsets, 16 hex digits: no two of a hundred cues share one. */
function hash(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** Requirements by cue key: each an array of clauses, each clause the literals one of which must be in the text. */
export type RequirementTable = Readonly<Record<string, ReadonlyArray<readonly string[]>>>;

/**
 * Builds the prefilter for `tests`, in order: one automaton over every literal, each literal reporting the clauses it meets
 * (a clause is one cue's: met by any of its literals), and each cue its clauses' numbers.
 */
export function cuePrefilter(tests: readonly CueTest[], table: RequirementTable): CuePrefilter {
  const requirements: Requirement[] = tests.map((test) => (table[cueKey(test) ?? ""] ?? []).map((clause) => new Set(clause)));
  const clausesOfLiteral = new Map<string, number[]>();
  let clauses = 0;
  const cueClauses = requirements.map((req) =>
    Int32Array.from(req, (clause) => {
      const id = clauses++;
      for (const lit of clause) clausesOfLiteral.set(lit, [...(clausesOfLiteral.get(lit) ?? []), id]);
      return id;
    }),
  );
  const automaton = buildAutomaton([...clausesOfLiteral.keys()], [...clausesOfLiteral.values()]);
  const met = new Uint8Array(clauses);
  return {
    requirements,
    mayMatch(text) {
      met.fill(0);
      if (!automaton.scan(text, met)) return undefined;
      const out = new Uint8Array(tests.length);
      for (let i = 0; i < cueClauses.length; i++) out[i] = allMet(cueClauses[i]!, met) ? 1 : 0;
      return out;
    },
  };
}

function allMet(clauses: Int32Array, met: Uint8Array): boolean {
  for (let j = 0; j < clauses.length; j++) if (met[clauses[j]!] === 0) return false;
  return true;
}

interface Automaton {
  /** Marks in `met` (all 0 before) the clauses of each literal the text holds, ASCII letters read lowercase; false if a character is not ASCII (then `met` is partly marked). */
  scan(text: string, met: Uint8Array): boolean;
}

/**
 * Aho–Corasick as a full transition table over the characters the literals use (any other character leads back to the
 * root): one table read per character of the text, the clauses met listed per state with those of its suffix states merged in.
 */
function buildAutomaton(literals: readonly string[], reports: ReadonlyArray<readonly number[]>): Automaton {
  // Character classes: 0 for a character no literal holds, 1.. for each one that one does.
  const classOf = new Uint8Array(128);
  let classes = 1;
  for (const lit of literals) for (let i = 0; i < lit.length; i++) if (classOf[lit.charCodeAt(i)] === 0) classOf[lit.charCodeAt(i)] = classes++;
  // Upper-case letters read as lower-case ones.
  for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32]!;
  // The trie.
  const children: Map<number, number>[] = [new Map()];
  const outputs: number[][] = [[]];
  literals.forEach((lit, id) => {
    let s = 0;
    for (let i = 0; i < lit.length; i++) {
      const k = classOf[lit.charCodeAt(i)]!;
      let next = children[s]!.get(k);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        outputs.push([]);
        children[s]!.set(k, next);
      }
      s = next;
    }
    outputs[s]!.push(...reports[id]!);
  });
  // Failure links breadth first, folded into a full table: a state's row is its failure state's row (one block copy)
  // with its own children written over it; only trie edges are visited, so the build stays cheap even as cold code.
  const n = children.length;
  // 16 bits a transition while the states fit: half the table to keep in cache.
  const delta = n < 65536 ? new Uint16Array(n * classes) : new Int32Array(n * classes);
  const fail = new Int32Array(n);
  const queue: number[] = [0];
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    const row = s * classes;
    if (s !== 0) {
      delta.copyWithin(row, fail[s]! * classes, fail[s]! * classes + classes);
      const inherited = outputs[fail[s]!]!;
      if (inherited.length > 0) outputs[s] = outputs[s]!.length === 0 ? inherited : [...new Set([...outputs[s]!, ...inherited])];
    }
    for (const [k, t] of children[s]!) {
      // The root's children fail to the root; any other's to where its parent's failure state goes on the same character.
      fail[t] = s === 0 ? 0 : delta[row + k]!;
      delta[row + k] = t;
      queue.push(t);
    }
  }
  // Outputs flattened: state s reports out[start[s] .. start[s + 1]).
  const start = new Int32Array(n + 1);
  for (let s = 0; s < n; s++) start[s + 1] = start[s]! + outputs[s]!.length;
  const out = Int32Array.from(outputs.flat());
  return {
    scan(text, met) {
      let s = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 128) return false;
        s = delta[s * classes + classOf[c]!]!;
        for (let j = start[s]!; j < start[s + 1]!; j++) met[out[j]!] = 1;
      }
      return true;
    },
  };
}
