// Issue 16: how often recall comes back empty for a query sharing ≥ 2 content words with a stored lesson, plus unknown words.
import type { Cairn } from "../src/index.js";
import { queryTerms } from "../src/core/text.js";
import { int, pick, type Rng } from "./rng.js";

export interface EmptyRecallResult {
  queries: number;
  /** Queries that returned nothing (target 0: each shares ≥ 2 content words with a live lesson). */
  empty: number;
  /** Queries whose source lesson was in the top 10. */
  foundTop10: number;
}

/** A word in no lesson: the corpus never writes "qx" (nor would a stemmer make it). */
const absentWord = (rng: Rng) => `qx${"jhwyv"[int(rng, 0, 4)]}${int(rng, 0, 999)}zq`;

export async function measureEmptyRecall(cairn: Cairn, rng: Rng, n: number, size: number): Promise<EmptyRecallResult> {
  // About a third of the seeded swarm tier is established or promoted: sample a window of it.
  const pool = await cairn.list({ tier: "swarm", statuses: ["established", "promoted"], limit: 2000, offset: int(rng, 0, Math.max(0, Math.floor(size * 0.3) - 2000)) });
  const out: EmptyRecallResult = { queries: 0, empty: 0, foundTop10: 0 };
  for (let i = 0; i < n && pool.length; i++) {
    const lesson = pick(rng, pool);
    const words = queryTerms(lesson.lesson).filter((t) => /^[a-z]+$/.test(t));
    if (words.length < 2) continue;
    // Two or more of its words, in any order, plus up to three that match nothing.
    const mine = words.filter(() => rng() < 0.6);
    while (mine.length < 2) mine.push(words[mine.length]!);
    const q = [...new Set(mine), ...Array.from({ length: int(rng, 0, 3) }, () => absentWord(rng))].sort(() => rng() - 0.5).join(" ");
    const hits = await cairn.recall(q, { limit: 10 });
    out.queries++;
    if (hits.length === 0) out.empty++;
    if (hits.some((h) => h.entry.id === lesson.id)) out.foundTop10++;
  }
  return out;
}

export function emptyRecallLine(size: number, r: EmptyRecallResult): string {
  const pct = (k: number) => `${((100 * k) / Math.max(1, r.queries)).toFixed(1)}%`;
  return `recall with ≥ 2 of a lesson's words + up to 3 unknown words (${size.toLocaleString("en-US")}): ${pct(r.empty)} empty (target 0), source lesson in top 10 for ${pct(r.foundTop10)} of ${r.queries}`;
}
