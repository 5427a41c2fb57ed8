// File-glob matching shared by retrieval, advisories and detection patterns: one rule for what a glob means.
import picomatch from "picomatch";

export type PathMatcher = (file: string) => boolean;

const cache = new Map<string, PathMatcher>();
const CACHE_MAX = 2000;

/**
 * A glob as .gitignore reads it, for picomatch: a slash at the start or in the middle anchors it at the
 * project root (paths are relative to it, so a leading one is dropped, "/src/**" → "src/**"), a trailing
 * slash names a folder and everything in it ("src/auth/" → "src/auth/**"; "auth/" → any folder named
 * auth), and without a slash it names a file anywhere ("*.config.ts"). People write file_patterns the
 * way they write .gitignore lines; read any other way, such a lesson never applies to any file.
 */
function asGitignore(glob: string): { pattern: string; basename: boolean } {
  const folder = /[^/]\/+$/.test(glob);
  let g = folder ? glob.replace(/\/+$/, "") : glob;
  const anchored = g.includes("/");
  if (anchored && g.startsWith("/") && !g.startsWith("//")) g = g.replace(/^\/+/, "");
  if (!g) return { pattern: glob, basename: false };
  if (folder) return { pattern: anchored ? `${g}/**` : `**/${g}/**`, basename: false };
  return { pattern: g, basename: !anchored };
}

/**
 * A compiled glob, cached, with .gitignore's meaning (asGitignore); dot files count. Paths are matched
 * as given (callers normalise separators).
 */
export function compileGlob(glob: string, opts: { nocase?: boolean } = {}): PathMatcher {
  const key = `${opts.nocase ? "i" : "s"}:${glob}`;
  let m = cache.get(key);
  if (!m) {
    const { pattern, basename } = asGitignore(glob);
    m = picomatch(pattern, { dot: true, nocase: opts.nocase ?? false, basename });
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
