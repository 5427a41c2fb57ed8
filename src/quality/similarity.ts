// Near-duplicate and contradiction decisions between two lessons (pure, no I/O).
import { STOP_WORDS, camelParts } from "../core/text.js";
import { MEANING_MARGIN, meaningSimilarity } from "./meaning.js";
import { mentions, specificDifference, specificsOf } from "./specifics.js";

export type Polarity = "positive" | "negative" | "neutral";

export interface LessonComparison {
  /** The larger of the words' similarity and the blend with closeness in meaning (see `meaning`). */
  similarity: number;
  /** Blend of the built-in model's cosine and the words' similarity, when it was needed (the words alone fell short). */
  meaning?: number;
  duplicate: boolean;
  contradiction: boolean;
  reason: string;
  /** Why it is a contradiction: advice reversed (opposite, reversed, negation) or only a value differs. */
  contradiction_kind?: "opposite" | "reversed" | "negation" | "value";
}

export interface LessonWord {
  /** Lowercase, apostrophes dropped, camelCase split, abbreviations expanded. */
  w: string;
  at: number;
  /** Index of the clause (split at , ; : ! ? ( and dashes) the word sits in. */
  clause: number;
  /** Cached facts about `w`: flag bits and its stem. */
  info: WordInfo;
  /** A camelCase piece: "use" in useEffect is not advice, "no" in noEmit not a negation. */
  part: boolean;
}

export interface WordInfo {
  flags: number;
  stem: string;
  /** FNV-1a of the stem: token sets become sorted integer arrays, cheap to intersect. */
  hash: number;
  /** What an abbreviation stands for ("db" → ["database"]). */
  expand?: string[];
}

export interface LessonValue {
  key: string;
  at: number;
  end: number;
  /** Content words either side, computed only when a lesson holds several numbers. */
  near?: string[];
}

/**
 * What compareLessons reads before it can tell two lessons are on different subjects (most pairs a
 * bulk import compares: ~94 % of its 12 neighbours a row): a few strings and typed arrays, cheap to
 * keep for thousands of lessons and to send from a worker thread. The rest of a profile is built
 * only for a pair that gets past that point.
 */
export interface LessonKey {
  readonly text: string;
  /** Lowercased words joined by single spaces: equal means "exact after normalisation". */
  readonly plain: string;
  /** Sorted distinct 32-bit hashes of the topic tokens (see lessonTokens). */
  readonly tokens: Uint32Array;
  /** Bitset of the character bigrams of the token string: exact for a-z, 0-9 and space. */
  readonly bigrams: Uint32Array;
  /** The topic tokens of the advice clause (see adviceHead): a key carries them, a profile computes them when first asked. */
  readonly adviceHead?: ReadonlySet<string>;
}

/** Everything compareLessons needs from one text; build once to compare one text against many. */
export interface LessonProfile extends LessonKey {
  readonly words: readonly LessonWord[];
  /** Words that have an antonym ("before", "true"…), for the antonym check. */
  readonly polarWords: readonly string[];
  /** The same hashes in text order, and the stems they stand for. */
  readonly sequence: Uint32Array;
  readonly stems: readonly string[];
  readonly values: readonly LessonValue[];
  readonly valueKeys: ReadonlySet<string>;
  readonly polarity: Polarity;
  /** A negation or contrast in a main clause ("not", "without", "instead of"…). */
  readonly negated: boolean;
  /** "X instead of Y": content words just before and just after the contrast marker. */
  readonly contrast: { before: ReadonlySet<string>; after: ReadonlySet<string> } | null;
  /** Whether the lesson sets or chooses something, so a different value is a conflict. */
  readonly setting: boolean;
  /** Topic stems after a main-clause prohibition or contrast, to the end of its clause: what the lesson advises against. */
  readonly refused: ReadonlySet<string>;
  /** The first topic stem after each main-clause negation or contrast: what "not", "never", "avoid", "instead of" apply to. */
  readonly negObjects: ReadonlySet<string>;
  /** Topic stems of the clauses with no prohibition, negation or contrast in them: what the lesson says to do ("…; use npm ci"). */
  readonly recommended: ReadonlySet<string>;
  /** The first topic stem after "before": what must wait ("run migrations before *deploying*"). */
  readonly beforeObject?: string;
}

