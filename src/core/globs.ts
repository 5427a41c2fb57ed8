// File-glob matching shared by retrieval, advisories and detection patterns: one rule for what a glob means, matched in linear time.
import { RE2JS } from "re2js";

export type PathMatcher = (file: string) => boolean;
/** anyGlobMatcher's shape, for callers that load this module only when they have files to match. */
export type GlobMatcherFactory = (globs: readonly string[], opts?: { nocase?: boolean }) => PathMatcher;

const cache = new Map<string, PathMatcher>();
const CACHE_MAX = 2000;
/** A class that matches nothing: what a glob part RE2 cannot say (a negated extglob) becomes. */
const NOTHING = "[^\\s\\S]";
/** A brace range longer than this ("{1..100000}") stays literal text rather than a huge alternation. */
const MAX_RANGE = 1000;

/**
 * A glob as .gitignore reads it: a slash at the start or in the middle anchors it at the project root
 * (paths are relative to it, so a leading one is dropped, "/src/**" → "src/**"), a trailing slash names
 * a folder and everything in it ("src/auth/" → "src/auth/**"; "auth/" → any folder named auth), and
 * without a slash it names a file anywhere ("*.config.ts"). People write file_patterns the way they
 * write .gitignore lines; read any other way, such a lesson never applies to any file.
 */
function asGitignore(glob: string): { pattern: string; basename: boolean } {
  const folder = /[^/]\/+$/.test(glob);
  // "./src/**" is written relative to the project root, as "src/**" is.
  let g = (folder ? glob.replace(/\/+$/, "") : glob).replace(/^(?:\.\/)+(?=.)/, "/");
  const anchored = g.includes("/");
  if (anchored && g.startsWith("/") && !g.startsWith("//")) g = g.replace(/^\/+/, "");
  if (!g) return { pattern: glob, basename: false };
  if (folder) return { pattern: anchored ? `${g}/**` : `**/${g}/**`, basename: false };
  return { pattern: g, basename: !anchored };
}

const quote = (ch: string): string => ch.replace(/[\\^$.|?*+()[\]{}\-/]/g, "\\$&");

/** Index of the bracket, brace or paren closing the one at `open`, skipping escapes and nested groups; -1 if none. */
function closing(p: string, open: number, close: string): number {
  const opener = p[open]!;
  let depth = 0;
  for (let i = open; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\") i++;
    else if (c === "[" && opener !== "[") {
      const end = classEnd(p, i);
      if (end > 0) i = end;
    } else if (c === opener) depth++;
    else if (c === close && --depth === 0) return i;
  }
  return -1;
}

/** Where a bracket class opened at `open` ends ("]" first inside it is a member); -1 if it never does. */
function classEnd(p: string, open: number): number {
  let i = open + 1;
  if (p[i] === "!" || p[i] === "^") i++;
  if (p[i] === "]") i++;
  for (; i < p.length; i++) {
    if (p[i] === "\\") i++;
    else if (p[i] === "[" && p[i + 1] === ":") {
      const end = p.indexOf(":]", i + 2);
      if (end > 0) i = end + 1;
    } else if (p[i] === "]") return i;
  }
  return -1;
}

/** The top-level pieces of `body` split at `sep` (outside escapes, classes, braces and parens). */
function splitTop(body: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\") i++;
    else if (c === "[") {
      const end = classEnd(body, i);
      if (end > 0) i = end;
    } else if (c === "{" || c === "(") depth++;
    else if (c === "}" || c === ")") depth--;
    else if (c === sep && depth === 0) {
      parts.push(body.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(body.slice(from));
  return parts;
}

/** The members of a brace range, "1..3" or "a..e" (at most MAX_RANGE), else undefined. */
function braceRange(inner: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(inner);
  if (!m) return undefined;
  const numeric = /\d/.test(m[1]!);
  if (numeric !== /\d/.test(m[2]!)) return undefined;
  const from = numeric ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2]!.charCodeAt(0);
  if (Math.abs(to - from) >= MAX_RANGE) return undefined;
  const out: string[] = [];
  for (let v = from; ; v += from <= to ? 1 : -1) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
    if (v === to) break;
  }
  return out;
}

function bracketClass(inner: string): string {
  let negate = false;
  let s = inner;
  if (s.startsWith("!") || s.startsWith("^")) {
    negate = true;
    s = s.slice(1);
  }
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\" && i + 1 < s.length) out += quote(s[++i]!);
    else if (c === "[" && s[i + 1] === ":") {
      const end = s.indexOf(":]", i + 2);
      out += s.slice(i, end + 2);
      i = end + 1;
    } else if (c === "-" && i > 0 && i < s.length - 1) out += "-";
    else out += quote(c);
  }
  // A class never matches the path separator, as a `*` does not.
  return negate ? `[^/${out}]` : `[${out}]`;
}

