// One vector space of one SQLite store held in memory as 1-bit sign codes plus int8 (or, for large spaces, 4-bit) vectors: a shortlist by Hamming distance, re-ranked by cosine.
import type { SqliteDriver } from "./driver.js";
import { dotInt8, QuantizedRows } from "./quantized-rows.js";
import { descendingOrder } from "./rank-order.js";
import { RankedShortlist, type Ranked } from "./ranked-shortlist.js";
import { SignCodes } from "./sign-codes.js";

/** int8 with one scale per vector: a quarter of f32's bytes, and the ranking it gives is the same to ±0.005 cosine. */
export function quantize(v: ArrayLike<number>): { scale: number; q: Int8Array } {
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
 * The vector rotated by a randomised Hadamard transform (random signs, then the Walsh–Hadamard
 * butterfly, unnormalised: lengths grow by √bits), padded with zeros to the code's size. The rotation
 * spreads a model's few high-variance components over all of them. A scratch buffer, valid until the
 * next call.
 */
function rotated(v: ArrayLike<number>): Float64Array {
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
  return a;
}

/** One bit per component of a rotated vector, set when positive. */
function signBits(a: Float64Array, out: Uint32Array, at: number): Uint32Array {
  for (let w = 0; w < a.length / 32; w++) out[at + w] = 0;
  for (let i = 0; i < a.length; i++) if (a[i]! > 0) out[at + (i >>> 5)]! |= 1 << (i & 31);
  return out;
}

/**
 * One bit per component of the vector rotated by a randomised Hadamard transform. Vectors at a small
 * angle agree on most bits; the rotation lifts the share of the exact top 40 found in a 16×40
 * shortlist of the bench corpus from 0.89 to 0.97.
 */
export function signCode(v: ArrayLike<number>, out: Uint32Array = new Uint32Array(codeWords(v.length)), at = 0): Uint32Array {
  return signBits(rotated(v), out, at);
}

/**
 * A rotated vector at 4 bits a component: 16 levels symmetric about 0 and without one at 0 (value k
 * in -8..7 stands for 2k + 1 half-steps), the step set by the largest component. On the bench corpus
 * at 100k, re-ranking the 2,000-long shortlist by these alone kept 0.90 of the exact top 40; 15 levels
 * (-7..7) 0.89, steps clipped to 0.65 of the largest component 0.81–0.84, unrotated rows 0.86. Returns
 * the half-step: a component is ≈ (2k + 1) × it.
 */
function nibbles(a: Float64Array, out: Int8Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]!));
  if (max === 0) {
    out.fill(0);
    return 0;
  }
  const step = max / 8;
  for (let i = 0; i < a.length; i++) out[i] = Math.max(-8, Math.min(7, Math.floor(a[i]! / step)));
  return step / 2;
}

/**
 * Up to this many bytes of re-rank rows (int8 or 4-bit) a space keeps in memory (524,288 vectors of 256
 * dimensions at 4 bits): re-ranking reads them for free. Beyond, it keeps only the sign codes and
 * re-ranks its shortlist from SQLite — measured at 100k, reading 640 vectors back costs ~9 ms CPU per
 * tier (blob or hex() alike) against ~2.7 ms for the whole in-memory search, so that is the fallback
 * for huge spaces only.
 */
export const IN_MEMORY_VECTOR_BYTES = 64 * 1024 * 1024;

/**
 * Up to this many bytes of int8 rows (65,536 vectors of 256 dimensions, 21,845 of 768) a space
 * re-ranks by exact int8 cosine; beyond, it holds its rows at 4 bits a component, half the bytes. At
 * 100k + 100k vectors of the built-in model that is 25.6 MB instead of 51.2 MB, the difference
 * between the 200 MB budget and ~208 MB resident; the retrieval eval (~2k entries), every test
 * store and a 10k bench tier (2.6 MB) stay exact.
 */
export const INT8_ROW_BYTES = 16 * 1024 * 1024;

/**
 * A 4-bit re-rank's best this many are re-scored by exact int8 cosine from SQLite (two a recall's 40
 * candidates per tier). At 100k on the bench corpus the 4-bit re-rank alone kept 0.90 of the exact
 * top 40, with its best 48 re-scored 0.956, 64 0.985, 80 0.988 — what the int8 re-rank keeps; reading
 * 80 vectors back by row id costs ~0.2 ms.
 */