// Maps rather than object literals: a lesson may well contain the word "constructor".
// Generic abbreviations only: a thesaurus here would be tuning to the evaluation pairs.
const ABBREVIATIONS: ReadonlyMap<string, string[]> = new Map(
  Object.entries({
    db: "database", dbs: "database", repo: "repository", repos: "repository", config: "configuration",
    configs: "configuration", deps: "dependencies", dep: "dependency", k8s: "kubernetes",
    js: "javascript", async: "asynchronous", dir: "directory", dirs: "directory", args: "arguments",
    arg: "argument", params: "parameters", param: "parameter", impl: "implementation", msg: "message",
    pr: "pull request", prs: "pull request", env: "environment", err: "error", prod: "production",
    dev: "development", app: "application", apps: "application", docs: "documentation", perf: "performance",
  }).map(([k, v]) => [k, v.split(" ")]),
);
/** Words that state the advice's direction: judged by polarity, left out of the topic tokens. */
const POLARITY_WORDS = new Set([
  "enable", "enabled", "disable", "disabled", "prefer", "stop", "turn", "ensure", "forbid", "allow",
]);
const NEG_DIRECTIVE = new Set([
  "never", "dont", "avoid", "stop", "disable", "shouldnt", "mustnt", "forbid", "exclude", "omit",
]);
/** Two-word directives, keyed by their first word. */
const NEG_DIRECTIVE_2: ReadonlyMap<string, string> = new Map([["do", "not"], ["should", "not"], ["must", "not"], ["turn", "off"]]);
const POS_DIRECTIVE = new Set([
  "always", "use", "prefer", "must", "should", "enable", "ensure", "remember", "set", "add", "run",
  "call", "keep", "require", "pin", "wrap", "put", "include", "configure",
]);
const POS_DIRECTIVE_2: ReadonlyMap<string, string> = new Map([["make", "sure"], ["turn", "on"], ["dont", "forget"]]);
const NEGATIONS = new Set([
  "not", "no", "never", "without", "cannot", "cant", "dont", "doesnt", "didnt", "isnt", "arent",
  "wasnt", "werent", "wont", "shouldnt", "mustnt", "couldnt", "wouldnt", "avoid", "stop", "disable",
  "nor", "neither",
]);
/** A negation right after these is in a purpose or relative clause ("to avoid", "that never resolves"). */
const OPENERS = new Set(["to", "that", "which"]);
/** …and one or two words after these ("so you don't", "so writes are not"); "so never" is still advice. */
const SUBORDINATORS = new Set(["so", "that", "which", "because", "otherwise", "else", "lest", "unless"]);
const SET_WORDS = new Set([
  "set", "use", "configure", "pin", "bump", "change", "raise", "lower", "increase", "decrease", "limit", "cap",
  "retry", "wait", "allow", "keep", "poll", "expire", "timeout",
]);
/** Antonyms: one lesson saying "before" where the other says "after" is different advice. */
const ANTONYMS: ReadonlyMap<string, string> = new Map(
  [
    ["before", "after"], ["true", "false"], ["increase", "decrease"], ["higher", "lower"],
    ["above", "below"], ["ascending", "descending"], ["asc", "desc"], ["sync", "asynchronous"],
    ["synchronous", "asynchronous"], ["inside", "outside"], ["minimum", "maximum"], ["first", "last"],
    ["public", "private"], ["include", "exclude"], ["allow", "deny"], ["client", "server"],
  ].flatMap(([x, y]) => [[x!, y!], [y!, x!]] as Array<[string, string]>),
);
const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(Object.entries({
  zero: 0, two: 2, twice: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12,
}));
const DURATION_MS: ReadonlyMap<string, number> = new Map(Object.entries({
  ms: 1, msec: 1, msecs: 1, millisecond: 1, milliseconds: 1, s: 1e3, sec: 1e3, secs: 1e3, second: 1e3,
  seconds: 1e3, m: 6e4, min: 6e4, mins: 6e4, minute: 6e4, minutes: 6e4, h: 36e5, hr: 36e5, hrs: 36e5,
  hour: 36e5, hours: 36e5, d: 864e5, day: 864e5, days: 864e5, w: 6048e5, week: 6048e5, weeks: 6048e5,
}));
const SIZE_BYTES: ReadonlyMap<string, number> = new Map(Object.entries({
  b: 1, byte: 1, bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 1024, mib: 1048576, gib: 1073741824,
}));

const WORD_RE = /[\p{L}\p{N}]+(?:['’]\p{L}+)*/gu;
const APOSTROPHES_RE = /['’]/g;
const WORD_CHAR_RE = /[\p{L}\p{N}_]/u;
// Each scan starts at a literal character and has no nested quantifiers: linear on any input.
const CODE_RE = /`([^`\n]{1,80})`/g;
const DQ_RE = /"([^"\n]{1,80})"/g;
const SQ_RE = /(?:^|[^\p{L}\p{N}])'([^'\n]{1,60})'(?![\p{L}\p{N}])/gu;
const FLAG_RE = /(?:^|[\s(`"'=[,;])(--?[A-Za-z][\w-]*)/g;
const NUM_RE = /\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.(?:\d+|x))*/g;
const UNIT_RE = /^([\s-]?)([A-Za-z]+|%)/;

/** A small suffix stripper: enough to meet "caching"/"cached"/"cache" and "retries"/"retry". */
export function stem(word: string): string {
  let w = word;
  if (w.length > 3 && !/\d/.test(w)) {
    if (w.endsWith("ies") || w.endsWith("ied")) w = w.slice(0, -3) + "y";
    else if (w.endsWith("sses")) w = w.slice(0, -2);
    else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
    for (const suffix of ["ing", "ed", "ation", "ly"]) {
      const base = w.slice(0, -suffix.length);
      if (w.endsWith(suffix) && base.length >= (suffix === "ly" ? 4 : 3) && /[aeiouy]/.test(base)) {
        w = /([^aeiouylsz])\1$/.test(base) ? base.slice(0, -1) : base;
        break;
      }
    }
    if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  }
  return w;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const CONTENT = 1, NEG_DIR = 2, POS_DIR = 4, NEGATION = 8, OPENER = 16, SUBORDINATOR = 32, SETS = 64, DIGIT = 128;
const HAS_ANTONYM = 256;
/** Bounded: cleared when full, so a long-running server cannot grow it without limit. */
const infoCache = new Map<string, WordInfo>();

/** Every list lookup for a word, done once per distinct word: the write path sees few new ones. */
function wordInfo(w: string): WordInfo {
  let info = infoCache.get(w);
  if (info === undefined) {
    const flags =
      (w.length >= 2 && !STOP_WORDS.has(w) && !POLARITY_WORDS.has(w) ? CONTENT : 0) |
      (NEG_DIRECTIVE.has(w) ? NEG_DIR : 0) | (POS_DIRECTIVE.has(w) ? POS_DIR : 0) |
      (NEGATIONS.has(w) ? NEGATION : 0) | (OPENERS.has(w) ? OPENER : 0) |
      (SUBORDINATORS.has(w) ? SUBORDINATOR : 0) | (SET_WORDS.has(w) ? SETS : 0) |
      (/^\d/.test(w) ? DIGIT : 0) | (ANTONYMS.has(w) ? HAS_ANTONYM : 0);
    const st = stem(w);
    info = { flags, stem: st, hash: fnv1a(st) };
    const expand = ABBREVIATIONS.get(w);
    if (expand) info.expand = expand;
    if (infoCache.size >= 50_000) infoCache.clear();
    infoCache.set(w, info);
  }
  return info;
}

function plainOf(text: string): string {
  return (text.toLowerCase().match(WORD_RE) ?? []).join(" ").replace(APOSTROPHES_RE, "");
}

/** Whether the text between two words ends a clause: , ; : ! ? ( dashes, or a full stop. */
function endsClause(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 44 || c === 59 || c === 58 || c === 33 || c === 63 || c === 0x2013 || c === 0x2014) return true;
    if (c === 40 && text.charCodeAt(i + 1) !== 41) return true; // "(" but not a call's "()"
    if ((c === 46 || c === 45) && (i + 1 >= text.length || text.charCodeAt(i + 1) <= 32)) {
      if (c === 46 || (i > 0 && text.charCodeAt(i - 1) <= 32)) return true; // ". " or " - "
    }
  }
  return false;
}

