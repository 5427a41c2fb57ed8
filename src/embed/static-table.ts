// The file format of the built-in word-vector table: a JSON header, then per-token scales, int8 rows and the tokens.
import { createHash } from "node:crypto";

/**
 * Layout (little-endian):
 *   "CAIRNVEC" · u32 header length · header JSON (UTF-8) · zero padding to a multiple of 4 ·
 *   body = f32 scale[count] · i8 row[count × dim] · lines joined by "\n" (UTF-8): the `count` tokens,
 *   then `aliases` lines "word\trow" (inflections that read as a kept token's row: "freezes" → "freeze").
 * A row's vector is `scale · row`: the scale carries both the int8 step and the token's weight,
 * so a text's vector is a plain sum of rows, normalised.
 */
const MAGIC = "CAIRNVEC";
export const TABLE_FORMAT = 1;

export interface TableHeader {
  format: number;
  dim: number;
  count: number;
  /** sha256 (hex) of the body: the model id derives from it, so any change to the table changes the id. */
  bodySha256: string;
  /** Alias lines after the tokens (0 when absent). */
  aliases?: number;
  /** How the table was made (recipe and sources), for the NOTICE and for humans; not read at run time. */
  meta?: Record<string, unknown>;
}

export interface Table {
  header: TableHeader;
  scales: Float32Array;
  rows: Int8Array;
  tokens: string[];
  aliases: Array<[string, number]>;
}

/** Bytes before the body: magic, header length, header, padding. */
function bodyOffset(headerBytes: number): number {
  const end = MAGIC.length + 4 + headerBytes;
  return Math.ceil(end / 4) * 4;
}

export function encodeTable(t: { dim: number; scales: Float32Array; rows: Int8Array; tokens: string[]; aliases?: Array<[string, number]>; meta?: Record<string, unknown> }): Buffer {
  const count = t.tokens.length;
  const aliases = t.aliases ?? [];
  if (t.scales.length !== count || t.rows.length !== count * t.dim) throw new RangeError("table sizes disagree");
  if ([...t.tokens, ...aliases.map(([w]) => w)].some((w) => /[\n\t]/.test(w) || w.length === 0)) throw new RangeError("a token is empty or holds a newline or tab");
  if (aliases.some(([, row]) => !Number.isInteger(row) || row < 0 || row >= count)) throw new RangeError("an alias points outside the table");
  const words = Buffer.from([...t.tokens, ...aliases.map(([w, row]) => `${w}\t${row}`)].join("\n"), "utf8");
  const body = Buffer.concat([Buffer.from(t.scales.buffer, t.scales.byteOffset, t.scales.byteLength), Buffer.from(t.rows.buffer, t.rows.byteOffset, t.rows.byteLength), words]);
  const header: TableHeader = { format: TABLE_FORMAT, dim: t.dim, count, bodySha256: createHash("sha256").update(body).digest("hex"), ...(aliases.length ? { aliases: aliases.length } : {}), ...(t.meta ? { meta: t.meta } : {}) };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const head = Buffer.alloc(bodyOffset(json.length));
  head.write(MAGIC, 0, "latin1");
  head.writeUInt32LE(json.length, MAGIC.length);
  json.copy(head, MAGIC.length + 4);
  return Buffer.concat([head, body]);
}

/** The header alone, from the first bytes of a table file (enough to name the model without loading it). */
export function decodeHeader(bytes: Uint8Array): { header: TableHeader; bodyStart: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < MAGIC.length + 4 || buf.toString("latin1", 0, MAGIC.length) !== MAGIC) throw new Error("not a Cairn word-vector table (bad magic)");
  const len = buf.readUInt32LE(MAGIC.length);
  if (buf.length < MAGIC.length + 4 + len) throw new Error("word-vector table header is truncated");
  const header = JSON.parse(buf.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + len)) as TableHeader;
  if (header.format !== TABLE_FORMAT) throw new Error(`word-vector table format ${header.format} is not supported (expected ${TABLE_FORMAT})`);
  return { header, bodyStart: bodyOffset(len) };
}

/** Bytes needed to read any header: callers read this much first, then more if the header says so. */
export const HEADER_PROBE_BYTES = 4096;

/** The table's parts without splitting its word list: what the embedder keeps (see WordIndex). */
export interface TableBody {
  header: TableHeader;
  scales: Float32Array;
  rows: Int8Array;
  /** The UTF-8 lines: `count` tokens, then `aliases` lines "word\trow". */
  words: Uint8Array;
}

export function decodeTableBody(bytes: Uint8Array, opts: { verify?: boolean } = {}): TableBody {
  const { header, bodyStart } = decodeHeader(bytes);
  const { dim, count } = header;
  const scaleBytes = count * 4;
  const rowBytes = count * dim;
  if (bytes.length < bodyStart + scaleBytes + rowBytes) throw new Error("word-vector table body is truncated");
  if (opts.verify) {
    const sha = createHash("sha256").update(bytes.subarray(bodyStart)).digest("hex");
    if (sha !== header.bodySha256) throw new Error("word-vector table body does not match its checksum");
  }
  // Copied (Uint8Array's slice copies, Buffer's does not): a Float32Array needs 4-byte alignment, which a pooled Buffer's offset does not promise.
  const scales = new Float32Array(Uint8Array.prototype.slice.call(bytes, bodyStart, bodyStart + scaleBytes).buffer);
  const rows = new Int8Array(bytes.buffer, bytes.byteOffset + bodyStart + scaleBytes, rowBytes);
  const words = new Uint8Array(bytes.buffer, bytes.byteOffset + bodyStart + scaleBytes + rowBytes, bytes.length - bodyStart - scaleBytes - rowBytes);
  return { header, scales, rows, words };
}

/** The whole table with its word list split into strings (for the build script and tests). */
export function decodeTable(bytes: Uint8Array, opts: { verify?: boolean } = {}): Table {
  const { header, scales, rows, words } = decodeTableBody(bytes, opts);
  const { count } = header;
  const lines = Buffer.from(words.buffer, words.byteOffset, words.length).toString("utf8").split("\n");
  const aliasCount = header.aliases ?? 0;
  if (lines.length !== count + aliasCount) throw new Error(`word-vector table lists ${lines.length} lines, header says ${count} tokens and ${aliasCount} aliases`);
  const tokens = lines.slice(0, count);
  const aliases = lines.slice(count).map((l): [string, number] => {
    const tab = l.indexOf("\t");
    return [l.slice(0, tab), Number(l.slice(tab + 1))];
  });
  return { header, scales, rows, tokens, aliases };
}
