// What a lesson is specifically about — files, paths, identifiers, tools, versions — and whether two lessons differ in it.
import { toolNames } from "./tool-names.js";

/**
 * The concrete things a lesson names, each as `kind:value` (lowercase): `path:src/billing/worker.ts`,
 * `file:worker.ts`, `id:usememo`, `tool:vite`, `ver:18.2.0`. Two lessons that name different ones are
 * about different things, however alike the rest of their words.
 */
export function lessonSpecifics(text: string): Set<string> {
  const out = new Set<string>();
  const t = text.normalize("NFKC");
  for (const m of t.matchAll(PATH)) out.add(`path:${m[1]!.toLowerCase().replace(/[.,;:]+$/, "")}`);
  for (const name of fileNames(t)) out.add(`file:${name.toLowerCase()}`);
  for (const m of t.matchAll(DOTFILE)) out.add(`file:${m[1]!.toLowerCase().replace(/[.,;:]+$/, "")}`);
  for (const m of t.matchAll(IDENTIFIER)) {
    const id = m[0].replace(/[.,;:]+$/, "");
    if (!/^(?:e\.g|i\.e|etc)$/i.test(id) && !FILE_EXT.test(id)) out.add(`id:${id.toLowerCase()}`);
  }
  for (const m of t.matchAll(VERSION)) out.add(`ver:${m[0].toLowerCase().replace(/^v/, "")}`);
  const { names, wordlike } = toolNames();
  let sentenceStart = true;
  for (const m of t.matchAll(WORD)) {
    const w = m[0];
    if (/^[.!?;:]$/.test(w)) {
      sentenceStart = true;
      continue;
    }
    const lower = w.toLowerCase();
    if (names.has(lower) || (!sentenceStart && /^[A-Z][a-z]/.test(w) && wordlike.has(lower))) out.add(`tool:${lower}`);
    sentenceStart = false;
  }
  return out;
}

const EXTENSIONS =
  "tsx?|jsx?|mjs|cjs|jsonl?|py|go|rs|rb|java|kt|swift|c|h|cpp|cs|php|md|ya?ml|toml|ini|sql|sh|bash|zsh|s?css|html|vue|svelte|lock|env|db|xml|csv|txt|log|proto|graphql|tf|gradle|dockerfile";
