// Measures one benchmark size on the real engine: add, recall, inject latencies and resident memory.
import fs from "node:fs";
import path from "node:path";
import { openCairn } from "../src/index.js";
import { generatedLesson, injectContext, recallQuery } from "./corpus.js";
import { measureEmptyRecall, type EmptyRecallResult } from "./empty-recall.js";
import { makeRng } from "./rng.js";
import { BENCH_CAPS, copyCorpus } from "./corpus-copy.js";
import { cacheDir } from "./seed.js";
import { timeLoop, type Timing } from "./stats.js";

export interface SizeResult {
  size: number;
  /** Vectors on: the built-in model embeds each query and recall blends text and vector candidates (issue 13). */
  vectors: boolean;
  openMs: number;
  add: Timing & { actions: Record<string, number> };
  recall: Timing & { meanHits: number };
  inject: Timing & { meanEntries: number };
  /** Issue 16: share of empty recalls for queries sharing ≥ 2 words with a lesson (not timed). */
  emptyRecall: EmptyRecallResult;
  /** `cairn stats` on both tiers, and the RSS right after it (it must not load the entries). */
  stats: Timing & { rssAfterMb: number };
  rssMb: number;
  heapUsedMb: number;
  /** RSS of the worker (bundled: node + the code, parsed) before the engine opened a store, for context. */
  baselineRssMb: number;
}

export interface MeasureOptions {
  size: number;
  seed: number;
  counts: { add: number; recall: number; inject: number };
  baselineRssMb: number;
  /** Measure with the built-in embedder on (hybrid retrieval); off: words only. The corpus carries vectors either way. */
  vectors: boolean;
}

/** The engine config of a bench run: caps raised to keep the corpus's size, vectors as asked. */
export function benchConfig(vectors: boolean) {
  return { knowledge: BENCH_CAPS, embedding: { provider: vectors ? ("builtin" as const) : ("none" as const), retrieval: "hybrid" as const } };
}

export async function measureSize(o: MeasureOptions): Promise<SizeResult> {
  const { size, seed } = o;
  const src = cacheDir(size, seed);
  if (!fs.existsSync(path.join(src, "ready.json"))) throw new Error(`no seeded corpus at ${src}; run bench/run.ts`);
  // Work on a copy: adds and shown-counters must not drift the cached corpus between runs.
  const copy = copyCorpus(src, "cairn-bench-");
  try {
    const t0 = process.hrtime.bigint();
    const cairn = await openCairn({ ...copy.open, config: benchConfig(o.vectors), actor: "agent:bench" });
    const openMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const rng = makeRng(seed * 7919 + 17);

    let hits = 0;
    const recall = await timeLoop(o.counts.recall, 50, async (i) => {
      const r = await cairn.recall(recallQuery(rng), { limit: 10 });
      if (i >= 0) hits += r.length;
    });
    // Its own seed: adding this section leaves the timed loops' queries as they were.
    const emptyRecall = await measureEmptyRecall(cairn, makeRng(seed * 31 + 16), 200, size);
    let shown = 0;
    const inject = await timeLoop(o.counts.inject, 50, async (i) => {
      const r = await cairn.inject(injectContext(rng, i));
      if (i >= 0) shown += r.entries.length;
    });
    const actions: Record<string, number> = {};
    const add = await timeLoop(o.counts.add, 30, async (i) => {
      // A unique incident number per call: every lesson is new, as a distinct lesson would be.
      const g = generatedLesson(rng, i < 0 ? 700_000 - i : 800_000 + i);
      const r = await cairn.add({ lesson: g.lesson, category: g.category, kind: g.kind, tags: [g.stack.name, g.domain] });
      if (i >= 0) actions[r.action] = (actions[r.action] ?? 0) + 1;
    });
    const stats = await timeLoop(20, 3, () => cairn.stats());
    const statsRss = process.memoryUsage().rss / 1048576;
    // Measured with the engine still open: what a long-running server holds at this size.
    (globalThis as { gc?: () => void }).gc?.();
    const mem = process.memoryUsage();
    await cairn.close();
    return {
      size, vectors: o.vectors, openMs, baselineRssMb: o.baselineRssMb,
      add: { ...add, actions },
      recall: { ...recall, meanHits: hits / recall.n },
      inject: { ...inject, meanEntries: shown / inject.n },
      emptyRecall,
      stats: { ...stats, rssAfterMb: statsRss },
      rssMb: mem.rss / 1048576,
      heapUsedMb: mem.heapUsed / 1048576,
    };
  } finally {
    copy.remove();
  }
}