export const EXACT_HEAD = 80;

export interface VectorIndexOptions {
  inMemoryBytes?: number;
  int8Bytes?: number;
  /** False: shortlist and re-rank in plain JS even where WebAssembly SIMD runs (tests compare the two). */
  simd?: boolean;
}

export type { Ranked } from "./ranked-shortlist.js";

/**
 * One batch of vectors packed into a single row: seqs and scales as JSON, the vectors concatenated in
 * one blob. A row per vector left ~20 MB more resident per 100k-vector space after loading (a Buffer
 * and a row object each grew V8's young generation and the allocator), for 29 MB of arrays.
 * Scales travel with 17 significant digits, as the driver's packed reads do, so they read back exactly.
 */
interface VectorBatch {
  n: number;
  last: number | null;
  ids: string;
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
 *
 * Re-rank rows are int8 while the space holds at most INT8_ROW_BYTES of them; past that (on the
 * first load, or when an add crosses it) they turn 4-bit, each from its int8 vector and scale alone,
 * so a space grown past the threshold holds exactly what a space loaded past it does.
 */
export class VectorIndex {
  readonly #words: number;
  readonly #codes: SignCodes;
  readonly #simd: boolean;
  readonly inMemoryBytes: number;
  readonly int8Bytes: number;
  #seqs = new Int32Array(0);
  /**
   * Per slot, the row id its vector was read from: an exact re-read fetches rows by id, one lookup in
   * the table's own B-tree, where by (model, dim, seq) it walked the unique index first and then the
   * table (the 80 of a 4-bit head at 100k: 0.9 → 0.2 ms; 640 rows: 5.9 → 3.8 ms). A vector replaced
   * since has a new id, which refresh() reads before any search.
   */
  #ids = new Int32Array(0);
  /** seq → slot + 1 (0: none); seqs are dense row ids, so an array beats a Map's per-entry cost. */
  #slotBySeq = new Int32Array(0);
  /** Re-rank rows by slot (int8 vectors, or 4-bit rotated ones), undefined beyond inMemoryBytes. */
  #rows: QuantizedRows | undefined;
  /** Per slot: the int8 scale, or for 4-bit rows the int8 scale × the row's half-step. */
  #scales = new Float32Array(0);
  /** A 4-bit row's values before packing. */
  readonly #nibbles: Int8Array;
  #size = 0;
  #lastId = 0;

  constructor(
    readonly driver: SqliteDriver,
    readonly modelId: string,
    readonly dimension: number,
    options: VectorIndexOptions = {},
  ) {
    this.inMemoryBytes = options.inMemoryBytes ?? IN_MEMORY_VECTOR_BYTES;
    this.int8Bytes = options.int8Bytes ?? INT8_ROW_BYTES;
    this.#simd = options.simd ?? true;
    this.#words = codeWords(dimension);
    this.#codes = new SignCodes(this.#words, this.#simd);
    this.#rows = new QuantizedRows(dimension, 8, this.#simd);
    this.#nibbles = new Int8Array(this.#words * 32);
  }

  get size(): number {
    return this.#size;
  }

  /** True while re-ranking reads vectors from memory rather than from SQLite. */
  get vectorsInMemory(): boolean {
    return this.#rows !== undefined;
  }

  /** Bits a component of the in-memory re-rank rows: 8, 4, or 0 when re-ranking reads SQLite. */
  get rerankBits(): number {
    return this.#rows?.bits ?? 0;
  }

  /** Bytes the in-memory re-rank rows take. */
  get rerankBytes(): number {
    return this.#rows?.bytes ?? 0;
  }