/**
 * The RE2 syntax of a glob: `*` within a segment, `**` as whole segments (any depth, none too), `?`,
 * classes, braces and extglobs @( ) ?( ) *( ) +( ). RE2 runs in time linear in the path whatever
 * the glob: a lesson's "src/*a*a*a*a*a*b" or "*(*a)" cannot stall a check on a long file name, as
 * picomatch's backtracking JavaScript regexes did. `!(…)` has no RE2 form and matches nothing.
 */
function toRe2(p: string, segmentStart: boolean): string {
  let out = "";
  let atSeg = segmentStart;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    const next = p[i + 1];
    if (c === "\\" && next !== undefined) {
      out += quote(next);
      i++;
      atSeg = false;
      continue;
    }
    if ("@?*+!".includes(c) && next === "(") {
      const end = closing(p, i + 1, ")");
      if (end > 0) {
        const alts = splitTop(p.slice(i + 2, end), "|").map((a) => toRe2(a, false)).join("|");
        out += c === "!" ? NOTHING : `(?:${alts})${c === "@" ? "" : c}`;
        i = end;
        atSeg = false;
        continue;
      }
    }
    if (c === "*") {
      let j = i;
      while (p[j + 1] === "*") j++;
      const after = p[j + 1];
      if (j > i && atSeg && (after === undefined || after === "/")) {
        // A globstar: "**/" is any run of folders (none too); a final "**" anything below.
        if (after === "/") {
          out += "(?:.*/)?";
          i = j + 1;
        } else {
          out += ".*";
          i = j;
        }
        continue;
      }
      out += "[^/]*";
      i = j;
      atSeg = false;
      continue;
    }
    if (c === "?") {
      out += "[^/]";
      atSeg = false;
      continue;
    }
    if (c === "[") {
      const end = classEnd(p, i);
      if (end > 0) {
        out += bracketClass(p.slice(i + 1, end));
        i = end;
        atSeg = false;
        continue;
      }
    }
    if (c === "{" || c === "(") {
      // Braces "{a,b}" / "{1..3}", and a bare group "(a|b)" as picomatch read it; anything else is literal.
      const end = closing(p, i, c === "{" ? "}" : ")");
      const inner = end > 0 ? p.slice(i + 1, end) : "";
      const alts = end <= 0 ? [] : c === "{" ? (braceRange(inner) ?? splitTop(inner, ",")) : splitTop(inner, "|");
      if (alts.length > 1) {
        out += `(?:${alts.map((a) => toRe2(a, c === "{" && atSeg)).join("|")})`;
        i = end;
        atSeg = false;
        continue;
      }
    }
    if (c === "/") {
      // "src/**" holds src itself as well as everything below it; "src*/**" only what is below a match.
      if (/^\/\*\*+$/.test(p.slice(i))) {
        out += /[*?[{(]/.test(p.slice(p.lastIndexOf("/", i - 1) + 1, i)) ? "/.*" : "(?:/.*)?";
        break;
      }
      out += "/";
      atSeg = true;
      continue;
    }
    out += quote(c);
    atSeg = false;
  }
  return out;
}

function compile(glob: string, nocase: boolean): PathMatcher {
  const { pattern: g, basename } = asGitignore(glob);
  // A leading "!" (not an extglob) matches every path the rest does not.
  const negate = g.startsWith("!") && g[1] !== "(";
  const body = negate ? g.slice(1) : g;
  let re: RE2JS;
  try {
    re = RE2JS.compile(`^(?:${toRe2(body, true)})$`, RE2JS.DOTALL | (nocase ? RE2JS.CASE_INSENSITIVE : 0));
  } catch {
    // Not expressible (an over-long repeat, a broken class): a lesson scoped so applies to no file.
    return () => false;
  }
  return (file) => {
    const target = basename ? file.slice(file.lastIndexOf("/") + 1) : file;
    return re.matches(target) !== negate;
  };
}

/** A compiled glob, cached, with .gitignore's meaning (asGitignore); dot files count. Paths are matched as given (callers normalise separators). */
export function compileGlob(glob: string, opts: { nocase?: boolean } = {}): PathMatcher {
  const key = `${opts.nocase ? "i" : "s"}:${glob}`;
  let m = cache.get(key);
  if (!m) {
    m = compile(glob, opts.nocase ?? false);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, m);
  }
  return m;
}

/** True when any of `globs` matches the file. */
export function anyGlobMatcher(globs: readonly string[], opts: { nocase?: boolean } = {}): PathMatcher {
  const ms = globs.map((g) => compileGlob(g, opts));
  return (file) => ms.some((m) => m(file));
}