const PATH = /(?:^|[\s(`"'=])((?:\.{0,2}\/|~\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?)/g;
const FILE = new RegExp(`\\b[\\w-]+(?:\\.[\\w-]+)*\\.(?:${EXTENSIONS})\\b`, "gi");
/** A dotfile or dot-directory named on its own: `.env`, `.env.example`, `.gitignore`, `.sqlx`. */
/** A run of the characters a file name is made of: every FILE match lies inside one. */
const NAME_RUN = /[\w.-]+/g;
/** Longer than any file name (a name is at most 255 bytes): such a run is a blob, not a name. */
const MAX_NAME_RUN = 256;

/**
 * FILE's matches, found run by run: the same matches for every run up to MAX_NAME_RUN characters (no match
 * crosses a run's edge, and `\b` reads a run's edge as the text's), none in a longer run or one without a dot.
 * FILE over a whole line of "a." or hyphen-joined ids tried every start to the line's end: quadratic (16 KB, 0.5 s).
 */
function* fileNames(t: string): Generator<string> {
  for (const run of t.matchAll(NAME_RUN)) {
    const r = run[0];
    if (r.length > MAX_NAME_RUN || !r.includes(".")) continue;
    for (const m of r.matchAll(FILE)) yield m[0];
  }
}

const DOTFILE = /(?:^|[\s(`"'=])(\.[A-Za-z0-9][\w-]*(?:\.[\w-]+)*)/g;
const FILE_EXT = new RegExp(`\\.(?:${EXTENSIONS})$`, "i");
// camelCase, PascalCase with an inner capital, snake_case / CONST_CASE, dotted names (req.headers).
const IDENTIFIER = /\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b|\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\b/g;
const VERSION = /\bv?\d+(?:\.\d+){1,3}(?:-[\w.]+)?\b/g;
const WORD = /[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|[.!?;:]/g;

/** What specificDifference reads of a text: the text as `mentions` searches it, and its specifics once asked for. */
interface Named {
  text: string;
  lower: string;
  specifics?: Set<string>;
}

const cache = new Map<string, Named>();
/** ~2 KB a text: an import's rows meet the last few thousand lessons as neighbours (at 2,000 the bench's dedup took ~15 % longer). */
const CACHE_TEXTS = 4096;

/** A text's specifics and searchable form, with a small memo: dedup compares one new lesson against a dozen neighbours. */
function named(text: string): Named {
  let n = cache.get(text);
  if (!n) {
    n = { text, lower: text.normalize("NFKC").toLowerCase() };
    // Full: the oldest goes (a Map keeps insertion order). Clearing it all made a bulk import, whose
    // rows meet the same neighbours for a while, work them out again every time it filled.
    if (cache.size >= CACHE_TEXTS) cache.delete(cache.keys().next().value!);
    cache.set(text, n);
  }
  return n;
}

/** lessonSpecifics, remembered. */
export function specificsOf(text: string): Set<string> {
  return specificsIn(named(text));
}

function specificsIn(n: Named): Set<string> {
  return (n.specifics ??= lessonSpecifics(n.text));
}

const NAME_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * Whether `lower` names `value` as a whole: `.env` is not named by `.env.example`, nor
 * `client.execute` by `client.executeMultiple()`; a file is named by a path ending in it.
 */
export function mentions(lower: string, value: string): boolean {
  const dotfile = value.startsWith(".");
  for (let at = lower.indexOf(value); at >= 0; at = lower.indexOf(value, at + 1)) {
    const before = lower[at - 1] ?? "";
    const after = lower[at + value.length] ?? "";
    const next = lower[at + value.length + 1] ?? "";
    const startsClean = !NAME_CHAR.test(before) && !(value.startsWith(".") && before === ".");
    // A name goes on through a letter, digit, "_" or "-"; a dotfile (`.env`) also through a "." and more name
    // (`.env.example`), while `process.env` is still named by `process.env.HOME`.
    const endsClean = !NAME_CHAR.test(after) && after !== "-" && !(dotfile && after === "." && NAME_CHAR.test(next));
    if (startsClean && endsClean) return true;
  }
  return false;
}

/** Specifics of `a` that `b` does not mention anywhere (a file named in `a` counts as mentioned by a path in `b`). */
function unmatched(a: Named, b: Named): string[] {
  return [...specificsIn(a)].filter((x) => !mentions(b.lower, x.slice(x.indexOf(":") + 1)));
}

export interface SpecificDifference {
  /** What each side names that the other does not, for a reason a person reads. */
  reason: string;
  /** The kinds involved (`path`, `file`, `id`, `tool`, `ver`). */
  kinds: ReadonlySet<string>;
}

/**
 * The one rule that keeps lessons about different things apart (issue 12 item 7): when each lesson
 * names a file, path, identifier, tool, package or version the other does not, they must not merge —
 * "close the vite cursor in src/billing/worker.ts" is not "close the sendgrid cursor in
 * src/reports/service.ts". Lexical and semantic dedup both call this before merging.
 */
export function specificDifference(aText: string, bText: string): SpecificDifference | null {
  const a = named(aText);
  const b = named(bText);
  const onlyA = unmatched(a, b);
  if (onlyA.length === 0) return null;
  const onlyB = unmatched(b, a);
  if (onlyB.length === 0) return null;
  const show = (xs: string[]) => xs.slice(0, 2).map((x) => x.slice(x.indexOf(":") + 1)).join(", ");
  const kinds = new Set([...onlyA, ...onlyB].map((x) => x.slice(0, x.indexOf(":"))));
  return { reason: `${show(onlyA)} vs ${show(onlyB)}`, kinds };
}

/** `specificDifference` as a reason string, or null when the lessons name the same things. */
export function differingSpecifics(aText: string, bText: string): string | null {
  return specificDifference(aText, bText)?.reason ?? null;
}
