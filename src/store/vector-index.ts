// One vector space of one SQLite store held in memory as an int8 matrix: exact cosine scans in JS, kept current by row id.
import type { SqliteDriver } from "./driver.js";

/** int8 with one scale per vector: a quarter of f32's bytes, and the ranking it gives is the same to ±0.005 cosine. */
export function quantize(v: Float32Array): { scale: number; q: Int8Array } {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const scale = max > 0 ? max / 127 : 1;
  const q = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) q[i] = Math.round(v[i]! / scale);
  return { scale, q };
}

interface VectorRow {
  id: number;
  seq: number;
  scale: number;
  vec: Uint8Array | ArrayBuffer;
}

/** Candidates ranked by similarity: positions into the index, best first. */
export interface Ranked {
  seq: number;
  similarity: number;
}

/**
 * Loaded on the first search of its space, then topped up before each search with the rows whose
 * id is past the last one seen (every put takes a new id, in this process or another), so a
 * search never reads the whole table twice. Rows of deleted entries may linger here: a search
 * only returns entries the SQL filter finds, so they never surface.
 */
export class VectorIndex {
  #matrix = new Int8Array(0);
  #seqs = new Int32Array(0);
  #scales = new Float32Array(0);
  #size = 0;
  #slotOf = new Map<number, number>();
  #lastId = 0;

  constructor(
    readonly driver: SqliteDriver,
    readonly modelId: string,
    readonly dimension: number,
  ) {}

  get size(): number {
    return this.#size;
  }

  /** Reads rows put since the last call (all of them the first time). */
  refresh(): void {
    for (;;) {
      const rows = this.driver.all<VectorRow>(
        "SELECT id, seq, scale, vec FROM entry_vectors WHERE model = ? AND dim = ? AND id > ? ORDER BY id LIMIT 5000",
        [this.modelId, this.dimension, this.#lastId],
      );
      for (const r of rows) this.#set(r.seq, r.scale, r.vec);
      if (rows.length) this.#lastId = rows[rows.length - 1]!.id;
      if (rows.length < 5000) return;
    }
  }

  #set(seq: number, scale: number, vec: Uint8Array | ArrayBuffer): void {
    const d = this.dimension;
    let slot = this.#slotOf.get(seq);
    if (slot === undefined) {
      slot = this.#size++;
      if (slot >= this.#seqs.length) this.#grow(Math.max(256, this.#seqs.length * 2));
      this.#slotOf.set(seq, slot);
      this.#seqs[slot] = seq;
    }
    this.#scales[slot] = scale;
    // The driver hands blobs back as Buffers or ArrayBuffers depending on its build.
    const bytes = vec instanceof ArrayBuffer ? new Int8Array(vec, 0, d) : new Int8Array(vec.buffer, vec.byteOffset, d);
    this.#matrix.set(bytes, slot * d);
  }

  #grow(capacity: number): void {
    const m = new Int8Array(capacity * this.dimension);
    m.set(this.#matrix);
    this.#matrix = m;
    const s = new Int32Array(capacity);
    s.set(this.#seqs);
    this.#seqs = s;
    const sc = new Float32Array(capacity);
    sc.set(this.#scales);
    this.#scales = sc;
  }

  /** Similarity of every vector to the query, by slot. */
  scores(query: Float32Array): Float32Array {
    const d = this.dimension;
    const { scale: qs, q } = quantize(query);
    const m = this.#matrix;
    const n = this.#size;
    const out = new Float32Array(n);
    // Four accumulators: the loop runs ~1.7× faster than with one (measured, V8, 256 dims).
    const tail = d - (d % 4);
    for (let i = 0, o = 0; i < n; i++, o += d) {
      let a = 0, b = 0, c = 0, e = 0;
      let j = 0;
      for (; j < tail; j += 4) {
        a += m[o + j]! * q[j]!;
        b += m[o + j + 1]! * q[j + 1]!;
        c += m[o + j + 2]! * q[j + 2]!;
        e += m[o + j + 3]! * q[j + 3]!;
      }
      for (; j < d; j++) a += m[o + j]! * q[j]!;
      out[i] = (a + b + c + e) * this.#scales[i]! * qs;
    }
    return out;
  }

  /** The `k` best slots of `scores`, best first (a bounded min-heap: never a sort of all n). */
  top(scores: Float32Array, k: number, accept?: (seq: number) => boolean): Ranked[] {
    const heapSim = new Float32Array(Math.max(1, k));
    const heapSlot = new Int32Array(Math.max(1, k));
    let h = 0;
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < h && heapSim[l]! < heapSim[m]!) m = l;
        if (r < h && heapSim[r]! < heapSim[m]!) m = r;
        if (m === i) return;
        [heapSim[i], heapSim[m]] = [heapSim[m]!, heapSim[i]!];
        [heapSlot[i], heapSlot[m]] = [heapSlot[m]!, heapSlot[i]!];
        i = m;
      }
    };
    for (let s = 0; s < scores.length; s++) {
      const v = scores[s]!;
      if (h === k && v <= heapSim[0]!) continue;
      if (accept && !accept(this.#seqs[s]!)) continue;
      if (h < k) {
        let i = h++;
        heapSim[i] = v;
        heapSlot[i] = s;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (heapSim[p]! <= heapSim[i]!) break;
          [heapSim[i], heapSim[p]] = [heapSim[p]!, heapSim[i]!];
          [heapSlot[i], heapSlot[p]] = [heapSlot[p]!, heapSlot[i]!];
          i = p;
        }
      } else {
        heapSim[0] = v;
        heapSlot[0] = s;
        down(0);
      }
    }
    const out: Ranked[] = [];
    for (let i = 0; i < h; i++) out.push({ seq: this.#seqs[heapSlot[i]!]!, similarity: heapSim[i]! });
    return out.sort((a, b) => b.similarity - a.similarity);
  }
}
