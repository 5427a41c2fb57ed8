// One vector space of one SQLite store held in memory as 1-bit sign codes (plus the int8 vectors while they are small): a shortlist by Hamming distance, re-ranked by exact int8 cosine.
import type { SqliteDriver } from "./driver.js";
import { dotInt8, Int8Rows } from "./int8-rows.js";
import { descendingOrder } from "./rank-order.js";
import { SignCodes } from "./sign-codes.js";

/** int8 with one scale per vector: a quarter of f32's bytes, and the ranking it gives is the same to ±0.005 cosine. */
export function quantize(v: Float32Array): { scale: number; q: Int8Array } {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const scale = max > 0 ? max / 127 : 1;
  const q = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) q[i] = Math.round(v[i]! / scale);
  return { scale, q };
}

/** Components of a sign code: the dimension rounded up to a power of two (the Hadamard transform's size). */
function codeBits(dimension: number): number {
  let p = 32;
  while (p < dimension) p *= 2;
  return p;
}

/** 32-bit words of one sign code. */
export function codeWords(dimension: number): number {
  return codeBits(dimension) / 32;
}

/** A fixed pseudo-random ±1 per component (a hash of its index): the same in every process and release. */
function flipsFor(bits: number): Float64Array {
  return Float64Array.from({ length: bits }, (_, i) => ((Math.imul(i + 1, 2654435761) >>> 7) & 1 ? 1 : -1));
}
const FLIPS = new Map<number, Float64Array>();
/** One scratch buffer per code size: coding 100k vectors must not allocate (and fragment) 100k buffers. */
const SCRATCH = new Map<number, Float64Array>();

/**
 * One bit per component of the vector rotated by a randomised Hadamard transform (random signs, then
 * the Walsh–Hadamard butterfly), set when positive. Vectors at a small angle agree on most bits; the
 * rotation spreads a model's few high-variance components over all bits, which on the bench corpus
 * lifts the share of the exact top 40 found in a 16×40 shortlist from 0.89 to 0.97.
 */
export function signCode(v: ArrayLike<number>, out: Uint32Array = new Uint32Array(codeWords(v.length)), at = 0): Uint32Array {
  const bits = codeBits(v.length);
  let flips = FLIPS.get(bits);
  if (!flips) FLIPS.set(bits, (flips = flipsFor(bits)));
  let a = SCRATCH.get(bits);
  if (!a) SCRATCH.set(bits, (a = new Float64Array(bits)));
  a.fill(0);
  for (let i = 0; i < v.length; i++) a[i] = v[i]! * flips[i]!;
  for (let h = 1; h < bits; h *= 2) {
    for (let i = 0; i < bits; i += h * 2) {
      for (let j = i; j < i + h; j++) {
        const x = a[j]!, y = a[j + h]!;
        a[j] = x + y;
        a[j + h] = x - y;
      }
    }
  }
  for (let w = 0; w < bits / 32; w++) out[at + w] = 0;
  for (let i = 0; i < bits; i++) if (a[i]! > 0) out[at + (i >>> 5)]! |= 1 << (i & 31);
  return out;
}

/**
 * Up to this many bytes of int8 vectors a space keeps them in memory (256k vectors of 256 dimensions,
 * 85k of 768): re-ranking reads them for free. Beyond, it keeps only the sign codes and re-ranks its
 * shortlist from SQLite — measured at 100k, reading 640 vectors back costs ~9 ms CPU per tier (blob or
 * hex() alike) against ~2.7 ms for the whole in-memory search, so that is the fallback for huge spaces only.
 */
export const IN_MEMORY_VECTOR_BYTES = 64 * 1024 * 1024;

/** Candidates ranked by similarity: entries' seqs, best first. */
export interface Ranked {
  seq: number;
  similarity: number;
}

/**
 * One batch of vectors packed into a single row: seqs and scales as JSON, the vectors concatenated in
 * one blob. A row per vector left ~20 MB more resident per 100k-vector space after loading (a Buffer
 * and a row object each grew V8's young generation and the allocator), for 29 MB of arrays.
 * Scales travel with 17 significant digits, as the driver's packed reads do, so they read back exactly.
 */
interface VectorBatch {
  n: number;
  last: number | null;
  seqs: string;
  scales: string;
  vecs: Uint8Array | ArrayBuffer | null;
}

