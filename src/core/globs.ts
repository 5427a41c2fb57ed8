// File-glob matching shared by retrieval, advisories and detection patterns: one rule for what a glob means.
import picomatch from "picomatch";

export type PathMatcher = (file: string) => boolean;

const cache = new Map<string, PathMatcher>();
const CACHE_MAX = 2000;

/**
 * A compiled glob, cached. Without a slash a glob names a file anywhere ("*.config.ts"), as in
 * .gitignore; dot files count. Paths are matched as given (callers normalise separators).
 */
export function compileGlob(glob: string, opts: { nocase?: boolean } = {}): PathMatcher {
  const key = `${opts.nocase ? "i" : "s"}:${glob}`;
  let m = cache.get(key);
  if (!m) {
    m = picomatch(glob, { dot: true, nocase: opts.nocase ?? false, basename: !glob.includes("/") });
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
