// Detection patterns: classified as regex (RE2, linear time), glob or keywords, compiled once, matched within bounds.
import { compileGlob } from "../core/globs.js";
import { RE2JS } from "re2js";
import type { QualityIssue } from "../quality/types.js";

export type PatternKind = "regex" | "glob" | "keywords";

export interface CompiledPattern {
  kind: PatternKind;
  source: string;
  /** Regex and keywords: does the text contain it? `lower` is patternText(text), worked out once per check. */
  matchText(text: string, lower: string): boolean;
  /** Glob: does a path match it? */
  matchFile(file: string): boolean;
}

/** Longer patterns are ignored: the stored field is capped at 300 characters anyway. */
export const MAX_PATTERN_CHARS = 300;
const MIN_KEYWORD_CHARS = 3;

const PREFIX = /^(regex|re|glob|keywords|kw)\s*:\s*/i;
// `.` is left out on purpose: dotted names (req.user) are ordinary keywords.
const REGEX_META = /[\\^$()[\]{}|+?*]/;

function looksLikeGlob(p: string): boolean {
  return (
    /^[\w.\-/*?{},!@[\]]+$/.test(p) &&
    /[*?]/.test(p) &&
    (p.includes("/") || p.startsWith("*.") || p.startsWith("**")) &&
    !/[\\^$()|+]/.test(p)
  );
}

export function classifyPattern(raw: string): { kind: PatternKind; body: string; explicit: boolean } {
  const p = raw.trim();
  const m = PREFIX.exec(p);
  if (m) {
    const tag = m[1]!.toLowerCase();
    const kind: PatternKind = tag.startsWith("re") ? "regex" : tag === "glob" ? "glob" : "keywords";
    return { kind, body: p.slice(m[0].length).trim(), explicit: true };
  }
  if (looksLikeGlob(p)) return { kind: "glob", body: p, explicit: false };
  if (!REGEX_META.test(p)) return { kind: "keywords", body: p, explicit: false };
  return { kind: "regex", body: p, explicit: false };
}

/**
 * The text keywords are looked for in: lower-cased, each run of spaces, tabs and line breaks one space —
 * "prisma migrate  reset" is still the phrase "prisma migrate reset".
 */
export function patternText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ");
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * Whether keyword `k` occurs where a word starts: at the start, after a non-word character, or at a
 * camelCase hump ("refreshToken" holds "token"). Inside a word it does not: "eval(" is not in "retrieval(".
 * It may run on (a keyword matches the start of a longer word: "user" in "username"). `spaced`: the text
 * with patternText's spacing but its own case, asked for only when a hump must be told.
 */
function atWordStart(k: string, lower: string, spaced: () => string): boolean {
  if (!WORD_CHAR.test(k[0]!)) return lower.includes(k);
  for (let at = lower.indexOf(k); at >= 0; at = lower.indexOf(k, at + 1)) {
    if (at === 0 || !WORD_CHAR.test(lower[at - 1]!)) return true;
    const cased = spaced();
    if (cased.length === lower.length && /\p{Lu}/u.test(cased[at]!) && /[\p{Ll}\p{N}]/u.test(cased[at - 1]!)) return true;
  }
  return false;
}

/** A list ("token, claims") matches on any phrase; the words left of a broken regex must all appear. */
function keywordMatcher(words: string[], all: boolean, source: string): CompiledPattern | undefined {
  const kws = [...new Set(words.map((w) => patternText(w.trim())).filter((w) => w.length >= MIN_KEYWORD_CHARS))];
  if (kws.length === 0) return undefined;
  return {
    kind: "keywords",
    source,
    matchText: (text, lower) => {
      // Worked out once per text, and only when a keyword sits inside a word.
      let cased: string | undefined;
      const spaced = () => (cased ??= text.replace(/\s+/g, " "));
      return all ? kws.every((k) => atWordStart(k, lower, spaced)) : kws.some((k) => atWordStart(k, lower, spaced));
    },
    matchFile: () => false,
  };
}

function literalWords(regex: string): string[] {
  return regex.replace(/\\[A-Za-z0-9]/g, " ").match(/[A-Za-z_][A-Za-z0-9_]+/g) ?? [];
}

/**
 * RE2 steps per character of text past which a regex is matched by its words instead. RE2 is linear in
 * the text but times its program: "(?:\\w+\\s*){999}\\d" (4,000 steps) took seconds on a 64 KB text, in one
 * call the check's time budget cannot interrupt. Ordinary patterns are far below (token\\.(claims|exp): 28;
 * gitleaks' secret rules: 213 at the median, 7 of 218 over the limit).
 */
const MAX_PROGRAM = 500;

/** The regex RE2 runs, or why it is unusable as one (not RE2 syntax, or too large to match within bounds). */
function compileRe2(body: string): { re: RE2JS; problem?: undefined } | { re?: undefined; problem: string } {
  let re: RE2JS;
  try {
    re = RE2JS.compile(body);
  } catch (e) {
    return { problem: `is not RE2 syntax (${(e as Error).message.replace(/^error parsing regexp:\s*/, "")})` };
  }
  const size = re.programSize();
  if (size > MAX_PROGRAM) return { problem: `is too large to match in bounded time (${size} steps per character, over ${MAX_PROGRAM}; a counted repeat such as {999} multiplies it)` };
  return { re };
}

/** Undefined when nothing usable is left (empty, too long, no keyword of 3+ characters). */
export function compilePattern(raw: string | undefined): CompiledPattern | undefined {
  if (!raw || raw.length > MAX_PATTERN_CHARS) return undefined;
  const { kind, body } = classifyPattern(raw);
  if (!body) return undefined;
  if (kind === "glob") {
    const isMatch = compileGlob(body);
    return { kind, source: raw, matchText: () => false, matchFile: isMatch };
  }
  if (kind === "keywords") return keywordMatcher(body.includes(",") ? body.split(",") : [body], false, raw);
  const { re } = compileRe2(body);
  if (!re) return keywordMatcher(literalWords(body), true, raw);
  return { kind, source: raw, matchText: (text) => re.test(text), matchFile: () => false };
}

/** Write-time checks: a pattern must be usable, and must not fire on every text. */
export function patternIssues(raw: string | undefined): QualityIssue[] {
  if (!raw || !raw.trim()) return [];
  const issue = (severity: "reject" | "warn", code: string, message: string): QualityIssue => ({ layer: "structure", severity, code, message });
  const { kind, body } = classifyPattern(raw);
  const compiled = compilePattern(raw);
  if (kind === "regex") {
    const { problem } = compileRe2(body);
    if (problem) {
      if (!compiled) return [issue("reject", "invalid_detection_pattern", `detection pattern ${problem} and has no keyword to fall back on; use a plain regex, a glob, or "kw: a, b"`)];
      return [issue("warn", "detection_pattern_keywords", `detection pattern ${problem}; it will match texts containing all of: ${literalWords(body).join(", ")}`)];
    }
    if (compiled?.matchText("", "") && compiled.matchText("zq\u0001", "zq\u0001")) {
      return [issue("reject", "invalid_detection_pattern", "detection pattern matches any text, so it would fire on every edit; make it specific")];
    }
  }
  if (!compiled) return [issue("reject", "invalid_detection_pattern", `detection pattern is unusable: keywords need ${MIN_KEYWORD_CHARS}+ characters`)];
  return [];
}
