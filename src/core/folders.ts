// Creating a file's folders without Node's recursive mkdir, and finding where such a creation would start.
import fs from "node:fs";
import path from "node:path";

/** The closest of `dir` and its ancestors that exists (the root itself is never answered): where creating `dir` would start. */
export function nearestExistingAncestor(dir: string): string | undefined {
  for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) if (fs.existsSync(d)) return d;
  return undefined;
}

/**
 * Creates `dir` and its missing parents one level at a time. Node's recursive mkdirSync reads ENOENT as
 * "a parent is missing" and, under /proc or /sys (where a folder can never be made), tries again forever.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  let d = dir;
  for (; !fs.existsSync(d) && d !== path.dirname(d); d = path.dirname(d)) missing.unshift(d);
  if (!fs.statSync(d).isDirectory()) throw Object.assign(new Error(`${d} is not a folder`), { code: "ENOTDIR" });
  for (const level of missing) {
    try {
      fs.mkdirSync(level);
    } catch (e) {
      // Another process made it meanwhile: what was wanted.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !fs.statSync(level).isDirectory()) throw e;
    }
  }
}
