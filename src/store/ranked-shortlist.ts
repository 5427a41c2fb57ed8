// A re-ranked shortlist read best first, put in order only as far as it is read: the head a search walks, the rest on demand.
import { descendingOrder } from "./rank-order.js";

/** Candidates ranked by similarity: entries' seqs, best first. */
export interface Ranked {
  seq: number;
  similarity: number;
}

/**
 * Places ordered at first: a recall walks 40–70 of a 640-long shortlist, and ordering all of it (and
 * an object per place) was a quarter of the in-memory search. A walk past the head orders the rest.
 */
function headSize(n: number): number {
  return Math.min(n, Math.max(64, Math.ceil(n / 4)));
}

/** Scratch for the selection, kept between calls: a search must not allocate per call. */
let pick = new Float64Array(0);

/**
 * The `k`-th largest of `values` (1 ≤ k ≤ length), counting equal values apart: a quickselect on a
 * scratch copy, median of three pivots, so O(n) on any input the re-rank produces.
 */
function kthLargest(values: Float64Array, k: number): number {
  const n = values.length;
  if (pick.length < n) pick = new Float64Array(Math.max(n, 2 * pick.length));
  const a = pick;
  // −0 as 0, as descendingOrder and every comparison here count it.
  for (let i = 0; i < n; i++) a[i] = values[i]! + 0;
  let lo = 0;
  let hi = n - 1;
  const want = k - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = a[lo]!, y = a[mid]!, z = a[hi]!;
    const pivot = x > y ? (y > z ? y : x > z ? z : x) : x > z ? x : y > z ? z : y;
    // Three ways, largest first: [lo, gt) above the pivot, [gt, i) equal, (lt, hi] below.
    let gt = lo;
    let lt = hi;
    let i = lo;
    while (i <= lt) {
      const v = a[i]!;
      if (v > pivot) {
        a[i] = a[gt]!;
        a[gt++] = v;
        i++;
      } else if (v < pivot) {
        a[i] = a[lt]!;
        a[lt--] = v;
      } else i++;
    }
    if (want < gt) hi = gt - 1;
    else if (want > lt) lo = lt + 1;
    else return pivot;
  }
  return a[lo]!;
}

/**
 * Seqs and similarities of one shortlist, read best first by place (`seq(i)`, `similarity(i)`),
 * equal similarities in the order given: exactly the order of a stable descending sort of all of
 * them, whose head alone is worked out until a reader goes past it.
 */
export class RankedShortlist {
  readonly length: number;
  /** Positions in `seqs`/`sims` by place; final up to `#ordered`. */
  #order: Int32Array;
  #ordered: number;

  private constructor(
    private readonly seqs: Int32Array,
    private readonly sims: Float64Array,
    order: Int32Array,
    ordered: number,
  ) {
    this.length = seqs.length;
    this.#order = order;
    this.#ordered = ordered;
  }

  /** Candidates in any order (ties keep it), to be read best first. */
  static of(seqs: Int32Array, sims: Float64Array): RankedShortlist {
    const n = seqs.length;
    const head = headSize(n);
    if (head >= n) return new RankedShortlist(seqs, sims, descendingOrder(sims).slice(), n);
    // The head of the stable sort: every value above the head's last, then that value's first few in
    // position order; ordered among themselves by the same stable sort, ties in position order.
    const last = kthLargest(sims, head);
    const chosen = new Int32Array(head);
    let k = 0;
    for (let i = 0; i < n; i++) if (sims[i]! > last) chosen[k++] = i;
    for (let i = 0; i < n && k < head; i++) if (sims[i]! === last) chosen[k++] = i;
    const values = new Float64Array(head);
    for (let j = 0; j < head; j++) values[j] = sims[chosen[j]!]!;
    const byValue = descendingOrder(values);
    const order = new Int32Array(n);
    for (let j = 0; j < head; j++) order[j] = chosen[byValue[j]!]!;
    return new RankedShortlist(seqs, sims, order, head);
  }

  /** Candidates already best first. */
  static ordered(seqs: Int32Array, sims: Float64Array): RankedShortlist {
    return new RankedShortlist(seqs, sims, Int32Array.from({ length: seqs.length }, (_, i) => i), seqs.length);
  }

  seq(place: number): number {
    return this.seqs[this.#position(place)]!;
  }

  similarity(place: number): number {
    return this.sims[this.#position(place)]!;
  }

  /** Every place, best first. */
  toArray(): Ranked[] {
    const out: Ranked[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) out[i] = { seq: this.seq(i), similarity: this.similarity(i) };
    return out;
  }

  #position(place: number): number {
    if (place >= this.#ordered && place < this.length) {
      // Past the head: the whole stable sort, whose head is the one already handed out.
      this.#order = descendingOrder(this.sims).slice();
      this.#ordered = this.length;
    }
    return this.#order[place]!;
  }
}