interface Lexed {
  words: LessonWord[];
  /** Lowercased whole words joined by spaces. */
  plain: string;
}

const LETTER_OR_DIGIT_RE = /[\p{L}\p{N}]/u;
const LETTER_RE = /\p{L}/u;

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  return LETTER_OR_DIGIT_RE.test(text[i]!);
}

/**
 * One pass over the text: words (letter/digit runs; "don't" → "dont") with offsets and clause
 * numbers, and the plain form. A hand scanner: this runs on every write.
 */
function lex(text: string): Lexed {
  const words: LessonWord[] = [];
  const whole: string[] = [];
  const lower = text.toLowerCase();
  const aligned = lower.length === text.length; // a few characters lowercase to two
  let clause = 0;
  let prevEnd = 0;
  let i = 0;
  while (i < text.length) {
    if (!isWordChar(text, i)) {
      i++;
      continue;
    }
    const at = i;
    // Only a capital after the first letter can start a camelCase part.
    let upper = !aligned;
    let apostrophe = false;
    while (i < text.length) {
      if (isWordChar(text, i)) {
        if (!upper && i > at && text.charCodeAt(i) !== lower.charCodeAt(i)) upper = true;
        i++;
      } else if ((text[i] === "'" || text[i] === "’") && i + 1 < text.length && LETTER_RE.test(text[i + 1]!)) {
        apostrophe = true;
        i++;
      } else break;
    }
    if (at > prevEnd && endsClause(text, prevEnd, at)) clause++;
    prevEnd = i;
    let word = aligned ? lower.slice(at, i) : text.slice(at, i).toLowerCase();
    if (apostrophe) word = word.replace(APOSTROPHES_RE, "");
    whole.push(word);
    const parts = upper ? camelParts(apostrophe ? text.slice(at, i).replace(APOSTROPHES_RE, "") : text.slice(at, i)) : [];
    if (parts.length === 0) pushWord(words, word, at, clause, false);
    else for (const p of parts) pushWord(words, p, at, clause, true);
  }
  return { words, plain: whole.join(" ") };
}

function pushWord(out: LessonWord[], w: string, at: number, clause: number, part: boolean): void {
  const info = wordInfo(w);
  if (info.expand === undefined) out.push({ w, at, clause, info, part });
  else for (const e of info.expand) out.push({ w: e, at, clause, info: wordInfo(e), part });
}

/** Normalised topic tokens: lowercase, sub-tokens split, stop and polarity words removed, stemmed. */
export function lessonTokens(text: string): string[] {
  return lex(text.normalize("NFKC")).words.filter((x) => x.info.flags & CONTENT).map((x) => x.info.stem);
}

function numberValue(text: string, at: number, body: string): string | null {
  const prev = text[at - 1] ?? "";
  const vPrefix = (prev === "v" || prev === "V") && !WORD_CHAR_RE.test(text[at - 2] ?? "");
  if (!vPrefix && (prev === "." || WORD_CHAR_RE.test(prev))) return null; // utf8, sha256, 0o755
  const after = text.slice(at + body.length, at + body.length + 14);
  if (after[0] === "_") return null;
  const unit = UNIT_RE.exec(after);
  const n = Number(body.replace(/,/g, ""));
  if (unit) {
    const [, sep, raw] = unit;
    const u = raw!.toLowerCase();
    const ms = DURATION_MS.get(u);
    const bytes = SIZE_BYTES.get(u);
    // "5 s" is too ambiguous; one-letter units count only when attached ("5s", "10k").
    const ok = sep === "" || u.length > 1;
    if (ok && ms !== undefined && !Number.isNaN(n)) return `dur:${n * ms}`;
    if (ok && bytes !== undefined && !Number.isNaN(n)) return `size:${n * bytes}`;
    if (sep === "" && u === "k") return `num:${n * 1000}`;
    if (u === "%" || u === "percent") return `pct:${n}`;
    if (sep === "" && u === "x") return `num:${n}`;
    if (sep === "") return null; // 4o, 2fa: part of a name
  }
  if (body.includes(".")) return `ver:${body.toLowerCase()}`;
  return `num:${n}`;
}

function scanValues(text: string, words: readonly LessonWord[]): LessonValue[] {
  const out: LessonValue[] = [];
  const quoted = (re: RegExp, kind: string) => {
    for (const m of text.matchAll(re)) {
      const body = plainOf(m[1]!);
      const at = (m.index ?? 0) + m[0].indexOf(m[1]!);
      if (body) out.push({ key: `${kind}:${body}`, at, end: at + m[1]!.length });
    }
  };
  if (text.includes("`")) quoted(CODE_RE, "code");
  if (text.includes('"')) quoted(DQ_RE, "quote");
  if (text.includes("'")) quoted(SQ_RE, "quote");
  if (text.includes("-")) {
    for (const m of text.matchAll(FLAG_RE)) {
      const at = (m.index ?? 0) + m[0].length - m[1]!.length;
      out.push({ key: `flag:${m[1]}`, at, end: at + m[1]!.length });
    }
  }
  for (const m of text.matchAll(NUM_RE)) {
    const at = m.index ?? 0;
    const key = numberValue(text, at, m[0]);
    if (key) out.push({ key, at, end: at + m[0].length });
  }
  for (const x of words) {
    const n = NUMBER_WORDS.get(x.w);
    if (n !== undefined) out.push({ key: `num:${n}`, at: x.at, end: x.at + x.w.length });
  }
  return out;
}

