// "Did you mean …?": the one known name a mistyped one most plainly stands for, if any.

/** Case, `_`, `-` and spaces set aside: `topN`, `top-n` and `top_n` are one name. */
function fold(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, "");
}

/** Edits (insert, delete, substitute, swap two neighbours) from a to b. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name `name` was most likely meant to be: the same name written another way (`topN` for
 * `top_n`), else the single closest within a typo's reach (one edit per four letters, at least one).
 * Undefined when none is that close, or two are equally close (no obvious one).
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const folded = fold(name);
  const same = known.filter((k) => fold(k) === folded);
  if (same.length === 1) return same[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  let tied = false;
  for (const k of known) {
    const d = distance(folded, fold(k));
    if (d > Math.max(1, Math.floor(fold(k).length / 4))) continue;
    if (d < bestDistance) [best, bestDistance, tied] = [k, d, false];
    else if (d === bestDistance) tied = true;
  }
  return tied ? undefined : best;
}
