// Text of a file or of stdin as editors and shells write it: UTF-8 with or without a byte-order mark, or UTF-16 with one.

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

/** The text of a whole file or stream; a byte-order mark is dropped, never part of the text. */
export function decodeText(bytes: Buffer): string {
  const order = utf16Order(bytes);
  if (order) {
    // Big-endian pairs are swapped to little-endian: every runtime's TextDecoder knows "utf-16le".
    const even = bytes.subarray(0, bytes.length - (bytes.length % 2));
    return new TextDecoder("utf-16le").decode(order === "be" ? Buffer.from(even).swap16() : even);
  }
  return withoutBom(bytes.toString("utf8"));
}
