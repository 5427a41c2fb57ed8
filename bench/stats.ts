// Timing helpers: nanosecond clock, percentiles, a timed loop with warm-up.
import fs from "node:fs";

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  // Nearest-rank: p99 of 500 samples is the 495th, a real observation, never an interpolation.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Timing {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
  /** CPU time of the process per call (user + system), where the loop measured it: wall minus CPU is waiting. */
  cpu?: { p50: number; p99: number };
  /**
   * Linux only: the calling (main) thread's own time on a CPU per call, and its time runnable but
   * waiting for one (the run queue: other processes, the database, V8's helper threads). On a busy
   * machine the wall-clock tail is mostly the second; the first is what the code costs.
   */
  thread?: { cpu: { p50: number; p99: number }; runQueue: { p50: number; p99: number } };
}

/** The calling thread's [on-CPU ns, run-queue ns] from schedstat, or undefined where there is none. */
function threadSched(): [number, number] | undefined {
  try {
    const [run, wait] = fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ");
    return [Number(run), Number(wait)];
  } catch {
    return undefined;
  }
}

export function summarize(ms: readonly number[]): Timing {
  return {
    n: ms.length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    mean: ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length),
    max: Math.max(...ms),
  };
}

/** Runs `op(i)` `warmup` times untimed, then `n` times timed, each call on its own input index. */
export async function timeLoop(n: number, warmup: number, op: (i: number) => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await op(-1 - i);
  const ms: number[] = [];
  const cpuMs: number[] = [];
  const onCpu: number[] = [];
  const queued: number[] = [];
  for (let i = 0; i < n; i++) {
    // Untimed, as a server's idle moment between turns: upkeep that waited for the call (the idle WAL
    // checkpoint, src/store/between-calls.ts) runs here. A call on SQLite alone never yields, so
    // without this it would never run and the WAL would grow until SQLite's own checkpoint fired
    // inside a timed commit.
    await new Promise((r) => setImmediate(r));
    const s0 = threadSched();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await op(i);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
    const s1 = s0 && threadSched();
    if (s0 && s1) {
      onCpu.push((s1[0] - s0[0]) / 1e6);
      queued.push((s1[1] - s0[1]) / 1e6);
    }
  }
  const pair = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
  return { ...summarize(ms), cpu: pair(cpuMs), ...(onCpu.length === n ? { thread: { cpu: pair(onCpu), runQueue: pair(queued) } } : {}) };
}
