// Streams a text file line by line with 1-based line numbers, without loading it whole.
import { createReadStream } from "node:fs";

export interface Line {
  line: number;
  text: string;
}

/**
 * Yields every line, blank ones included, so numbers match what an editor shows.
 * Splits on `\n` only (and drops one trailing `\r`): node:readline also splits on a lone
 * `\r`, which would cut a JSON line with a raw carriage return in two and shift numbering.
 */
export async function* readLines(path: string): AsyncGenerator<Line> {
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 64 * 1024 });
  let pending = "";
  let line = 0;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      pending += chunk;
      let start = 0;
      let nl: number;
      while ((nl = pending.indexOf("\n", start)) !== -1) {
        yield { line: ++line, text: clean(pending.slice(start, nl), line) };
        start = nl + 1;
      }
      pending = pending.slice(start);
    }
    // A final line without a newline still counts; a trailing newline does not add one.
    if (pending.length > 0) yield { line: ++line, text: clean(pending, line) };
  } finally {
    stream.destroy();
  }
}

function clean(text: string, line: number): string {
  const noCr = text.endsWith("\r") ? text.slice(0, -1) : text;
  return line === 1 && noCr.charCodeAt(0) === 0xfeff ? noCr.slice(1) : noCr;
}

/** The first `max` lines (for format detection); stops reading as soon as it has them. */
export async function readFirstLines(path: string, max = 20): Promise<string[]> {
  const out: string[] = [];
  for await (const { text } of readLines(path)) {
    out.push(text);
    if (out.length >= max) break;
  }
  return out;
}
