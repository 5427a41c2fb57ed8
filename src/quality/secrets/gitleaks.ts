// Runs gitleaks' published rules (and extra-rules.ts) on a lesson: keyword pre-filter, RE2 (linear-time) regexes, entropy and allowlists.
import { RE2JS } from "re2js";
import { EXTRA_RULES } from "./extra-rules.js";
import { GITLEAKS_CONFIG } from "./gitleaks-rules.js";
import type { GitleaksAllowlist, GitleaksRule } from "./gitleaks-types.js";
import { shannonEntropy } from "./entropy.js";
import { containsAnyOf } from "./word-trie.js";

/** Where a secret sits in the text (UTF-16 offsets of exactly its bytes) and what found it. */
export interface SecretSpan {
  start: number;
  end: number;
  /** The rule id, e.g. `github-pat`, or one of our own (`url-password`, `private-key`…). */
  rule: string;
}

interface CompiledAllowlist {
  regex?: RE2JS;
  stopwords?: (lowerSecret: string) => boolean;
  target: "secret" | "match" | "line";
  and: boolean;
}

interface CompiledRule {
  source: GitleaksRule;
  /** Its place in RULES: findings come in rule order. */
  order: number;
  /** Compiled on first use: compiling all 220 rules costs ~1 s, and a lesson needs a handful. */
  regex?: RE2JS;
  allowlists?: CompiledAllowlist[];
}

/**
 * gitleaks ends most tokens at a quote, a space or `;`, as code writes them; a lesson's sentence also puts `,` `.` `)` `]` `}` `>`
 * `!` or `?` right after one ("use dop_v1_…, then", "(npm_…)"). Only for rules that know a token by its own prefix or shape: a
 * rule reading a value assigned beside a provider's name (`AIRTABLE_TOKEN=…`, and the generic rule) reads code, where a value
 * cut at a `.` or `,` is as often a stand-in's first piece (`patXXXX….xxxx`) or an argument's name.
 */
const CODE_END = `(?:[\\x60'"\\s;]|\\\\[nr]|$)`;
const PROSE_END = `(?:[\\x60'"\\s;,.)\\]}>!?]|\\\\[nr]|$)`;
const ASSIGNED = `(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)`;
const inProse = (r: GitleaksRule): GitleaksRule => (r.regex.includes(ASSIGNED) ? r : { ...r, regex: r.regex.split(CODE_END).join(PROSE_END) });

const RULES: CompiledRule[] = [...GITLEAKS_CONFIG.rules.map(inProse), ...EXTRA_RULES].map((source, order) => ({ source, order }));
const ALWAYS = RULES.filter((r) => !r.source.keywords?.length);

/** keyword → the rules it may wake up. One scan of the lowercased text finds every keyword present. */
const BY_KEYWORD = new Map<string, CompiledRule[]>();
for (const r of RULES) {
  for (const k of r.source.keywords ?? []) {
    const key = k.toLowerCase();
    BY_KEYWORD.set(key, [...(BY_KEYWORD.get(key) ?? []), r]);
  }
}

let keywordScan: RegExp | undefined;
const CONTAINED = new Map<string, string[]>();
function containedIn(keyword: string): string[] {
  let list = CONTAINED.get(keyword);
  if (!list) {
    list = [...BY_KEYWORD.keys()].filter((k) => keyword.includes(k));
    CONTAINED.set(keyword, list);
  }
  return list;
}
/** Literal alternation, longest first so `sk_live` is seen inside `sk_live_…`; overlapping keywords are found by re-scanning from each hit. */
function keywordsIn(lower: string): Set<string> {
  keywordScan ??= new RegExp(
    [...BY_KEYWORD.keys()].sort((a, b) => b.length - a.length).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
    "g",
  );
  const found = new Set<string>();
  keywordScan.lastIndex = 0;
  for (let m = keywordScan.exec(lower); m; m = keywordScan.exec(lower)) {
    // The alternation reports the longest keyword at a place; shorter ones it contains are present too.
    for (const k of containedIn(m[0])) found.add(k);
    keywordScan.lastIndex = m.index + 1;
  }
  return found;
}