/** Vectors per batch read: at 100k, batches of 1,000 left ~1 MB resident beyond the arrays, of 5,000 ~7 MB. */
const LOAD_BATCH = 1000;

/** The driver hands blobs back as Buffers or ArrayBuffers depending on its build. */
function int8Of(vec: Uint8Array | ArrayBuffer, d: number): Int8Array {
  return vec instanceof ArrayBuffer ? new Int8Array(vec, 0, d) : new Int8Array(vec.buffer, vec.byteOffset, d);
}

/**
 * Loaded on the first search of its space, then topped up before each search with the rows whose
 * id is past the last one seen (every put takes a new id, in this process or another), so a
 * search never reads the whole table twice. Rows of deleted entries may linger here: a search
 * only returns entries the SQL filter finds, so they never surface.
 */
export class VectorIndex {
  readonly #words: number;
  readonly #codes: SignCodes;
  #seqs = new Int32Array(0);
  /** seq → slot + 1 (0: none); seqs are dense row ids, so an array beats a Map's per-entry cost. */
  #slotBySeq = new Int32Array(0);
  /** int8 vectors and scales by slot while the space is small (see IN_MEMORY_VECTOR_BYTES); else empty. */
  #matrix: Int8Rows | undefined;
  #scales = new Float32Array(0);
  #size = 0;
  #lastId = 0;

  constructor(
    readonly driver: SqliteDriver,
    readonly modelId: string,
    readonly dimension: number,
    readonly inMemoryBytes = IN_MEMORY_VECTOR_BYTES,
    /** False: shortlist and re-rank in plain JS even where WebAssembly SIMD runs (tests compare the two). */
    simd = true,
  ) {
    this.#words = codeWords(dimension);
    this.#codes = new SignCodes(this.#words, simd);
    this.#matrix = new Int8Rows(dimension, simd);
  }

  get size(): number {
    return this.#size;
  }

  /** True while re-ranking reads int8 vectors from memory rather than from SQLite. */
  get vectorsInMemory(): boolean {
    return this.#matrix !== undefined;
  }