/**
 * Values whose change changes the advice, as canonical keys: numbers with units (durations in
 * ms: `dur:30000`; sizes in bytes: `size:10000000`; `pct:5`), versions (`ver:1.2.3`, `ver:18.x`,
 * while `v18` is `num:18`), bare numbers such as status codes, ports and counts (`num:5432`),
 * flags (`flag:--force`, case kept), quoted strings (`quote:…`) and backticked code (`code:…`).
 */
export function meaningfulValues(text: string): string[] {
  const t = text.normalize("NFKC");
  return [...new Set(scanValues(t, lex(t).words).map((v) => v.key))];
}

interface Direction {
  polarity: Polarity;
  negated: boolean;
  contrast: LessonProfile["contrast"];
  refused: Set<string>;
  negObjects: Set<string>;
  recommended: Set<string>;
}

function direction(words: readonly LessonWord[]): Direction {
  let neg = false;
  let pos = false;
  let negated = false;
  let sawPrefer = false;
  let contrast: LessonProfile["contrast"] = null;
  const refused = new Set<string>();
  const negObjects = new Set<string>();
  let objectClause = -1; // a negation waits in this clause for the first topic word it applies to
  let refusing = -1; // the clause a prohibition or contrast opened, whose later words are refused ("without it" is a condition)
  const turnedDown = new Set<number>(); // every clause with a prohibition, negation or contrast: none of its words is recommended
  const at = (i: number, clause: number) => (words[i]?.clause === clause ? words[i] : undefined);
  const flagsAt = (i: number, clause: number) => at(i, clause)?.info.flags ?? 0;
  for (let i = 0; i < words.length; i++) {
    const { w, clause, info, part } = words[i]!;
    if (clause === refusing && info.flags & CONTENT) refused.add(info.stem);
    if (info.flags & CONTENT && objectClause >= 0) {
      if (clause === objectClause) negObjects.add(info.stem);
      objectClause = -1;
    }
    if (part) continue;
    const next = at(i + 1, clause)?.w ?? "";
    const subordinate =
      flagsAt(i - 1, clause) & OPENER || (flagsAt(i - 2, clause) | flagsAt(i - 3, clause)) & SUBORDINATOR;
    if (CHOOSE.has(w) || ((w === "went" || w === "go" || w === "going") && next === "with")) sawPrefer = true;
    // "X, not Y" contrasts with the end of the previous clause.
    const commaNot = w === "not" && i > 0 && words[i - 1]!.clause !== clause;
    const contrastAt =
      (w === "instead" && next === "of") || (w === "rather" && next === "than") ? 2 : (w === "over" && sawPrefer) || commaNot ? 1 : 0;
    if (!contrast && contrastAt > 0) {
      const before = new Set<string>();
      const after = new Set<string>();
      for (let j = i + contrastAt; j < words.length && after.size < 3; j++) {
        const x = at(j, clause);
        if (x && x.info.flags & CONTENT) after.add(x.info.stem);
        else if (after.size > 0 || !x) break;
      }
      const leftClause = commaNot ? words[i - 1]!.clause : clause;
      for (let j = i - 1; j >= 0 && before.size < 3 && flagsAt(j, leftClause) & CONTENT; j--) before.add(words[j]!.info.stem);
      contrast = { before, after };
      negated = true;
      refusing = clause;
      objectClause = clause;
    }
    if (next && POS_DIRECTIVE_2.get(w) === next) {
      pos = true;
      i++;
      continue;
    }
    const prohibits = info.flags & NEG_DIR || (next && NEG_DIRECTIVE_2.get(w) === next) || keepsOut(words, i, clause);
    if (!subordinate && prohibits) {
      neg = true;
      refusing = clause;
    }
    else if (info.flags & POS_DIR) pos = true;
    if (!subordinate && info.flags & NEGATION) negated = true;
    if (!subordinate && (prohibits || info.flags & NEGATION)) objectClause = clause;
    if (prohibits || info.flags & NEGATION || contrastAt > 0) turnedDown.add(clause);
  }
  const recommended = new Set<string>();
  for (const x of words) if (x.info.flags & CONTENT && !turnedDown.has(x.clause)) recommended.add(x.info.stem);
  // A prohibition anywhere in a main clause is the lesson's point; it outweighs "use".
  // "Do X instead of Y" recommends X: without a prohibition, a contrast is positive advice.
  return { polarity: neg ? "negative" : pos || contrast ? "positive" : "neutral", negated, contrast, refused, negObjects, recommended };
}

/**
 * Verbs after which "X over Y" is a preference, not a place ("TLS over TCP"): a decision is written
 * "we chose X over Y", and read without the contrast it disagreed with "never Y; use X" — which then
 * retired the decision as "the opposite".
 */
const CHOOSE = new Set([
  "prefer", "prefers", "preferred", "preferring", "choose", "chooses", "chose", "chosen", "choosing",
  "pick", "picks", "picked", "select", "selects", "selected", "opt", "opts", "opted", "favor", "favors", "favored", "favour", "favours", "favoured",
]);

/** "Keep X out of Y", "stay out of Y": a prohibition on putting X in Y. */
function keepsOut(words: readonly LessonWord[], i: number, clause: number): boolean {
  if (words[i]!.w !== "out" || words[i + 1]?.w !== "of" || words[i + 1]!.clause !== clause) return false;
  for (let j = i - 1; j >= 0 && j >= i - 4 && words[j]!.clause === clause; j--) if (KEEP_OUT.has(words[j]!.w)) return true;
  return false;
}
const KEEP_OUT = new Set(["keep", "keeps", "stay", "stays"]);

/** Direction of the main advice: a prohibition (never/don't/avoid/stop/disable) outweighs use/always/prefer. */
export function polarity(text: string): Polarity {
  return direction(lex(text.normalize("NFKC")).words).polarity;
}