function compileAllowlist(a: GitleaksAllowlist): CompiledAllowlist {
  return {
    ...(a.regexes?.length ? { regex: RE2JS.compile(a.regexes.map((r) => `(?:${r})`).join("|")) } : {}),
    ...(a.stopwords?.length ? { stopwords: containsAnyOf(a.stopwords.map((w) => w.toLowerCase())) } : {}),
    target: a.regexTarget ?? "secret",
    and: a.condition === "AND",
  };
}

let globalAllowlist: CompiledAllowlist | undefined;

function allowed(lists: readonly CompiledAllowlist[], secret: string, match: string, line: () => string): boolean {
  for (const a of lists) {
    const target = a.target === "match" ? match : a.target === "line" ? line() : secret;
    const byRegex = a.regex !== undefined && target !== "" && a.regex.test(target);
    const byStopword = a.stopwords !== undefined && secret !== "" && a.stopwords(secret.toLowerCase());
    if (a.and) {
      if ((a.regex === undefined || byRegex) && (a.stopwords === undefined || byStopword)) return true;
    } else if (byRegex || byStopword) return true;
  }
  return false;
}

/**
 * How far a line allowlist reads either side of a finding. gitleaks' line patterns (`--mount=type=secret,`, an import, Yocto's
 * `SRC…="…"`) sit within a few dozen characters of it; read to the line's real ends, a 100 KB paste on one line with thousands of
 * findings was read whole for each (quadratic).
 */
const LINE_REACH = 512;

function lineAround(text: string, start: number, end: number): string {
  const lo = Math.max(0, start - LINE_REACH);
  const hi = Math.min(text.length, end + LINE_REACH);
  const before = text.slice(lo, start).lastIndexOf("\n");
  const after = text.slice(end, hi).indexOf("\n");
  return text.slice(before < 0 ? lo : lo + before + 1, after < 0 ? hi : end + after);
}

function runRule(rule: CompiledRule, text: string, out: SecretSpan[]): void {
  const src = rule.source;
  rule.regex ??= RE2JS.compile(src.regex);
  rule.allowlists ??= (src.allowlists ?? []).map(compileAllowlist);
  globalAllowlist ??= compileAllowlist(GITLEAKS_CONFIG.allowlist);
  // A yes/no search runs on RE2's DFA (~4 µs for generic-api-key on a lesson); finding the groups
  // runs the NFA (~100 µs). Most lessons that wake a rule by keyword hold no match at all.
  if (!rule.regex.test(text)) return;
  const m = rule.regex.matcher(text);
  const groups = m.groupCount();
  while (m.find()) {
    let start = m.start();
    let end = m.end();
    // gitleaks trims newlines off a match before reading its secret.
    while (end > start && text.charCodeAt(end - 1) === 10) end--;
    while (start < end && text.charCodeAt(start) === 10) start++;
    if (start === end) continue;
    const match = text.slice(start, end);
    if (src.secretGroup && src.secretGroup <= groups) {
      if (m.start(src.secretGroup) < 0) continue;
      start = m.start(src.secretGroup);
      end = m.end(src.secretGroup);
    } else {
      for (let g = 1; g <= groups; g++) {
        const gs = m.start(g);
        if (gs >= 0 && m.end(g) > gs) {
          start = gs;
          end = m.end(g);
          break;
        }
      }
    }
    const secret = text.slice(start, end);
    if (src.entropy && shannonEntropy(secret) <= src.entropy) continue;
    const line = () => lineAround(text, start, end);
    if (allowed([globalAllowlist], secret, match, line) || allowed(rule.allowlists, secret, match, line)) continue;
    out.push({ start, end, rule: src.id });
  }
}

/** Every gitleaks finding in the text, in rule order (overlaps are resolved by the caller). */
export function gitleaksSpans(text: string, lower = text.toLowerCase()): SecretSpan[] {
  // toLowerCase can change length for a few characters; keywords are then looked up in a same-length copy.
  const view = lower.length === text.length ? lower : text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const wake = new Set<CompiledRule>(ALWAYS);
  for (const k of keywordsIn(view)) for (const r of BY_KEYWORD.get(k) ?? []) wake.add(r);
  const out: SecretSpan[] = [];
  // The few rules a lesson wakes, in rule order, rather than all of RULES asked whether each woke.
  for (const r of [...wake].sort((a, b) => a.order - b.order)) runRule(r, text, out);
  return out;
}

/** Rule ids gitleaks ships (for the evaluation's per-family report). */
export function gitleaksRuleIds(): string[] {
  return RULES.map((r) => r.source.id);
}
