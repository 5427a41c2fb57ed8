// Ranking metrics over relevance groups: a restatement (`x~2`) of a relevant lesson counts once, as `x`.
import { groupOf } from "./spec.js";

export interface CaseScore {
  recall5: number;
  mrr10: number;
  ndcg10: number;
}

/** Fraction of the relevant groups found in the first `k` results. */
export function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  const found = new Set(ranked.slice(0, k).map(groupOf).filter((g) => relevant.has(g)));
  return found.size / relevant.size;
}

/** 1 / rank of the first relevant result within `k`, else 0. */
export function reciprocalRank(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const i = ranked.slice(0, k).findIndex((key) => relevant.has(groupOf(key)));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Binary-gain nDCG; a group's second copy earns nothing, so duplicates in the slots cost. */
export function ndcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, k).forEach((key, i) => {
    const g = groupOf(key);
    if (relevant.has(g) && !seen.has(g)) {
      seen.add(g);
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function scoreCase(ranked: readonly string[], relevant: readonly string[]): CaseScore {
  const rel = new Set(relevant.map(groupOf));
  return { recall5: recallAt(ranked, rel, 5), mrr10: reciprocalRank(ranked, rel, 10), ndcg10: ndcgAt(ranked, rel, 10) };
}

export function mean(scores: readonly CaseScore[]): CaseScore {
  const n = Math.max(1, scores.length);
  const sum = (f: (s: CaseScore) => number) => scores.reduce((a, s) => a + f(s), 0) / n;
  return { recall5: sum((s) => s.recall5), mrr10: sum((s) => s.mrr10), ndcg10: sum((s) => s.ndcg10) };
}