/** 0 for space, 1–26 for a–z, 27–36 for 0–9, -1 otherwise. */
function bigramChar(c: number): number {
  if (c === 32) return 0;
  if (c >= 97 && c <= 122) return c - 96;
  if (c >= 48 && c <= 57) return c - 21;
  return -1;
}

const EXACT_BITS = 37 * 37;
const HASHED_BITS = 1024;

/** A bitset rather than a Set: building and intersecting ~250 bigrams costs well under a microsecond. */
function bigramsOf(tokens: string[]): Uint32Array {
  const bits = new Uint32Array((EXACT_BITS + HASHED_BITS + 31) >>> 5);
  const s = tokens.length > 0 ? ` ${tokens.join(" ")} ` : "";
  for (let i = 0; i + 1 < s.length; i++) {
    const a = s.charCodeAt(i);
    const b = s.charCodeAt(i + 1);
    const x = bigramChar(a);
    const y = bigramChar(b);
    const bit = x >= 0 && y >= 0 ? x * 37 + y : EXACT_BITS + ((a * 31 + b) % HASHED_BITS);
    bits[bit >>> 5]! |= 1 << (bit & 31);
  }
  return bits;
}

function popcount(n: number): number {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function bitJaccard(a: Uint32Array, b: Uint32Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    inter += popcount(a[i]! & b[i]!);
    union += popcount(a[i]! | b[i]!);
  }
  return union === 0 ? 0 : inter / union;
}

/** The form of a text a profile (and its vector in meaning.ts) is built from. */
export function profileText(text: string): string {
  return text.normalize("NFKC");
}

/** Topic tokens of lexed words: their stems in text order and the stems' hashes. */
function contentTokens(words: readonly LessonWord[]): { stems: string[]; hashes: number[] } {
  const stems: string[] = [];
  const hashes: number[] = [];
  for (const x of words) {
    if (x.info.flags & CONTENT) {
      stems.push(x.info.stem);
      hashes.push(x.info.hash);
    }
  }
  return { stems, hashes };
}

/** The LessonKey of a text: the fields of its profile compareLessons reads first, equal to them. */
export function lessonKey(text: string): LessonKey {
  const t = profileText(text);
  const { words, plain } = lex(t);
  const { stems, hashes } = contentTokens(words);
  return { text: t, plain, tokens: sortedDistinct(hashes), bigrams: bigramsOf(stems), adviceHead: headOf(t) };
}

export function profileLesson(text: string): LessonProfile {
  const t = profileText(text);
  const { words, plain } = lex(t);
  const { stems: tokens, hashes } = contentTokens(words);
  const polarWords: string[] = [];
  let setting = false;
  for (const x of words) {
    const f = x.info.flags;
    if (f & HAS_ANTONYM && !polarWords.includes(x.w)) polarWords.push(x.w);
    if (f & SETS) setting = true;
  }
  const values = scanValues(t, words);
  const dir = direction(words);
  const before = words.findIndex((x) => x.w === "before");
  let beforeObject: string | undefined;
  for (let j = before + 1; before >= 0 && j < words.length && words[j]!.clause === words[before]!.clause; j++) {
    if (words[j]!.info.flags & CONTENT) {
      beforeObject = words[j]!.info.stem;
      break;
    }
  }
  return {
    text: t,
    plain,
    words,
    polarWords,
    tokens: sortedDistinct(hashes),
    sequence: Uint32Array.from(hashes),
    stems: tokens,
    bigrams: bigramsOf(tokens),
    values,
    valueKeys: new Set(values.map((v) => v.key)),
    ...dir,
    ...(beforeObject ? { beforeObject } : {}),
    setting: setting || dir.polarity === "positive",
  };
}

/** A text profiled, or the key (or profile) given. */
const asKey = <K extends LessonKey>(x: string | K): K | LessonProfile => (typeof x === "string" ? profileLesson(x) : x);

/** The whole profile a key stands for: itself when it is one, else built from its text (NFKC again changes nothing). */
export function fullProfile(key: LessonKey): LessonProfile {
  return "words" in key ? (key as LessonProfile) : profileLesson(key.text);
}

function sortedDistinct(xs: number[]): Uint32Array {
  const sorted = Uint32Array.from(xs).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i]!;
  return sorted.subarray(0, n);
}

/** Jaccard of two sorted distinct arrays, by merging. Nothing in common with nothing is 0. */
function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      inter++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/** Share of the token-set score in the blend; the rest is character bigrams (meets stems and typos). */
const TOKEN_WEIGHT = 0.5;

function blend(a: LessonKey, b: LessonKey, topic: number): number {
  return a.plain === b.plain ? 1 : TOKEN_WEIGHT * topic + (1 - TOKEN_WEIGHT) * bitJaccard(a.bigrams, b.bigrams);
}

/** Similarity in [0,1]: blend of stemmed topic-token Jaccard and character-bigram Jaccard of those tokens. */
export function similarity(a: string | LessonProfile, b: string | LessonProfile): number {
  const pa = asKey(a);
  const pb = asKey(b);
  return blend(pa, pb, jaccard(pa.tokens, pb.tokens));
}

/** A value of `a` that `b` does not state: same key, or for code and quotes the same words anywhere. */
function missingValue(a: LessonProfile, b: LessonProfile): string | null {
  for (const v of a.values) {
    if (b.valueKeys.has(v.key)) continue;
    const kind = v.key.slice(0, v.key.indexOf(":"));
    if ((kind === "code" || kind === "quote") && ` ${b.plain} `.includes(` ${v.key.slice(kind.length + 1)} `)) continue;
    return v.key;
  }
  return null;
}

/** A word of `a` whose antonym `b` says instead ("before" vs "after"). */
function antonym(a: LessonProfile, b: LessonProfile): string | null {
  for (const w of a.polarWords) {
    const anti = ANTONYMS.get(w)!;
    if (b.polarWords.includes(anti) && !b.polarWords.includes(w) && !a.polarWords.includes(anti)) return `${w}/${anti}`;
  }
  return null;
}