  /** Reads rows put since the last call (all of them the first time). */
  refresh(): void {
    if (this.#lastId === 0 && this.#size === 0) {
      // The first load sizes its arrays from the count: doubling from 256 would leave up to a third unused.
      const count = this.driver.get<{ entries: number }>("SELECT entries FROM entry_vector_counts WHERE model = ? AND dim = ?", [this.modelId, this.dimension])?.entries ?? 0;
      // A space past the threshold loads straight into 4-bit rows, never holding its int8 ones.
      if (count * this.dimension > this.int8Bytes) this.#toNibbles();
      if (count > this.#seqs.length) this.#grow(count);
    }
    const d = this.dimension;
    for (;;) {
      // A vector of another length (never written by putVectors) would shift every one after it in the blob.
      const b = this.driver.get<VectorBatch>(
        `SELECT count(*) AS n, max(id) AS last, json_group_array(id) AS ids, json_group_array(seq) AS seqs, '[' || group_concat(printf('%!.17g', scale)) || ']' AS scales,
                unhex(group_concat(hex(vec), '')) AS vecs
           FROM (SELECT id, seq, scale, vec FROM entry_vectors WHERE model = ? AND dim = ? AND id > ? AND length(vec) = dim ORDER BY id LIMIT ${LOAD_BATCH})`,
        [this.modelId, d, this.#lastId],
      );
      if (!b || b.n === 0 || b.last === null || !b.vecs) return;
      const ids = JSON.parse(b.ids) as number[];
      const seqs = JSON.parse(b.seqs) as number[];
      const scales = JSON.parse(b.scales) as number[];
      const vecs = int8Of(b.vecs, b.n * d);
      for (let i = 0; i < b.n; i++) this.#set(ids[i]!, seqs[i]!, scales[i]!, vecs.subarray(i * d, (i + 1) * d));
      this.#lastId = b.last;
      if (b.n < LOAD_BATCH) return;
    }
  }

  #set(id: number, seq: number, scale: number, q: Int8Array): void {
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
    this.#ids[slot] = id;
    if (this.#rows?.bits === 8 && (slot + 1) * this.dimension > this.int8Bytes) this.#toNibbles();
    if (this.#rows && (slot + 1) * this.#rows.rowBytes > this.inMemoryBytes) {
      this.#rows = undefined;
      this.#scales = new Float32Array(0);
    }
    const a = rotated(q);
    signBits(a, this.#codes.codes, slot * this.#words);
    if (this.#rows) this.#setRow(this.#rows, slot, scale, q, a);
  }

  /** Sets a slot's re-rank row from its int8 vector `q` and `a`, that vector rotated. */
  #setRow(rows: QuantizedRows, slot: number, scale: number, q: Int8Array, a: Float64Array): void {
    if (rows.bits === 8) {
      this.#scales[slot] = scale;
      rows.set(slot, q);
    } else {
      // The int8 scale rounded as the int8 rows keep it, so converted and loaded rows agree to the bit.
      this.#scales[slot] = Math.fround(scale) * nibbles(a, this.#nibbles);
      rows.set(slot, this.#nibbles);
    }
  }

  /**
   * Replaces int8 re-rank rows by 4-bit ones, converting every slot so far. A fresh module instance:
   * a wasm memory never shrinks, so the int8 one must go whole.
   */
  #toNibbles(): void {
    const old = this.#rows;
    if (!old || old.bits !== 8) return;
    const rows = new QuantizedRows(this.#words * 32, 4, this.#simd);
    rows.reserve(Math.min(this.#seqs.length, Math.floor(this.inMemoryBytes / rows.rowBytes)));
    const oldScales = this.#scales;
    this.#scales = new Float32Array(rows.capacity);
    for (let s = 0; s < Math.min(this.#size, old.capacity, rows.capacity); s++) {
      const q = old.int8Row(s);
      this.#setRow(rows, s, oldScales[s]!, q, rotated(q));
    }
    this.#rows = rows;
  }

  #grow(capacity: number): void {
    this.#codes.reserve(capacity);
    const s = new Int32Array(capacity);
    s.set(this.#seqs);
    this.#seqs = s;
    const ids = new Int32Array(capacity);
    ids.set(this.#ids);
    this.#ids = ids;
    const r = this.#rows;
    if (!r) return;
    const limit = r.bits === 8 ? Math.min(this.inMemoryBytes, this.int8Bytes) : this.inMemoryBytes;
    const rows = Math.min(capacity, Math.floor(limit / r.rowBytes));
    if (rows > r.capacity) {
      r.reserve(rows);
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

  /** Exact int8 cosines with the query (`q` at scale `qs`) of the vectors in `slots`, read from SQLite in that order; a row gone since (its entry deleted) left out. */
  #exactFromSql(slots: ArrayLike<number>, q: Int8Array, qs: number): { seqs: Int32Array; sims: Float64Array } {
    const d = this.dimension;
    const rows = this.driver.all<{ seq: number; scale: number; vec: Uint8Array | ArrayBuffer }>(
      "SELECT v.seq AS seq, v.scale AS scale, v.vec AS vec FROM json_each(?) j CROSS JOIN entry_vectors v ON v.id = j.value",
      [JSON.stringify(Array.from(slots, (s) => this.#ids[s]!))],
    );
    return { seqs: Int32Array.from(rows, (r) => r.seq), sims: Float64Array.from(rows, (r) => dotInt8(int8Of(r.vec, d), 0, q, d) * r.scale * qs) };
  }

  /**
   * The nearest vectors to `query` among those `accept` passes, best first: every vector when the
   * space holds no more than `shortlist`, else the `shortlist` nearest by sign code, re-ranked. Int8
   * rows re-rank by exact int8 cosine; 4-bit rows by their estimate of it, the best EXACT_HEAD then
   * re-scored exactly (their similarities exact int8 cosines, the rest's within ~0.04 of theirs).
   */
  nearest(query: Float32Array, shortlist: number, accept?: (seq: number) => boolean): Ranked[] {
    return this.ranked(query, shortlist, accept).toArray();
  }

  /** {@link nearest}, read place by place: ordered only as far as the reader goes (see ranked-shortlist.ts). */
  ranked(query: Float32Array, shortlist: number, accept?: (seq: number) => boolean): RankedShortlist {
    const n = this.#size;
    if (n === 0 || shortlist <= 0) return RankedShortlist.of(new Int32Array(0), new Float64Array(0));
    let slots: Int32Array;
    if (n <= shortlist) {
      slots = new Int32Array(n);
      let k = 0;
      for (let i = 0; i < n; i++) if (!accept || accept(this.#seqs[i]!)) slots[k++] = i;
      slots = slots.subarray(0, k);
    } else slots = this.#shortlist(query, shortlist, accept);
    const { scale: qs, q } = quantize(query);
    const rows = this.#rows;
    // Candidates in slot order (SQLite returns them in the order asked), then best first, ties kept in that order.
    let seqs: Int32Array;
    let sims: Float64Array;
    if (!rows) ({ seqs, sims } = this.#exactFromSql(slots, q, qs));
    else {
      seqs = new Int32Array(slots.length);
      sims = new Float64Array(slots.length);
      if (rows.bits === 8) {
        const dots = rows.dots(slots, q);
        for (let i = 0; i < slots.length; i++) {
          const s = slots[i]!;
          seqs[i] = this.#seqs[s]!;
          sims[i] = dots[i]! * this.#scales[s]! * qs;
        }
      } else {
        // The query rotated as the rows were, at int8; a row component k stands for 2k + 1 half-steps,
        // so Σ (2k + 1) q = 2 Σ k q + Σ q. The unnormalised rotation scales dot products by `bits`.
        const bits = this.#words * 32;
        const r = quantize(rotated(query));
        let qsum = 0;
        for (let j = 0; j < bits; j++) qsum += r.q[j]!;
        const dots = rows.dots(slots, r.q);
        const k = r.scale / bits;
        for (let i = 0; i < slots.length; i++) {
          const s = slots[i]!;
          seqs[i] = this.#seqs[s]!;
          sims[i] = (2 * dots[i]! + qsum) * this.#scales[s]! * k;
        }
        return this.#refineHead(slots, seqs, sims, q, qs);
      }
    }
    return RankedShortlist.of(seqs, sims);
  }

  /**
   * Candidates (`slots`, their `seqs`) ranked by their 4-bit estimates, the best EXACT_HEAD re-read
   * from SQLite and re-ranked by exact int8 cosine.
   */
  #refineHead(slots: Int32Array, seqs: Int32Array, estimates: Float64Array, q: Int8Array, qs: number): RankedShortlist {
    const order = descendingOrder(estimates).slice();
    const headN = Math.min(EXACT_HEAD, order.length);
    const head = this.#exactFromSql(Array.from(order.subarray(0, headN), (i) => slots[i]!), q, qs);
    const headOrder = descendingOrder(head.sims);
    const size = headOrder.length + order.length - headN;
    const outSeqs = new Int32Array(size);
    const outSims = new Float64Array(size);
    let k = 0;
    for (const i of headOrder) {
      outSeqs[k] = head.seqs[i]!;
      outSims[k++] = head.sims[i]!;
    }
    for (let j = headN; j < order.length; j++) {
      outSeqs[k] = seqs[order[j]!]!;
      outSims[k++] = estimates[order[j]!]!;
    }
    return RankedShortlist.ordered(outSeqs, outSims);
  }
}
