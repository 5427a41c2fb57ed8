// What no store may be given: text PostgreSQL cannot hold (a NUL byte, half of a surrogate pair) is refused alike by every store, before anything is written.
import { CairnError } from "../errors.js";

/**
 * A NUL, or a UTF-16 surrogate without its other half (broken text: a cut emoji, bytes read as text): under the
 * `u` flag a pair is read as one code point, so the surrogate class matches only a lone half (as in quality/sanitize.ts).
 */
const UNSTORABLE_RE = /\u0000|[\ud800-\udfff]/u;

const UNSTORABLE_ALL_RE = new RegExp(UNSTORABLE_RE.source, "gu");

/**
 * Text kept as a record of what was refused (a rejected lesson): each NUL and lone surrogate becomes U+FFFD,
 * which is what PostgreSQL's driver and UTF-8 make of them, so every store keeps (and finds) the same text.
 */
export function storableText(text: string): string {
  return UNSTORABLE_RE.test(text) ? text.replace(UNSTORABLE_ALL_RE, "\ufffd") : text;
}

/** The path of the first unstorable string in `value` (`lesson`, `tags[2]`, `data.note`), if any. */
function unstorablePath(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === "string") return UNSTORABLE_RE.test(value) ? at || "text" : undefined;
  if (typeof value !== "object" || value === null || depth > 32) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = unstorablePath(value[i], `${at}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(value)) {
    const hit = unstorablePath(k, at ? `${at}.${k}` : k, depth + 1) ?? unstorablePath(v, at ? `${at}.${k}` : k, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Whether unstorablePath would find anything, walking the same strings (keys and values, to the same
 * depth) without building a path or an entry pair for each: every row an import stores passes
 * through here, and the paths of a clean entry were ~9 KB of garbage a row.
 */
function holdsUnstorable(value: unknown, depth: number): boolean {
  if (typeof value === "string") return UNSTORABLE_RE.test(value);
  if (typeof value !== "object" || value === null || depth > 32) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsUnstorable(value[i], depth + 1)) return true;
    return false;
  }
  // Own enumerable keys, as Object.entries lists them (the order does not change a yes or no).
  for (const k in value) {
    if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
    if (UNSTORABLE_RE.test(k) || holdsUnstorable((value as Record<string, unknown>)[k], depth + 1)) return true;
  }
  return false;
}

/** The path of the first string in `value` holding a NUL byte or a lone surrogate (`phase`, `tags[2]`), if any. */
export function unstorableField(value: unknown): string | undefined {
  return holdsUnstorable(value, 0) ? unstorablePath(value, "") : undefined;
}

/** What is wrong with such a string, after its field's name: the same words wherever it is refused. */
export const UNSTORABLE_PROBLEM = "holds a NUL byte or a broken character (half of a surrogate pair): remove it (it is often a cut emoji or binary pasted as text) and try again";

/**
 * Refuses `value` (an entry, an event's data) when a string in it holds a NUL byte or a lone surrogate:
 * SQLite would keep it and PostgreSQL fail on it, so a lesson would live on one backend only.
 */
export function assertStorable(value: unknown, what: string): void {
  const where = holdsUnstorable(value, 0) ? unstorablePath(value, "") : undefined;
  if (where) {
    throw new CairnError(
      "INVALID_INPUT",
      `The ${what} holds a NUL byte or a broken character (half of a surrogate pair) in ${where}: remove it (it is often a cut emoji or binary pasted as text) and try again.`,
      { field: where },
    );
  }
}