const NUMERIC_KEY_RE = /^(?:num|dur|size|pct|ver):/;

function nearOf(p: LessonProfile, v: LessonValue): string[] {
  if (v.near) return v.near;
  const near: string[] = [];
  const ws = p.words;
  let i = 0;
  while (i < ws.length && ws[i]!.at < v.at) i++;
  for (let j = i - 1, seen = 0; j >= 0 && seen < 4 && near.length < 1; j--, seen++) {
    if ((ws[j]!.info.flags & (CONTENT | DIGIT)) === CONTENT) near.push(ws[j]!.info.stem);
  }
  while (i < ws.length && ws[i]!.at < v.end) i++;
  for (let j = i, seen = 0; j < ws.length && seen < 4; j++, seen++) {
    if ((ws[j]!.info.flags & (CONTENT | DIGIT)) === CONTENT) {
      near.push(ws[j]!.info.stem);
      break;
    }
  }
  v.near = near;
  return near;
}

/** With two or more numbers, each must keep a neighbour: "401 … 403" swapped is another lesson. */
function swappedValue(a: LessonProfile, b: LessonProfile): string | null {
  const numeric = a.values.filter((v) => NUMERIC_KEY_RE.test(v.key));
  if (new Set(numeric.map((v) => v.key)).size < 2) return null;
  for (const v of numeric) {
    const nv = nearOf(a, v);
    if (nv.length === 0) continue;
    const same = b.values.filter((w) => w.key === v.key);
    if (same.length > 0 && !same.some((w) => nearOf(b, w).some((n) => nv.includes(n)))) return v.key;
  }
  return null;
}

/** Stems of verbs that say one act: swapping one for another changes no value of the advice. */
const SYNONYM_VERBS: ReadonlyMap<string, number> = new Map(
  [["delet", "remov", "eras"], ["edit", "chang", "modifi", "alter"], ["begin", "start"]].flatMap((group, n) => group.map((stem) => [stem, n] as const)),
);

function sameVerb(x: string, y: string): boolean {
  const g = SYNONYM_VERBS.get(x);
  return g !== undefined && g === SYNONYM_VERBS.get(y);
}

/**
 * The lessons are the same words in the same order except one or two swapped in the middle
 * ("Use Vitest for unit tests" / "Use Jest for unit tests"; "reject empty vectors" / "reject
 * vectors containing NaN"): the swap is then the whole point, and merging would lose it. So is a
 * short insertion into the same frame that names a tool, file, identifier or value ("Use bun
 * publish" / "Use bun pm pack and then npm publish"). A swap of one verb for its synonym is not a
 * swap (SYNONYM_VERBS); any other one-word synonym is lost to this rule: precision first.
 */
function substitution(a: LessonProfile, b: LessonProfile): { shown: string; insertion: boolean } | null {
  const x = a.sequence;
  const y = b.sequence;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  let j = 0;
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) j++;
  const mx = Array.from(x.subarray(i, x.length - j));
  const my = Array.from(y.subarray(i, y.length - j));
  const show = () => `"${a.stems.slice(i, a.stems.length - j).join(" ")}" vs "${b.stems.slice(i, b.stems.length - j).join(" ")}"`;
  if (mx.length > SWAP_SPAN || my.length > SWAP_SPAN || (mx.length === 0 && my.length === 0)) return null;
  if (mx.length === 0 || my.length === 0) {
    const [p, span] = mx.length ? [a, mx.length] : [b, my.length];
    // Added at the end, the words qualify the same advice; added inside, they change how it is done.
    return namesSomethingIn(p, i, i + span) ? { shown: show(), insertion: j === 0 } : null;
  }
  // Words in both middles are the frame moved about; what is left on each side is what was swapped.
  const onlyX = mx.filter((t) => !my.includes(t));
  const onlyY = my.filter((t) => !mx.includes(t));
  if (onlyX.length === 0 || onlyY.length === 0 || onlyX.length > 2 || onlyY.length > 2) return null; // a reorder, or a rewrite
  // One verb for its synonym ("delete" / "remove" the lock file) swaps no value: the same advice in other words.
  if (onlyX.length === 1 && onlyY.length === 1 && sameVerb(a.stems[i + mx.indexOf(onlyX[0]!)]!, b.stems[i + my.indexOf(onlyY[0]!)]!)) return null;
  return { shown: show(), insertion: false };
}
/** The longest middle a swap or an insertion may span (in topic words). */
const SWAP_SPAN = 3;

/** Whether topic words [from, to) of `p` name a tool, file, identifier or value of the lesson. */
function namesSomethingIn(p: LessonProfile, from: number, to: number): boolean {
  const content = p.words.filter((w) => w.info.flags & CONTENT);
  const start = content[from]!.at;
  const last = content[to - 1]!.at;
  const end = p.words.find((w) => w.at > last)?.at ?? p.text.length;
  if (p.values.some((v) => v.at >= start && v.at < end)) return true;
  const span = p.text.slice(start, end).toLowerCase();
  for (const s of specificsOf(p.text)) if (mentions(span, s.slice(s.indexOf(":") + 1))) return true;
  return false;
}

function contrastReversed(a: LessonProfile, b: LessonProfile): boolean {
  if (!a.contrast || !b.contrast) return false;
  const meets = (x: ReadonlySet<string>, y: ReadonlySet<string>) => [...x].some((t) => y.has(t));
  const flips = (x: LessonProfile["contrast"] & object, y: LessonProfile["contrast"] & object) =>
    meets(x.after, y.before) && !meets(x.after, y.after);
  return flips(a.contrast, b.contrast) || flips(b.contrast, a.contrast);
}

/**
 * Each lesson refuses a word the other recommends: "Run npm ci …, never npm install" and "Run npm
 * install …, never npm ci" hold the same words in swapped roles. A word counts as recommended only
 * outside any refusal, so "never as a lone value" / "never pass a lone bind value" is no swap.
 */
