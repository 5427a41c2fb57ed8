// The literal strings a regex cannot match without: read from its syntax tree (codesearch's "required factors"), for a prefilter that skips regexes whose words a text lacks.
import { parseRegExpLiteral, type AST } from "@eslint-community/regexpp";
import type { TestWithNeeds } from "./cue-needs.js";
import { cueKey, type Requirement } from "./cue-prefilter.js";

/** What is known of a piece of a pattern: every string it can match (when few and known), and the clauses it requires. */
interface Known {
  exact: Set<string> | null;
  clauses: Set<string>[];
}

/** More strings than this in one exact set and the set is given up (a run of alternatives multiplied out grows fast). */
const MAX_EXACT = 32;
/** A class of more characters than this ([a-z], \w) is not worth listing. */
const MAX_CLASS = 4;
/** Clauses with a string shorter than this ("a", "e") are nearly always met: not worth a lookup; but see RARE_CHARACTER. */
const MIN_LITERAL = 2;
/** One character that is no letter, digit or space ("\n", "<", "|"): many lessons lack it, so it is worth a lookup alone. */
const RARE_CHARACTER = /^[^a-z0-9 ]$/;
/** The clauses kept per regex, the most selective first: more cost a check each and add little. */
const MAX_CLAUSES = 3;

const ANYTHING: Known = { exact: null, clauses: [] };
const NOTHING_CONSUMED: Known = { exact: new Set([""]), clauses: [] };

/**
 * The requirement of `re`: what any match consumes, lowercased; every clause holds at least one string found in the matched
 * text. An empty list says nothing is known, and the regex must always run. Only characters a match consumes count
 * (assertions and lookarounds are zero-width), so a string found in any piece of a text is found in the whole text too.
 * Non-ASCII pattern characters are unknown (under /iu `ſ` matches `s` and the Kelvin sign `k`), so
 * every literal is printable or control ASCII; callers read only ASCII texts with it, lowercased.
 */
export function requiredLiterals(re: RegExp): Requirement {
  const { pattern } = parseRegExpLiteral(re);
  const known = ofAlternatives(pattern.alternatives);
  const clauses = [...known.clauses];
  const whole = known.exact && usable(known.exact) ? known.exact : null;
  if (whole) clauses.push(whole);
  return clauses.map(shortened).sort(bySelectivity).slice(0, MAX_CLAUSES);
}

/** Literals longer than this are cut to their start: a phrase multiplied out is selective long before its end, and long ones swell the automaton. */
const MAX_LITERAL = 8;

/**
 * The clause with each literal cut to MAX_LITERAL characters and every literal that holds another one dropped: a text
 * holding the longer holds the shorter, so the clause is met by the same texts and costs fewer states to look for.
 */
function shortened(clause: ReadonlySet<string>): Set<string> {
  const cut = [...new Set([...clause].map((s) => s.slice(0, MAX_LITERAL)))].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const s of cut) if (!kept.some((k) => s.includes(k))) kept.push(s);
  return new Set(kept);
}

/**
 * What a cue's test requires: a regex its own literals; a function the clauses of each regex it says it needs (cue-needs.ts),
 * cut at spaces where it reads the text with parts replaced by one; anything else nothing.
 */
export function cueRequirement(test: RegExp | TestWithNeeds): Requirement {
  if (test instanceof RegExp) return requiredLiterals(test);
  const needs = test.needs;
  if (!needs) return [];
  const clauses = (needs.regexes ?? []).flatMap((re) => requiredLiterals(re));
  // One of several: read as one alternation of them (parsed only, never run), whose requirement is a clause of each, joined.
  const flags = new Set(needs.anyOf?.map((re) => re.flags.replace(/[gy]/g, "")));
  if (needs.anyOf && flags.size === 1) clauses.push(...requiredLiterals(new RegExp(needs.anyOf.map((re) => `(?:${re.source})`).join("|"), [...flags][0])));
  if (!needs.cutAtSpaces) return clauses;
  // A space put in where a part was cut out joins no literal that holds none: each literal stands for its longest space-free piece.
  return clauses.map((clause) => shortened(new Set([...clause].map(longestPieceWithoutSpace)))).filter(usable);
}

function longestPieceWithoutSpace(s: string): string {
  return s.split(" ").reduce((a, b) => (b.length > a.length ? b : a), "");
}

/** A clause that is worth a lookup: no empty string (always met), none too short. */
function usable(set: ReadonlySet<string>): boolean {
  for (const s of set) if (s.length < MIN_LITERAL && !RARE_CHARACTER.test(s)) return false;
  return set.size > 0;
}

/** Longer shortest strings first, then fewer strings: the clause a text least often meets. */
function bySelectivity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  return shortest(b) - shortest(a) || a.size - b.size;
}
function shortest(set: ReadonlySet<string>): number {
  let n = Infinity;
  for (const s of set) n = Math.min(n, s.length);
  return n;
}

/** The one clause a piece of a pattern is best summed up by, or null when it requires nothing. */
function bestClause(known: Known): Set<string> | null {
  const candidates = known.exact && usable(known.exact) ? [...known.clauses, known.exact] : known.clauses;
  return candidates.length === 0 ? null : [...candidates].sort(bySelectivity)[0]!;
}

