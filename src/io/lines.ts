// Streams a text file line by line with 1-based line numbers, without loading it whole.
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { utf16Order, withoutBom } from "../core/decode.js";

export interface Line {
  line: number;
  text: string;
  /** The line's bytes are not UTF-8 (a Latin-1 letter): `text` holds U+FFFD in their place, never to be stored. */
  notUtf8?: true;
}

/** What a skipped line that is not UTF-8 is reported with, in every import format. */
export const NOT_UTF8_LINE =
  "not UTF-8 text (a byte UTF-8 does not allow, as a file saved as Latin-1 or Windows-1252 holds); save the file as UTF-8 (e.g. `iconv -f windows-1252 -t utf-8`) and import it again";

/**
 * Yields every line, blank ones included, so numbers match what an editor shows.
 * Splits on `\n` only (and drops one trailing `\r`): node:readline also splits on a lone
 * `\r`, which would cut a JSON line with a raw carriage return in two and shift numbering.
 */
export async function* readLines(path: string): AsyncGenerator<Line> {
  const utf16 = await fileUtf16Order(path);
  if (!utf16) {
    yield* readUtf8Lines(path);
    return;
  }
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  // As in readUtf8Lines: an unfinished line is kept in pieces, and only the new text is searched.
  let pending: string[] = [];
  let line = 0;
  try {
    for await (const chunk of decodeUtf16(stream as AsyncIterable<Buffer>, utf16)) {
      let start = 0;
      let nl: number;
      while ((nl = chunk.indexOf("\n", start)) !== -1) {
        const head = chunk.slice(start, nl);
        yield { line: ++line, text: clean(pending.length ? pending.join("") + head : head, line) };
        pending = [];
        start = nl + 1;
      }
      if (start < chunk.length) pending.push(chunk.slice(start));
    }
    // A final line without a newline still counts; a trailing newline does not add one.
    if (pending.length > 0) yield { line: ++line, text: clean(pending.join(""), line) };
  } finally {
    stream.destroy();
  }
}

/**
 * A UTF-8 file's lines, each decoded on its own so a line whose bytes are not UTF-8 is marked (and
 * numbered) rather than read with U+FFFD where its letters were; a stream decoder could not say which.
 */
async function* readUtf8Lines(path: string): AsyncGenerator<Line> {
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  // The start of a line no chunk has ended yet, in pieces: joined once when its newline comes, since
  // joining at every chunk copied a long line over and over (a 60 MB line took minutes).
  let pending: Buffer[] = [];
  let line = 0;
  const decode = (bytes: Buffer): Line => {
    line++;
    const text = clean(bytes.toString("utf8"), line);
    // Only a line showing U+FFFD is checked again: it may be written in the file (valid) or stand for bad bytes.
    if (!text.includes("\uFFFD")) return { line, text };
    try {
      strict.decode(bytes);
      return { line, text };
    } catch {
      return { line, text, notUtf8: true };
    }
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      let nl: number;
      while ((nl = chunk.indexOf(10, start)) !== -1) {
        const head = chunk.subarray(start, nl);
        yield decode(pending.length ? Buffer.concat([...pending, head]) : head);
        pending = [];
        start = nl + 1;
      }
      // Copied: the stream may reuse its buffer, and a long line's tail must outlive this chunk.
      if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
    }
    // A final line without a newline still counts; a trailing newline does not add one.
    if (pending.length > 0) yield decode(Buffer.concat(pending));
  } finally {
    stream.destroy();
  }
}

/**
 * The byte order of a file that starts with a UTF-16 byte-order mark (what Windows PowerShell 5's
 * `>` and Notepad's "Unicode" write), else undefined: the file is read as UTF-8.
 */
async function fileUtf16Order(path: string): Promise<"le" | "be" | undefined> {
  const fh = await open(path, "r");
  try {
    const { bytesRead, buffer } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return utf16Order(buffer.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/** Text of a UTF-16 stream, chunk by chunk; a character or byte pair cut between chunks is carried over. */
async function* decodeUtf16(chunks: AsyncIterable<Buffer>, order: "le" | "be"): AsyncGenerator<string> {
  // Big-endian pairs are swapped to little-endian: every runtime's TextDecoder knows "utf-16le".
  const decoder = new TextDecoder("utf-16le");
  let odd: Buffer | undefined;
  for await (const chunk of chunks) {
    let bytes = odd ? Buffer.concat([odd, chunk]) : chunk;
    odd = bytes.length % 2 ? bytes.subarray(bytes.length - 1) : undefined;
    if (odd) bytes = bytes.subarray(0, bytes.length - 1);
    if (order === "be") bytes = Buffer.from(bytes).swap16();
    const text = decoder.decode(bytes, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

function clean(text: string, line: number): string {
  const noCr = text.endsWith("\r") ? text.slice(0, -1) : text;
  return line === 1 ? withoutBom(noCr) : noCr;
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