function rolesSwapped(a: LessonProfile, b: LessonProfile): boolean {
  const swapsInto = (x: LessonProfile, y: LessonProfile) => {
    const moved = [...x.refused].filter((t) => !y.refused.has(t));
    return moved.length > 0 && moved.every((t) => y.stems.includes(t));
  };
  return (swapsInto(a, b) && swapsInto(b, a)) || recommendationsSwapped(a, b);
}

/**
 * "Never use npm install in CI; use npm ci" and "Never use npm ci in CI; use npm install": what each
 * recommends and the other does not, the other refuses — both ways. The swap above misses it when a
 * word of the shared context is refused by both ("ci" of "in CI" is "ci" of "npm ci"), and the two
 * merged as duplicates. Lessons that agree ("…; never concatenate input into SQL" / "Never concatenate
 * …; use parameterised queries") differ in one direction only.
 */
function recommendationsSwapped(a: LessonProfile, b: LessonProfile): boolean {
  if (a.refused.size === 0 || b.refused.size === 0) return false;
  const only = (x: LessonProfile, y: LessonProfile) => [...x.recommended].filter((t) => !y.recommended.has(t));
  const ab = only(a, b);
  const ba = only(b, a);
  return ab.length > 0 && ba.length > 0 && ab.every((t) => b.refused.has(t)) && ba.every((t) => a.refused.has(t));
}

/** Whether `y` states one of `stems` as a topic word, outside its own refusals. */
function statesAnyOf(y: LessonProfile, stems: ReadonlySet<string>): boolean {
  for (const t of stems) if (y.stems.includes(t) && !y.refused.has(t)) return true;
  return false;
}

/** Something `x` negates is a topic word `y` states. */
const negatesOther = (x: LessonProfile, y: LessonProfile): boolean => statesAnyOf(y, x.negObjects);

/** Something `x` prohibits (anywhere after its prohibition, in that clause) is a topic word `y` states. */
const refusesOther = (x: LessonProfile, y: LessonProfile): boolean => statesAnyOf(y, x.refused);

/**
 * What each lesson's prohibition or contrast is about (its first topic word, negObjects) the other
 * refuses too: "Do not use joi for validation; use zod" and "use zod for validation instead of joi"
 * both turn joi down, and the context after "joi" ("for validation") that one of them refuses is no
 * reversal. Read both ways, and only when both lessons negate something.
 */
function bothRefuse(a: LessonProfile, b: LessonProfile): boolean {
  if (a.negObjects.size === 0 || b.negObjects.size === 0) return false;
  const turnsDown = (x: LessonProfile, y: LessonProfile) => [...x.negObjects].every((t) => y.refused.has(t) || !y.stems.includes(t));
  return turnsDown(a, b) && turnsDown(b, a);
}

/**
 * "Run migrations before deploying" and "Do not deploy before running migrations" give one order: what
 * the prohibition forbids doing first is what the other lesson says must wait. Read as opposite advice
 * (one negative, one positive, sharing words), the agreeing lesson retired the first as its reversal.
 */
function sameOrder(a: LessonProfile, b: LessonProfile): boolean {
  if (!a.beforeObject || !b.beforeObject || a.negated === b.negated) return false;
  const [pos, neg] = a.negated ? [b, a] : [a, b];
  return neg.negObjects.has(pos.beforeObject!) && !neg.negObjects.has(neg.beforeObject!);
}

/** Topic overlap at or above which opposite advice or a different value is flagged as a contradiction. */
export const CONTRADICTION_TOPIC = 0.5;

/** The advice clause: up to the first ";", sentence end, dash or stated reason ("because", "since", "so that"). */
const REASON_BREAK = /;|[.!?](?:\s|$)|\s[—–-]\s|\b(?:because|since|so that|as otherwise|otherwise)\b/i;
const headCache = new WeakMap<LessonKey, ReadonlySet<string>>();

function headOf(text: string): ReadonlySet<string> {
  const m = REASON_BREAK.exec(text);
  return new Set(lessonTokens(m ? text.slice(0, m.index) : text));
}

function adviceHead(p: LessonKey): ReadonlySet<string> {
  if (p.adviceHead) return p.adviceHead;
  let head = headCache.get(p);
  if (!head) headCache.set(p, (head = headOf(p.text)));
  return head;
}

/** Both lessons give advice on the same subject in their first clause (at least three topic words, mostly shared). */
export function sameAdvice(a: LessonKey, b: LessonKey): boolean {
  const x = adviceHead(a);
  const y = adviceHead(b);
  if (x.size < 3 || y.size < 3) return false;
  // The share grows with the words in common, which are at most the smaller head's: when even all of
  // them fall short, no count does (most pairs an import compares), and no word need be looked up.
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  if (small.size / (x.size + y.size - small.size) < HEAD_TOPIC) return false;
  let inter = 0;
  for (const t of small) if (large.has(t)) inter++;
  return inter / (x.size + y.size - inter) >= HEAD_TOPIC;
}
const HEAD_TOPIC = 0.75;

/**
 * Near-duplicate decision. `duplicate` needs similarity ≥ threshold — by the words, or by the words
 * blended with closeness in meaning (so a paraphrase reinforces the lesson it restates) — and the
 * same meaningful values (each number in its place), compatible polarity, the same negation, the
 * same "X instead of Y" direction and the same named things: merging lessons that say different
 * things is the costly error, and those guards veto a merge however close the meaning.
 * `contradiction` flags the same topic (by the words) with opposite advice, or different values for a setting.
 */