function ofAlternatives(alternatives: readonly AST.Alternative[]): Known {
  const each = alternatives.map(ofAlternative);
  if (each.every((k) => k.exact !== null)) {
    const union = new Set(each.flatMap((k) => [...k.exact!]));
    if (union.size <= MAX_EXACT) return { exact: union, clauses: [] };
  }
  // One branch matches: the requirement is one clause of each branch, joined; a branch that requires nothing requires nothing of all.
  const joined = new Set<string>();
  for (const k of each) {
    const clause = bestClause(k);
    if (clause === null) return ANYTHING;
    for (const s of clause) joined.add(s);
  }
  return { exact: null, clauses: [joined] };
}

/** Elements in a row: exact strings multiplied out while they stay few, each run ended by an unknown element kept as a clause. */
function ofAlternative(alternative: AST.Alternative): Known {
  const clauses: Set<string>[] = [];
  let run: Set<string> = new Set([""]);
  let broken = false;
  const flush = () => {
    if (usable(run)) clauses.push(run);
    run = new Set([""]);
  };
  for (const element of alternative.elements) {
    const known = ofElement(element);
    clauses.push(...known.clauses);
    if (known.exact === null) {
      flush();
      broken = true;
    } else if (run.size * known.exact.size <= MAX_EXACT) {
      run = product(run, known.exact);
    } else {
      flush();
      broken = true;
      run = known.exact;
    }
  }
  if (!broken) return { exact: run, clauses };
  flush();
  return { exact: null, clauses };
}

function product(left: ReadonlySet<string>, right: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const a of left) for (const b of right) out.add(a + b);
  return out;
}

function ofElement(element: AST.Element): Known {
  switch (element.type) {
    case "Assertion":
      return NOTHING_CONSUMED;
    case "Character":
      return ofCharacters([element.value]);
    case "CharacterClass":
      return ofClass(element);
    case "Group":
    case "CapturingGroup":
      return ofAlternatives(element.alternatives);
    case "Quantifier":
      return ofQuantifier(element);
    default:
      // Backreferences, \w \d \s . and \p{…}, class expressions: anything.
      return ANYTHING;
  }
}

function ofQuantifier(q: AST.Quantifier): Known {
  if (q.max === 0) return NOTHING_CONSUMED;
  const inner = ofElement(q.element);
  if (q.min === 0) {
    return q.max === 1 && inner.exact !== null ? { exact: new Set([...inner.exact, ""]), clauses: [] } : ANYTHING;
  }
  if (q.min === 1 && q.max === 1) return inner;
  if (q.min === q.max && inner.exact !== null && inner.exact.size ** q.min <= MAX_EXACT) {
    let out: Set<string> = new Set([""]);
    for (let i = 0; i < q.min; i++) out = product(out, inner.exact);
    return { exact: out, clauses: [] };
  }
  // Once at least: what one copy requires.
  const clause = bestClause(inner);
  return { exact: null, clauses: clause ? [clause] : [] };
}

/** A class of a few ASCII characters is a small exact set; anything else, negated or not, is unknown. */
function ofClass(cls: AST.CharacterClass): Known {
  if (cls.negate) return ANYTHING;
  const codes: number[] = [];
  for (const e of cls.elements) {
    if (e.type === "Character") codes.push(e.value);
    else if (e.type === "CharacterClassRange" && e.max.value - e.min.value < MAX_CLASS * 2) {
      for (let c = e.min.value; c <= e.max.value; c++) codes.push(c);
    } else return ANYTHING;
  }
  return ofCharacters(codes);
}

function ofCharacters(codes: readonly number[]): Known {
  const set = new Set<string>();
  for (const c of codes) {
    if (c >= 128) return ANYTHING;
    set.add(String.fromCharCode(c).toLowerCase());
  }
  return set.size === 0 || set.size > MAX_CLASS ? ANYTHING : { exact: set, clauses: [] };
}

/**
 * The source of src/quality/cue-literals.ts: every injection cue's requirement under its key (scripts/gen-cue-literals.ts
 * writes it; test/quality/cue-prefilter checks the file is current). Cues that require nothing are left out.
 */
export async function cueLiteralsModule(): Promise<string> {
  const { injectionCueLists } = await import("./injection.js");
  const { kept, folded } = injectionCueLists();
  const table: Record<string, string[][]> = {};
  for (const cue of [...kept, ...folded]) {
    const key = cueKey(cue.re);
    const requirement = cueRequirement(cue.re);
    if (key !== undefined && requirement.length > 0) table[key] = requirement.map((clause) => [...clause].sort());
  }
  const entries = Object.keys(table).sort().map((key) => `  "${key}": ${JSON.stringify(table[key])},`);
  return [
    "// Generated by scripts/gen-cue-literals.ts from the injection cues (npm run gen:cue-literals): the literals each requires. Do not edit.",
    'import type { RequirementTable } from "./cue-prefilter.js";',
    "",
    "/** Cue key (cueKey) to its clauses: one literal of each must be in a text (lowercased) for the cue to match it. */",
    "export const CUE_LITERALS: RequirementTable = {",
    ...entries,
    "};",
    "",
  ].join("\n");
}
