// A pasted diff, log line or URL cut down to the words a lesson would use: changed lines before a diff's headers, no ids, no percent-escapes.
import { withoutStackNoise } from "./stack-trace.js";

/** A diff's header lines: they name the file (kept once, as its name) and hashes, never what changed. */
const DIFF_HEADER_RE = /^(?:diff --git |index [0-9a-f]+\.\.[0-9a-f]+|--- (?:a\/|\/dev\/null)|\+\+\+ (?:b\/|\/dev\/null)|(?:new|deleted) file mode |similarity index |rename (?:from|to) )/;
/** A hunk header; what follows its second `@@` is the enclosing function, context. */
const HUNK_RE = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/;
const DIFF_FILE_RE = /^\+\+\+ b\/(.+)$/;

/**
 * A unified diff with its changed lines first (markers dropped), then its context lines, then the
 * names of its files: the query's term cap (context.ts) is otherwise spent on `diff`, `git`, the
 * path four times over, two hashes and a file mode before the first changed word. Text that is not
 * a diff comes back unchanged.
 */
export function withoutDiffNoise(text: string): string {
  if (!/^(?:diff --git |@@ -\d)/m.test(text)) return text;
  const changed: string[] = [];
  const context: string[] = [];
  const files: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const file = DIFF_FILE_RE.exec(line);
    if (file) files.push(file[1]!.split("/").pop() ?? "");
    if (DIFF_HEADER_RE.test(line)) continue;
    const hunk = HUNK_RE.exec(line);
    if (hunk) context.push(hunk[1]!);
    else if (/^[+-]/.test(line)) changed.push(line.slice(1));
    else context.push(line.replace(/^ /, ""));
  }
  return [...changed, ...context, ...files].join("\n");
}

/**
 * Values that identify one run and are in no lesson: timestamps, UUIDs, IP addresses, hashes and hex
 * ids (seven or more hex digits, letters and digits both), and numbers of six or more digits (ids,
 * epoch milliseconds, file modes). Shorter numbers stay: versions, ports, HTTP statuses, error codes
 * (`23505`, `E0502`) are what lessons name.
 */
const RUN_ID_RE = new RegExp(
  [
    String.raw`\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\b`,
    String.raw`\b\d{1,2}\/[A-Z][a-z]{2}\/\d{4}(?::\d{2}){3}(?: [+-]\d{4})?`,
    String.raw`\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b`,
    String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`,
    String.raw`\b\d{1,3}(?:[.-]\d{1,3}){3}\b`,
    String.raw`\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b`,
    String.raw`\b\d{6,}\b`,
  ].join("|"),
  "gi",
);
/** A URL's percent-escape (`%3A`, `%20`): a separator, spelled so the next word was glued to its hex digits. */
const PERCENT_ESCAPE_RE = /%[0-9A-Fa-f]{2}/g;

/** The text without one run's identifiers and with percent-escapes read as the separators they are. */
export function withoutRunIds(text: string): string {
  // One cheap test first: most texts hold no digit and no escape at all.
  if (!/[\d%]/.test(text)) return text;
  return text.replace(PERCENT_ESCAPE_RE, " ").replace(RUN_ID_RE, " ");
}

/** What a pasted field's words are read from: stack frames, diff headers and run ids taken out (see stack-trace.ts). */
export function withoutPasteNoise(text: string): string {
  return withoutRunIds(withoutDiffNoise(withoutStackNoise(text)));
}