export function compareLessons(
  a: string | LessonKey,
  b: string | LessonKey,
  threshold = 0.6,
  profileOf: (key: LessonKey) => LessonProfile = fullProfile,
): LessonComparison {
  const v = judgeLessons(asKey(a), asKey(b), threshold, profileOf);
  const extra = v.meaning === undefined ? {} : { meaning: Math.round(v.meaning * 1000) / 1000 };
  if (v.duplicate) {
    const reason = v.identical
      ? "identical after normalisation"
      : v.byMeaning
        ? `similarity ${v.similarity.toFixed(2)} in words and meaning ≥ ${threshold + MEANING_MARGIN}`
        : `similarity ${v.similarity.toFixed(2)} ≥ ${threshold}`;
    return { similarity: v.similarity, ...extra, duplicate: true, contradiction: false, reason };
  }
  const reason = v.contradiction
    ? `possible contradiction: ${v.blocker}`
    : v.blocker
      ? `not a duplicate: ${v.blocker}`
      : `similarity ${v.similarity.toFixed(2)} < ${threshold}${extra.meaning === undefined ? "" : ` (in meaning ${extra.meaning.toFixed(2)} < ${threshold + MEANING_MARGIN})`}`;
  return { similarity: v.similarity, ...extra, duplicate: false, contradiction: v.contradiction, reason, ...(v.contradiction_kind ? { contradiction_kind: v.contradiction_kind } : {}) };
}

/** compareLessons' decision and what its reason is made of, without the sentence: the write path compares a dozen pairs a row and reads none. */
export interface LessonVerdict {
  /** As LessonComparison's: rounded to three decimals. */
  similarity: number;
  /** The blend with closeness in meaning, unrounded, when it was needed. */
  meaning?: number;
  /** Whether the similarity is the blend with meaning (the words alone fell short). */
  byMeaning: boolean;
  duplicate: boolean;
  /** A duplicate whose words are the same after normalisation. */
  identical: boolean;
  contradiction: boolean;
  contradiction_kind?: LessonComparison["contradiction_kind"];
  /** Why the pair is no duplicate however similar ("" when nothing stands in the way). */
  blocker: string;
}

/** compareLessons on two keys, without its explanation (see LessonVerdict). */
export function judgeLessons(ka: LessonKey, kb: LessonKey, threshold = 0.6, profileOf: (key: LessonKey) => LessonProfile = fullProfile): LessonVerdict {
  const topic = jaccard(ka.tokens, kb.tokens);
  const lexical = blend(ka, kb, topic);
  // The key stands for its text's vector (meaning.ts): a LessonKey and the profile built from it are two keys.
  const meaning = lexical >= threshold ? undefined : meaningSimilarity({ key: ka, text: ka.text }, { key: kb, text: kb.text }, lexical);
  // On meaning the bar is higher: the static model is loose about lessons on one topic (see MEANING_MARGIN).
  const byMeaning = meaning !== undefined && meaning >= threshold + MEANING_MARGIN;
  const sim = byMeaning ? meaning : lexical;
  const round = Math.round(sim * 1000) / 1000;
  // The advice itself, before its reason: "Avoid mocking the DB under test/integration; mocks hid a
  // broken migration" and "Mock the DB under test/integration; the real one was too slow" share it.
  // Closeness in meaning alone makes a merge candidate, never a contradiction: that needs shared words.
  const sameTopic = topic >= CONTRADICTION_TOPIC || lexical >= threshold || sameAdvice(ka, kb);
  if (!sameTopic && sim < threshold) {
    return { similarity: round, meaning, byMeaning, duplicate: false, identical: false, contradiction: false, blocker: "" };
  }
  const pa = profileOf(ka);
  const pb = profileOf(kb);
  // Advice reversed only when what one lesson negates is something the other states: "Go maps are not
  // safe for concurrent writes" and "concurrent writes to a Go map are unsafe" negate nothing of each other.
  const opposite =
    ((pa.polarity === "positive" && pb.polarity === "negative") || (pa.polarity === "negative" && pb.polarity === "positive")) &&
    (refusesOther(pa, pb) || refusesOther(pb, pa)) &&
    !bothRefuse(pa, pb) &&
    !sameOrder(pa, pb);
  const negationDiffers = pa.negated !== pb.negated && negatesOther(pa.negated ? pa : pb, pa.negated ? pb : pa) && !sameOrder(pa, pb);
  const reversed = contrastReversed(pa, pb) || rolesSwapped(pa, pb);
  const differentValue = missingValue(pa, pb) ?? missingValue(pb, pa) ?? antonym(pa, pb) ?? antonym(pb, pa);
  const swappedKey = differentValue ? null : swappedValue(pa, pb) ?? swappedValue(pb, pa);
  const substituted = differentValue || swappedKey ? null : substitution(pa, pb);
  const swapped = swappedKey ?? substituted?.shown ?? null;
  // Words one lesson only adds at its end ("… before alerting the on-call channel in Slack") refine the other: no merge, and no conflict either.
  const conflictingValue = differentValue !== null || (swapped !== null && substituted?.insertion !== true);

  const specifics = specificDifference(pa.text, pb.text);
  let blocker = "";
  if (opposite) blocker = `opposite advice (${pa.polarity} vs ${pb.polarity})`;
  else if (reversed) blocker = "reversed preference (X instead of Y vs Y instead of X)";
  else if (negationDiffers) blocker = "one lesson negates what the other states";
  else if (differentValue) blocker = `different values (${differentValue} is not in both)`;
  else if (swapped) blocker = `same frame, different value (${swapped})`;
  else if (specifics) blocker = `different specifics (${specifics.reason})`;

  if (sim >= threshold && !blocker) {
    return { similarity: round, meaning, byMeaning, duplicate: true, identical: pa.plain === pb.plain, contradiction: false, blocker };
  }
  // Lessons naming different files, tools or identifiers are about two things: neither a merge nor a conflict.
  // (A different version alone is still a conflicting value for the same thing.)
  const aboutOtherThings = specifics !== null && [...specifics.kinds].some((k) => k !== "ver");
  const contradiction =
    sameTopic &&
    !aboutOtherThings &&
    (opposite || reversed || negationDiffers || (conflictingValue && (pa.setting || pb.setting)));
  const contradiction_kind = !contradiction
    ? undefined
    : opposite
      ? "opposite"
      : reversed
        ? "reversed"
        : negationDiffers
          ? "negation"
          : "value";
  return { similarity: round, meaning, byMeaning, duplicate: false, identical: false, contradiction, contradiction_kind, blocker };
}
