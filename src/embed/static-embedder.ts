// The built-in offline embedder: a shipped word-vector table; a text's vector is the normalised sum of its tokens' rows.
import fs from "node:fs";
import path from "node:path";
import { queryTerms } from "../core/text.js";
import { packageRoot } from "../core/package-info.js";
import type { SyncEmbedder } from "./embedder.js";
import { decodeHeader, decodeTableBody, HEADER_PROBE_BYTES, type TableBody, type TableHeader } from "./static-table.js";
import { WordIndex } from "./word-index.js";

export const STATIC_MODEL_PREFIX = "cairn-static-v1";
export const STATIC_TABLE_FILE = "cairn-static.bin";

/** Terms read from one text: far more than any lesson holds, a bound against pathological input. */
const MAX_TERMS = 4096;

export function defaultTablePath(): string {
  return path.join(packageRoot(), "assets", "embeddings", STATIC_TABLE_FILE);
}

/** `cairn-static-v1-<first 8 hex of the table body's sha256>`: a rebuilt table is a new vector space. */
export function staticModelId(header: TableHeader): string {
  return `${STATIC_MODEL_PREFIX}-${header.bodySha256.slice(0, 8)}`;
}

function readHeader(file: string): TableHeader {
  const fd = fs.openSync(file, "r");
  try {
    let probe = Buffer.alloc(HEADER_PROBE_BYTES);
    let n = fs.readSync(fd, probe, 0, probe.length, 0);
    const len = n >= 12 ? probe.readUInt32LE(8) + 16 : 0;
    if (len > n) {
      probe = Buffer.alloc(len);
      n = fs.readSync(fd, probe, 0, len, 0);
    }
    return decodeHeader(probe.subarray(0, n)).header;
  } finally {
    fs.closeSync(fd);
  }
}

interface Loaded {
  table: TableBody;
  /** Token or alias → row. */
  index: WordIndex;
}

/**
 * Tokenises with Cairn's own query tokenizer (lowercased words, camelCase pieces, stop words and
 * filler dropped, each term once), so the embedder sees the same terms the text index does.
 * The table is read on first use and kept: the model id and dimension come from its header alone.
 */
export class StaticEmbedder implements SyncEmbedder {
  readonly #source: string | Uint8Array;
  #header: TableHeader | undefined;
  #loaded: Loaded | undefined;

  /** `source`: a table file path (default: the shipped table) or the table's bytes. */
  constructor(source: string | Uint8Array = defaultTablePath()) {
    this.#source = source;
  }

  get header(): TableHeader {
    if (!this.#header) this.#header = typeof this.#source === "string" ? readHeader(this.#source) : decodeHeader(this.#source).header;
    return this.#header;
  }

  get modelId(): string {
    return staticModelId(this.header);
  }

  get dimension(): number {
    return this.header.dim;
  }

  /** Number of tokens the table knows. */
  get vocabularySize(): number {
    return this.header.count;
  }

  #load(): Loaded {
    if (this.#loaded) return this.#loaded;
    const bytes = typeof this.#source === "string" ? fs.readFileSync(this.#source) : this.#source;
    const table = decodeTableBody(bytes);
    const index = new WordIndex(table.words, table.header.count, table.header.aliases ?? 0);
    this.#header = table.header;
    return (this.#loaded = { table, index });
  }

  /** The terms of `text` the table knows, as the embedder reads them (for explanations and tests). */
  knownTerms(text: string): string[] {
    const { index } = this.#load();
    return queryTerms(text, MAX_TERMS).filter((t) => index.has(t));
  }

  embedSync(text: string): Float32Array | null {
    return this.embedWithCoverage(text).vector;
  }

  /** The vector, and how many of the text's terms the table knows: a vector of a few known words among many unknown ones says little. */
  embedWithCoverage(text: string): { vector: Float32Array | null; known: number; terms: number } {
    const { table, index } = this.#load();
    const { dim } = table.header;
    const { rows, scales } = table;
    const acc = new Float32Array(dim);
    let known = 0;
    const terms = queryTerms(text, MAX_TERMS);
    for (const term of terms) {
      const i = index.get(term);
      if (i === undefined) continue;
      known++;
      const s = scales[i]!;
      const off = i * dim;
      for (let j = 0; j < dim; j++) acc[j]! += s * rows[off + j]!;
    }
    const none = { vector: null, known, terms: terms.length };
    if (known === 0) return none;
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += acc[j]! * acc[j]!;
    if (!(norm > 0)) return none;
    const inv = 1 / Math.sqrt(norm);
    for (let j = 0; j < dim; j++) acc[j]! *= inv;
    return { vector: acc, known, terms: terms.length };
  }

  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    return texts.map((t) => this.embedSync(t));
  }
}

let shared: StaticEmbedder | undefined;

/** The process-wide built-in embedder over the shipped table (loaded on first embedding). */
export function builtinEmbedder(): StaticEmbedder {
  return (shared ??= new StaticEmbedder());
}
