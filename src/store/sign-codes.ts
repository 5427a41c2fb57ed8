// The sign codes of one vector space and their Hamming scan (the shortlist's first pass): WebAssembly SIMD where the runtime has it, plain JS otherwise.
import { align16, newKernels, reserveBytes, type VectorKernels } from "./wasm-kernels.js";

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Per-byte bit counts (0..8 each) of one 32-bit word: four of them add up without a byte overflowing. */
function byteCounts(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (x + (x >>> 4)) & 0x0f0f0f0f;
}

/** The sum of a word's four bytes, when that sum is below 256. */
function byteSum(x: number): number {
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Distances of codes of 8 words (256 bits: the built-in model), unrolled with the query in locals. */
function hammingScan8(codes: Uint32Array, qc: Uint32Array, n: number, dist: Uint16Array, hist: Int32Array): void {
  const q0 = qc[0]!, q1 = qc[1]!, q2 = qc[2]!, q3 = qc[3]!, q4 = qc[4]!, q5 = qc[5]!, q6 = qc[6]!, q7 = qc[7]!;
  for (let i = 0, o = 0; i < n; i++, o += 8) {
    const s =
      byteSum(byteCounts(codes[o]! ^ q0) + byteCounts(codes[o + 1]! ^ q1) + byteCounts(codes[o + 2]! ^ q2) + byteCounts(codes[o + 3]! ^ q3)) +
      byteSum(byteCounts(codes[o + 4]! ^ q4) + byteCounts(codes[o + 5]! ^ q5) + byteCounts(codes[o + 6]! ^ q6) + byteCounts(codes[o + 7]! ^ q7));
    dist[i] = s;
    hist[s]!++;
  }
}

/**
 * Hamming distances of `n` codes of `w` words to `qc`, into `dist`, counted in `hist`; slots `skip`
 * names get `rejected`. Bits are counted four words at a time and summed with one multiply per
 * group: at 100k codes of 8 words, ~0.95 ms against ~1.55 ms counting each word alone (Node 20).
 */
function hammingScan(codes: Uint32Array, qc: Uint32Array, n: number, w: number, dist: Uint16Array, hist: Int32Array, rejected: number, skip?: (slot: number) => boolean): void {
  if (w === 8 && !skip) return hammingScan8(codes, qc, n, dist, hist);
  for (let i = 0, o = 0; i < n; i++, o += w) {
    if (skip?.(i)) {
      dist[i] = rejected;
      continue;
    }
    let s = 0;
    let j = 0;
    for (; j + 4 <= w; j += 4) {
      s += byteSum(byteCounts(codes[o + j]! ^ qc[j]!) + byteCounts(codes[o + j + 1]! ^ qc[j + 1]!) + byteCounts(codes[o + j + 2]! ^ qc[j + 2]!) + byteCounts(codes[o + j + 3]! ^ qc[j + 3]!));
    }
    for (; j < w; j++) s += popcount(codes[o + j]! ^ qc[j]!);
    dist[i] = s;
    hist[s]!++;
  }
}

/** Where the distances and their histogram land: scratch, valid until the next scan. */
export interface HammingScan {
  dist: Uint16Array;
  hist: Int32Array;
}

/**
 * Codes of `words` 32-bit words by slot. With SIMD (codes of 128 bits or more) they live in the
 * kernels' memory at address 0, so a scan copies in only the query's code; the distances and the
 * histogram are read where the kernel wrote them. A scan that skips slots runs in JS either way.
 */
export class SignCodes {
  #capacity = 0;
  /** Slot i's code at i × words: a view of the wasm memory (renewed after each grow) or a plain array. */
  #codes = new Uint32Array(0);
  readonly #wasm: VectorKernels | undefined;
  /** The JS scan's scratch, kept between scans: a 100k scan must not allocate 200 KB each time. */
  #dist = new Uint16Array(0);
  #hist: Int32Array;

  constructor(
    readonly words: number,
    simd = true,
  ) {
    this.#hist = new Int32Array(words * 32 + 2);
    this.#wasm = simd && words % 4 === 0 ? newKernels() : undefined;
    if (this.#wasm) this.#codes = new Uint32Array(this.#wasm.memory.buffer);
  }

  get simd(): boolean {
    return this.#wasm !== undefined;
  }

  get capacity(): number {
    return this.#capacity;
  }

  /** The codes by slot (a view that reserve() may replace: take it after reserving). */
  get codes(): Uint32Array {
    return this.#codes;
  }

  /** Room for at least `rows` codes, keeping those set. */
  reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    if (this.#wasm) this.#growMemory(rows * this.words * 4);
    else {
      const c = new Uint32Array(rows * this.words);
      c.set(this.#codes.subarray(0, this.#capacity * this.words));
      this.#codes = c;
    }
    this.#capacity = rows;
  }

  /** Hamming distances of slots 0..n-1 to `qc`, counted in a histogram of `words × 32 + 2` bins; slots `skip` names get the last bin. */
  scan(qc: Uint32Array, n: number, skip?: (slot: number) => boolean): HammingScan {
    const bits = this.words * 32;
    const w = this.#wasm;
    if (w && !skip) {
      const bytes = this.words * 4;
      const q = align16(this.#capacity * bytes);
      const h = q + bytes;
      const d = align16(h + (bits + 2) * 4);
      this.#growMemory(d + n * 2);
      const buffer = w.memory.buffer;
      new Uint32Array(buffer, q, this.words).set(qc.subarray(0, this.words));
      const hist = new Int32Array(buffer, h, bits + 2);
      hist.fill(0);
      w.hamming(0, bytes, q, n, d, h);
      return { dist: new Uint16Array(buffer, d, n), hist };
    }
    if (this.#dist.length < n) this.#dist = new Uint16Array(Math.max(n, this.#capacity));
    this.#hist.fill(0);
    hammingScan(this.#codes, qc, n, this.words, this.#dist, this.#hist, bits + 1, skip);
    return { dist: this.#dist, hist: this.#hist };
  }

  #growMemory(bytes: number): void {
    if (reserveBytes(this.#wasm!, bytes)) this.#codes = new Uint32Array(this.#wasm!.memory.buffer);
  }
}
