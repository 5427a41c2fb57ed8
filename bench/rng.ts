// Seeded randomness for the benchmark corpora: the same seed builds the same data on every machine.

export type Rng = () => number;

/** mulberry32: tiny, fast, good enough to vary text; never used for anything secret. */
export function makeRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[Math.floor(rng() * xs.length)]!;
}

/** Zipf-like choice (s≈1): a few words are common, most are rare — as in real text, and as BM25 expects. */
export function pickSkewed<T>(rng: Rng, xs: readonly T[]): T {
  const i = Math.floor(Math.pow(xs.length + 1, rng())) - 1;
  return xs[Math.min(xs.length - 1, Math.max(0, i))]!;
}

export function int(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

export function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}
