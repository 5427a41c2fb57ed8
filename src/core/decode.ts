// Text of a file or of stdin as editors and shells write it: UTF-8 with or without a byte-order mark, or UTF-16 with one.
import { CairnError } from "../errors.js";

/**
 * The byte order of bytes that start with a UTF-16 byte-order mark (Windows PowerShell 5's `>`,
 * Notepad's "Unicode"), else undefined: the text is UTF-8.
 */
export function utf16Order(bytes: Uint8Array): "le" | "be" | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "be";
  return undefined;
}

/** `text` without the byte-order mark a UTF-8 file may start with (Notepad writes one). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The text of a whole file or stream; a byte-order mark is dropped, never part of the text. With `source`
 * (what to call it: a file's path, "standard input") bytes that are not UTF-8 are refused, naming the
 * line: decoded anyway they would turn each such letter (a Latin-1 "é") into U+FFFD, silently.
 */
export function decodeText(bytes: Buffer, source?: string): string {
  const order = utf16Order(bytes);
  if (order) {
    // Big-endian pairs are swapped to little-endian: every runtime's TextDecoder knows "utf-16le".
    const even = bytes.subarray(0, bytes.length - (bytes.length % 2));
    return new TextDecoder("utf-16le").decode(order === "be" ? Buffer.from(even).swap16() : even);
  }
  if (source !== undefined) {
    try {
      return withoutBom(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
    } catch {
      throw notUtf8(bytes, source);
    }
  }
  return withoutBom(bytes.toString("utf8"));
}

function notUtf8(bytes: Buffer, source: string): CairnError {
  // Line breaks are ASCII, so the lossy text has the file's lines; its first U+FFFD is the first bad byte.
  const lossy = bytes.toString("utf8");
  const at = lossy.indexOf("\uFFFD");
  const line = at < 0 ? 1 : lossy.slice(0, at).split("\n").length;
  return new CairnError(
    "INVALID_INPUT",
    `${source} is not UTF-8 text (line ${line} holds a byte UTF-8 does not allow, as a file saved as Latin-1 or Windows-1252 does); save it as UTF-8 (e.g. \`iconv -f windows-1252 -t utf-8\`) and try again.`,
  );
}
