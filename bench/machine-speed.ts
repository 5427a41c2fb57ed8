// Machine speed: a fixed CPU workload that runs none of Cairn's code, timed, so figures from different machines can be compared.

/** Best time of the reference workload, ms (lower is faster), and each run's. */
export interface MachineSpeed {
  /** The fastest run: load from other processes slows some runs, rarely all of them. */
  referenceMs: number;
  runsMs: number[];
}

/**
 * One pass of the workload: integer arithmetic, a sort of objects, JSON and a regex scan — the kinds
 * of work a turn does, in fixed amounts. Its result is returned so no step can be optimised away.
 */
function referenceWorkload(): number {
  let x = 0;
  for (let i = 0; i < 30_000_000; i++) x = (x * 31 + i) | 0;
  const items = Array.from({ length: 100_000 }, (_, i) => ({ i, key: `k${(i * 7919) % 100_003}` }));
  items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const doc = JSON.stringify(items.slice(0, 5_000));
  const parsed = JSON.parse(doc) as Array<{ i: number }>;
  const text = "Retry the billing worker call with backoff before failing the job. ".repeat(20_000);
  const words = text.match(/\b[a-z]{5,}\b/g)?.length ?? 0;
  return x + parsed.length + words;
}

/** Runs the reference workload `runs` times after two warm-up passes (the first passes run before the JIT's top tier). */
export function measureMachineSpeed(runs = 5): MachineSpeed {
  referenceWorkload();
  referenceWorkload();
  const runsMs: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    referenceWorkload();
    runsMs.push(performance.now() - t0);
  }
  return { referenceMs: Math.min(...runsMs), runsMs };
}

export function machineSpeedLine(m: MachineSpeed): string {
  return `machine reference workload (no Cairn code; lower is faster — compare figures across machines by it): best ${m.referenceMs.toFixed(0)} ms (runs ${m.runsMs.map((r) => r.toFixed(0)).join(", ")})`;
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) console.log(machineSpeedLine(measureMachineSpeed()));
