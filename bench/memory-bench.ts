// Benchmark: resident memory of a long-running server over many injection turns at 10k + 10k (issue 16.3).
//
// One child process (a fresh heap and allocator) serves `turns` injection turns that repeat 20
// contexts, as a server does all day, and samples RSS after a full GC. Growth after warm-up is
// what would take a million-turn server past its 200 MB budget.
import { runResultWorker } from "./child-result.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT } from "./corpus.js";
import { BENCH_CAPS, copyCorpus } from "./corpus-copy.js";
import { ensureCorpus } from "./seed.js";

export interface MemoryResult {
  size: number;
  turns: number;
  warmupTurns: number;
  /** [turn, RSS MB] after a full GC, from the end of warm-up on. */
  samples: Array<[number, number]>;
  rssAfterWarmupMb: number;
  rssEndMb: number;
  heapEndMb: number;
  /** Prepared statements of both tiers at the end (each one's native memory is never returned). */
  statements: number;
}

/** Target of issue 16: flat within this after warm-up. */
export const MEMORY_GROWTH_TARGET_MB = 10;
const SELF = fileURLToPath(import.meta.url);
const SAMPLES = 10;

async function worker(corpusDir: string, turns: number): Promise<MemoryResult> {
  const { openCairn } = await import("../src/index.js");
  const { injectContext } = await import("./corpus.js");
  const { makeRng } = await import("./rng.js");
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const copy = copyCorpus(corpusDir, "cairn-memory-");
  try {
    const cairn = await openCairn({ ...copy.open, config: { knowledge: BENCH_CAPS }, actor: "agent:bench" });
    const rng = makeRng(1616);
    const contexts = Array.from({ length: 20 }, (_, i) => injectContext(rng, i));
    // Warm-up covers the JIT, the statement cache and the first heap resizes (measured: RSS settles by ~1,500 turns).
    const warmupTurns = Math.min(5_000, Math.max(2_000, Math.floor(turns / 10)));
    const every = Math.max(1, Math.floor((turns - warmupTurns) / SAMPLES));
    const rss = () => {
      gc();
      return process.memoryUsage().rss / 1048576;
    };
    const samples: Array<[number, number]> = [];
    for (let i = 1; i <= turns; i++) {
      await cairn.inject(contexts[i % contexts.length]!);
      // Between turns, as a server's idle moments are: the idle WAL checkpoint gets to run.
      if (i % 100 === 0) await new Promise((r) => setImmediate(r));
      if (i === warmupTurns || (i > warmupTurns && (i - warmupTurns) % every === 0) || i === turns) samples.push([i, rss()]);
    }
    const services = (cairn as unknown as { services: { swarm: { driver?: { statementCount: number } }; hive?: { driver?: { statementCount: number } } } }).services;
    const statements = (services.swarm.driver?.statementCount ?? 0) + (services.hive?.driver?.statementCount ?? 0);
    const heapEndMb = process.memoryUsage().heapUsed / 1048576;
    await cairn.close();
    return { size: 0, turns, warmupTurns, samples, rssAfterWarmupMb: samples[0]![1], rssEndMb: samples[samples.length - 1]![1], heapEndMb, statements };
  } finally {
    copy.remove();
  }
}

/** Runs the turns in a new process on a copy of the corpus of `size` per tier. */
export async function runMemoryBench(size = 10_000, seed = 42, turns = 100_000): Promise<MemoryResult> {
  const corpus = await ensureCorpus(size, seed);
  const args = ["--expose-gc", "--import", "tsx", SELF, "--worker", corpus.dir, String(turns)];
  const r = await runResultWorker<MemoryResult>(args, REPO_ROOT, "memory worker", 1000);
  return { ...r, size };
}

export function memoryLines(r: MemoryResult): string[] {
  const growth = r.rssEndMb - r.rssAfterWarmupMb;
  const perTurn = ((growth * 1048576) / Math.max(1, r.turns - r.warmupTurns)).toFixed(0);
  const n = r.size.toLocaleString("en-US");
  return [
    `resident memory over ${r.turns.toLocaleString("en-US")} injection turns (${n} + ${n}, 20 contexts repeating): ${r.rssAfterWarmupMb.toFixed(1)} MB after ${r.warmupTurns.toLocaleString("en-US")} warm-up turns → ${r.rssEndMb.toFixed(1)} MB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MB, ${perTurn} B/turn; target flat within ${MEMORY_GROWTH_TARGET_MB} MB) ${Math.abs(growth) <= MEMORY_GROWTH_TARGET_MB ? "PASS" : "FAIL"}`,
    `  samples (turn: MB) ${r.samples.map(([t, m]) => `${t}: ${m.toFixed(1)}`).join(", ")}; JS heap ${r.heapEndMb.toFixed(1)} MB; ${r.statements} prepared statements`,
  ];
}

const argv = process.argv;
if (argv[1] && path.resolve(argv[1]) === SELF) {
  if (argv[2] === "--worker") {
    worker(argv[3]!, Number(argv[4])).then(
      (r) => process.stdout.write(`RESULT ${JSON.stringify(r)}\n`),
      (e: unknown) => {
        process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
        process.exit(1);
      },
    );
  } else {
    runMemoryBench(10_000, 42, Number(argv[2] ?? 100_000)).then((r) => console.log(memoryLines(r).join("\n")));
  }
}
