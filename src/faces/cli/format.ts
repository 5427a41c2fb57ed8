// Output for people (tables, colour, truncation) and for scripts (one JSON value on stdout).
import pc from "picocolors";
import { stripInvisibleChars, truncateAtWord, visibleControls } from "../../quality/sanitize.js";

type Colors = ReturnType<typeof pc.createColors>;

/** NO_COLOR (no-color.org) and FORCE_COLOR=0/false turn colour off, another FORCE_COLOR forces it; a terminal that says it is dumb gets none. */
function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR.toLowerCase() !== "false";
  return Boolean(stream.isTTY) && env.TERM !== "dumb";
}

export class Output {
  readonly json: boolean;
  /** Colours for stdout and stderr separately: one may be a pipe while the other is a terminal. */
  readonly c: Colors;
  readonly ce: Colors;

  constructor(json: boolean, env: NodeJS.ProcessEnv = process.env) {
    this.json = json;
    this.c = pc.createColors(colorEnabled(process.stdout, env));
    this.ce = pc.createColors(colorEnabled(process.stderr, env));
  }

  /** With --json: exactly one JSON value. Otherwise a line of text. */
  print(value: unknown): void {
    process.stdout.write(typeof value === "string" && !this.json ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`);
  }

  line(text = ""): void {
    if (!this.json) process.stdout.write(`${text}\n`);
  }

  /** Diagnostics go to stderr in every mode, so stdout stays parseable. */
  error(text: string): void {
    process.stderr.write(`${this.ce.red(visibleControls(text))}\n`);
  }

  warn(text: string): void {
    process.stderr.write(`${this.ce.yellow(visibleControls(text))}\n`);
  }

  note(text: string): void {
    process.stderr.write(`${this.ce.dim(visibleControls(text))}\n`);
  }
}

/** Stored text may be anything an agent wrote; a terminal must never receive its escape sequences. */
export function clean(text: string): string {
  return stripInvisibleChars(text).replace(/\s+/g, " ").trim();
}

/** Lines of at most `width` characters, broken between words. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && [...line].length + 1 + [...word].length > width) {
      lines.push(line);
      line = "";
    }
    line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

export function terminalWidth(): number {
  return process.stdout.columns && process.stdout.columns > 40 ? process.stdout.columns : 120;
}

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** The one flexible column takes what the terminal has left, and is truncated to it (at a word). */
  flex?: boolean;
  /** For the flexible column: continue on more lines instead of truncating. */
  wrap?: boolean;
  color?: (s: string, row: T) => string;
}

/** A plain aligned table; colour is applied after padding so escape codes never skew the widths. */
export function table<T>(rows: readonly T[], cols: readonly Column<T>[], out: Output, after?: (row: T) => string[]): string[] {
  const cells = rows.map((r) => cols.map((c) => clean(c.value(r))));
  const widths = cols.map((c, i) => Math.max(c.header.length, ...cells.map((row) => [...row[i]!].length)));
  const fixed = widths.reduce((sum, w, i) => (cols[i]!.flex ? sum : sum + w + 2), 0);
  const flexWidth = Math.max(20, terminalWidth() - fixed);
  const flexAt = cols.findIndex((c) => c.flex);
  const fmt = (vals: string[], row?: T) =>
    vals
      .map((v, i) => {
        const col = cols[i]!;
        if (col.flex) return col.wrap ? v : truncateAtWord(v, flexWidth);
        const padded = v.padEnd(widths[i]!);
        return row !== undefined && col.color ? col.color(padded, row) : padded;
      })
      .join("  ")
      .trimEnd();
  const lines = [out.c.bold(fmt(cols.map((c) => c.header)))];
  // Continuation lines of a wrapped column start where that column starts.
  const indent = " ".repeat(widths.slice(0, Math.max(0, flexAt)).reduce((a, w) => a + w + 2, 0));
  rows.forEach((r, i) => {
    const vals = [...cells[i]!];
    const wrapped = flexAt >= 0 && cols[flexAt]!.wrap ? wrapWords(vals[flexAt]!, flexWidth) : undefined;
    if (wrapped) vals[flexAt] = wrapped[0] ?? "";
    lines.push(fmt(vals, r));
    for (const more of wrapped?.slice(1) ?? []) lines.push(`${indent}${more}`);
    if (after) lines.push(...after(r));
  });
  return lines;
}

export function statusColor(out: Output, status: string): (s: string) => string {
  const c = out.c;
  if (status === "quarantined") return c.red;
  if (status === "archived" || status === "superseded") return c.dim;
  if (status === "promoted" || status === "established") return c.green;
  if (status === "draft") return c.yellow;
  return (s) => s;
}

export function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}
