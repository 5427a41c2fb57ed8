// Timing helpers: nanosecond clock, percentiles, a timed loop with warm-up.

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
  for (let i = 0; i < n; i++) {
    // Untimed, as a server's idle moment between turns: a due timer (the idle WAL checkpoint) runs
    // here. The engine never yields inside a call, so without this it would never run and the WAL
    // would grow until SQLite's own checkpoint fired inside a timed commit.
    await new Promise((r) => setImmediate(r));
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await op(i);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
  }
  return { ...summarize(ms), cpu: { p50: percentile(cpuMs, 50), p99: percentile(cpuMs, 99) } };
}