  /** Reads rows put since the last call (all of them the first time). */
  refresh(): void {
    if (this.#lastId === 0 && this.#size === 0) {
      // The first load sizes its arrays from the count: doubling from 256 would leave up to a third unused.
      const count = this.driver.get<{ entries: number }>("SELECT entries FROM entry_vector_counts WHERE model = ? AND dim = ?", [this.modelId, this.dimension])?.entries ?? 0;
      if (count > this.#seqs.length) this.#grow(count);
    }
    const d = this.dimension;
    for (;;) {
      // A vector of another length (never written by putVectors) would shift every one after it in the blob.
      const b = this.driver.get<VectorBatch>(
        `SELECT count(*) AS n, max(id) AS last, json_group_array(seq) AS seqs, '[' || group_concat(printf('%!.17g', scale)) || ']' AS scales,
                unhex(group_concat(hex(vec), '')) AS vecs
           FROM (SELECT id, seq, scale, vec FROM entry_vectors WHERE model = ? AND dim = ? AND id > ? AND length(vec) = dim ORDER BY id LIMIT ${LOAD_BATCH})`,
        [this.modelId, d, this.#lastId],
      );
      if (!b || b.n === 0 || b.last === null || !b.vecs) return;
      const seqs = JSON.parse(b.seqs) as number[];
      const scales = JSON.parse(b.scales) as number[];
      const vecs = int8Of(b.vecs, b.n * d);
      for (let i = 0; i < b.n; i++) this.#set(seqs[i]!, scales[i]!, vecs.subarray(i * d, (i + 1) * d));
      this.#lastId = b.last;
      if (b.n < LOAD_BATCH) return;
    }
  }

  #set(seq: number, scale: number, q: Int8Array): void {
    const d = this.dimension;
    if (seq >= this.#slotBySeq.length) {
      const s = new Int32Array(Math.max(1024, seq * 2));
      s.set(this.#slotBySeq);
      this.#slotBySeq = s;
    }
    let slot = this.#slotBySeq[seq]! - 1;
    if (slot < 0) {
      slot = this.#size++;
      if (slot >= this.#seqs.length) this.#grow(Math.max(256, Math.ceil(this.#seqs.length * 1.25)));
      this.#slotBySeq[seq] = slot + 1;
      this.#seqs[slot] = seq;
    }
    signCode(q, this.#codes.codes, slot * this.#words);
    if (this.#matrix && (slot + 1) * d > this.inMemoryBytes) {
      this.#matrix = undefined;
      this.#scales = new Float32Array(0);
    }
    if (this.#matrix) {
      this.#scales[slot] = scale;
      this.#matrix.set(slot, q);
    }
  }

  #grow(capacity: number): void {
    this.#codes.reserve(capacity);
    const s = new Int32Array(capacity);
    s.set(this.#seqs);
    this.#seqs = s;
    const rows = Math.min(capacity, Math.floor(this.inMemoryBytes / this.dimension));
    if (this.#matrix && rows > this.#matrix.capacity) {
      this.#matrix.reserve(rows);
      const sc = new Float32Array(rows);
      sc.set(this.#scales);
      this.#scales = sc;
    }
  }

  /**
   * The `shortlist` slots whose sign codes differ least from the query's (ties at the cut taken in
   * slot order), among those `accept` passes: a histogram of distances finds the cut in two linear
   * passes, no sort of all n.
   */
  #shortlist(query: Float32Array, shortlist: number, accept?: (seq: number) => boolean): Int32Array {
    const n = this.#size;
    const qc = signCode(query);
    const bits = this.#words * 32;
    const seqs = this.#seqs;
    const { dist, hist } = this.#codes.scan(qc, n, accept && ((slot) => !accept(seqs[slot]!)));
    let cut = 0;
    let below = 0;
    while (cut <= bits && below + hist[cut]! < shortlist) below += hist[cut++]!;
    // Every slot nearer than `cut`, then slots at `cut` until the shortlist is full.
    let atCut = Math.min(shortlist - below, cut <= bits ? hist[cut]! : 0);
    const out = new Int32Array(below + atCut);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const di = dist[i]!;
      if (di < cut) out[k++] = i;
      else if (di === cut && atCut > 0) {
        out[k++] = i;
        atCut--;
      }
    }
    return out;
  }

  /**
   * The nearest vectors to `query` among those `accept` passes, best first by exact int8 cosine:
   * every vector when the space holds no more than `shortlist`, else the `shortlist` nearest by sign
   * code, re-ranked.
   */
  nearest(query: Float32Array, shortlist: number, accept?: (seq: number) => boolean): Ranked[] {
    const n = this.#size;
    if (n === 0 || shortlist <= 0) return [];
    let slots: Int32Array;
    if (n <= shortlist) {
      slots = new Int32Array(n);
      let k = 0;
      for (let i = 0; i < n; i++) if (!accept || accept(this.#seqs[i]!)) slots[k++] = i;
      slots = slots.subarray(0, k);
    } else slots = this.#shortlist(query, shortlist, accept);
    const { scale: qs, q } = quantize(query);
    const d = this.dimension;
    // Candidates in slot order (SQLite returns them in the order asked), then best first, ties kept in that order.
    let seqs: Int32Array;
    let sims: Float64Array;
    if (this.#matrix) {
      const dots = this.#matrix.dots(slots, q);
      seqs = new Int32Array(slots.length);
      sims = new Float64Array(slots.length);
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i]!;
        seqs[i] = this.#seqs[s]!;
        sims[i] = dots[i]! * this.#scales[s]! * qs;
      }
    } else {
      const rows = this.driver.all<{ seq: number; scale: number; vec: Uint8Array | ArrayBuffer }>(
        `SELECT v.seq AS seq, v.scale AS scale, v.vec AS vec FROM json_each(?) j
           CROSS JOIN entry_vectors v ON v.model = ? AND v.dim = ? AND v.seq = j.value`,
        [JSON.stringify(Array.from(slots, (s) => this.#seqs[s]!)), this.modelId, this.dimension],
      );
      seqs = Int32Array.from(rows, (r) => r.seq);
      sims = Float64Array.from(rows, (r) => dotInt8(int8Of(r.vec, d), 0, q, d) * r.scale * qs);
    }
    const order = descendingOrder(sims);
    const out: Ranked[] = new Array(order.length);
    for (let k = 0; k < order.length; k++) out[k] = { seq: seqs[order[k]!]!, similarity: sims[order[k]!]! };
    return out;
  }
}
