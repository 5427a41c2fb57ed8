// Shannon entropy of a string, in bits per character: how random a candidate secret looks.

export function shannonEntropy(v: string): number {
  if (v.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of v) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / v.length;
    h -= p * Math.log2(p);
  }
  return h;
}
