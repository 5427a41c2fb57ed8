// Benchmark: the first inject/add/recall of a fresh process against the p50 after it, with and without cairn.warm() (issue 16.2).
//
// Each (operation, warm) pair runs in its own new process on a copy of the 10k corpus, because what
// is measured is exactly what a new process pays once: module loading, statement preparation, caches.
import { runResultWorker } from "./child-result.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT } from "./corpus.js";
import { BENCH_CAPS, copyCorpus } from "./corpus-copy.js";
import { ensureCorpus } from "./seed.js";

export type FirstCallOp = "inject" | "add" | "recall";
export interface FirstCall {
  op: FirstCallOp;
  warmed: boolean;
  /** The process's first call of this operation, ms. */
  firstMs: number;
  /** Median of the next calls, ms. */
  p50Ms: number;
  /** How long warm() took off the hot path (0 when not warmed), ms. */
  warmMs: number;
  /** Each process's first call over its own p50, in run order (the figures above are medians over them). */
  ratios?: number[];
}
export interface FirstCallResult {
  size: number;
  calls: FirstCall[];
}

export const FIRST_CALL_TARGET_RATIO = 2;
const OPS: FirstCallOp[] = ["inject", "add", "recall"];
const SELF = fileURLToPath(import.meta.url);

/** The worker body: one operation, first call then `n` more, in this fresh process. */
async function worker(op: FirstCallOp, warmed: boolean, corpusDir: string, n: number): Promise<FirstCall> {
  const { openCairn } = await import("../src/index.js");
  const { generatedLesson, injectContext, recallQuery } = await import("./corpus.js");
  const { makeRng } = await import("./rng.js");
  const copy = copyCorpus(corpusDir, "cairn-first-");
  try {
    const cairn = await openCairn({ ...copy.open, config: { knowledge: BENCH_CAPS }, actor: "agent:bench" });
    let warmMs = 0;
    if (warmed) {
      const w0 = performance.now();
      await cairn.warm();
      warmMs = performance.now() - w0;
    }
    const rng = makeRng(4242);
    // Inputs are made before the clock starts: the generators' own first use (reading the memories file) is not Cairn's.
    const contexts = Array.from({ length: n + 1 }, (_, i) => injectContext(rng, i));
    const queries = Array.from({ length: n + 1 }, () => recallQuery(rng));
    const lessons = Array.from({ length: n + 1 }, (_, i) => generatedLesson(rng, 900_000 + i));
    const call = async (i: number) => {
      if (op === "inject") await cairn.inject(contexts[i]!);
      else if (op === "recall") await cairn.recall(queries[i]!, { limit: 10 });
      else {
        const g = lessons[i]!;
        await cairn.add({ lesson: g.lesson, category: g.category, kind: g.kind, tags: [g.stack.name, g.domain] });
      }
    };
    const t0 = performance.now();
    await call(0);
    const firstMs = performance.now() - t0;
    const times: number[] = [];
    for (let i = 1; i <= n; i++) {
      const t = performance.now();
      await call(i);
      times.push(performance.now() - t);
    }
    await cairn.close();
    times.sort((a, b) => a - b);
    return { op, warmed, firstMs, p50Ms: times[Math.floor(times.length / 2)]!, warmMs };
  } finally {
    copy.remove();
  }
}

function runWorker(op: FirstCallOp, warmed: boolean, corpusDir: string): Promise<FirstCall> {
  const args = ["--import", "tsx", SELF, "--worker", op, warmed ? "warm" : "cold", corpusDir];
  return runResultWorker<FirstCall>(args, REPO_ROOT, `first-call worker ${op}`, 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Each case runs in `runs` new processes (medians reported): one first call is a single, noisy sample.
 * Five, not three: on 2026-11-29 thirteen processes per case gave first/p50 ratios of ×1.0–2.1 (inject,
 * median ×1.7), ×1.0–2.0 (add, ×1.5) and ×0.7–2.3 (recall, ×1.7), so a median of three landed above
 * ×2 on one unlucky pair alone.
 */
export async function runFirstCallBench(size = 10_000, seed = 42, runs = 5): Promise<FirstCallResult> {
  const corpus = await ensureCorpus(size, seed);
  const calls: FirstCall[] = [];
  for (const op of OPS) {
    for (const warmed of [false, true]) {
      const samples: FirstCall[] = [];
      for (let i = 0; i < runs; i++) samples.push(await runWorker(op, warmed, corpus.dir));
      calls.push({
        op, warmed, firstMs: median(samples.map((x) => x.firstMs)), p50Ms: median(samples.map((x) => x.p50Ms)), warmMs: median(samples.map((x) => x.warmMs)),
        ratios: samples.map((x) => x.firstMs / x.p50Ms),
      });
    }
  }
  return { size, calls };
}

export function firstCallLines(r: FirstCallResult): string[] {
  return r.calls.map((c) => {
    const ratio = c.firstMs / c.p50Ms;
    const how = c.warmed ? `after warm() (${c.warmMs.toFixed(0)} ms, off the hot path)` : "cold, as the CLI";
    const spread = c.ratios && c.ratios.length > 1 ? `; ${c.ratios.length} processes ×${Math.min(...c.ratios).toFixed(1)}–${Math.max(...c.ratios).toFixed(1)}` : "";
    return `first ${c.op} of a process, ${how}: ${c.firstMs.toFixed(1)} ms vs p50 ${c.p50Ms.toFixed(2)} ms (×${ratio.toFixed(1)}${c.warmed ? `, target ≤ ×${FIRST_CALL_TARGET_RATIO}` : ""}${spread})`;
  });
}

const argv = process.argv;
if (argv[1] && path.resolve(argv[1]) === SELF) {
  if (argv[2] === "--worker") {
    worker(argv[3] as FirstCallOp, argv[4] === "warm", argv[5]!, 20).then(
      (r) => process.stdout.write(`RESULT ${JSON.stringify(r)}\n`),
      (e: unknown) => {
        process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
        process.exit(1);
      },
    );
  } else {
    runFirstCallBench(Number(argv[2] ?? 10_000)).then((r) => console.log(firstCallLines(r).join("\n")));
  }
}
