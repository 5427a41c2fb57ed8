// Budgets from DESIGN.md ("Performance budgets") and the PASS/FAIL table printed by `npm run bench`.
import type { SizeResult } from "./measure.js";
import type { Timing } from "./stats.js";

/** At 10,000 entries per tier; at 100,000 each may be 3× this. RSS applies at 100,000. */
export const BUDGETS = { injectP99Ms: 10, recallP50Ms: 5, addP50Ms: 5, rssMb: 200, largeFactor: 3, largeSize: 100_000, statsP50Ms: 20 };

export interface Row {
  size: number;
  /** Measured with the built-in embedder on (hybrid recall). */
  vectors: boolean;
  metric: string;
  value: number;
  unit: "ms" | "MB";
  budget: number | null;
  pass: boolean | null;
}

function factorFor(size: number): number {
  // Sizes up to 10k are held to the 10k budget; larger ones get the design's 3× allowance.
  return size > 10_000 ? BUDGETS.largeFactor : 1;
}

export function rowsFor(r: SizeResult): Row[] {
  const f = factorFor(r.size);
  const row = (metric: string, value: number, unit: Row["unit"], budget: number | null): Row => ({
    size: r.size, vectors: r.vectors, metric, value, unit, budget, pass: budget === null ? null : value <= budget,
  });
  return [
    row("add p50", r.add.p50, "ms", BUDGETS.addP50Ms * f),
    row("recall p50", r.recall.p50, "ms", BUDGETS.recallP50Ms * f),
    row("inject p99", r.inject.p99, "ms", BUDGETS.injectP99Ms * f),
    row("resident memory (RSS)", r.rssMb, "MB", r.size >= BUDGETS.largeSize ? BUDGETS.rssMb : null),
    // Issue 10.6: stats() at 100k + 100k within 20 ms, from tallies, without loading the entries into memory.
    row("stats() p50", r.stats.p50, "ms", BUDGETS.statsP50Ms),
    row("RSS after stats()", r.stats.rssAfterMb, "MB", r.size >= BUDGETS.largeSize ? BUDGETS.rssMb : null),
  ];
}

const fmt = (v: number, unit: string) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ${unit}`;

export function renderTable(rows: readonly Row[]): string {
  const head = ["entries/tier", "vectors", "metric", "measured", "budget", "result"];
  const body = rows.map((r) => [
    r.size.toLocaleString("en-US"), r.vectors ? "on" : "off", r.metric, fmt(r.value, r.unit),
    r.budget === null ? "—" : `≤ ${fmt(r.budget, r.unit)}`, r.pass === null ? "info" : r.pass ? "PASS" : "FAIL",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

export function detailLines(r: SizeResult): string {
  const t = (x: Timing) =>
    `p50 ${x.p50.toFixed(2)} / p99 ${x.p99.toFixed(2)} ms wall` + (x.cpu ? `, ${x.cpu.p50.toFixed(2)} / ${x.cpu.p99.toFixed(2)} ms CPU` : "") +
    (x.thread ? `, main thread ${x.thread.cpu.p50.toFixed(2)} / ${x.thread.cpu.p99.toFixed(2)} ms on CPU, ${x.thread.runQueue.p50.toFixed(2)} / ${x.thread.runQueue.p99.toFixed(2)} ms waiting for one` : "") + ` (n=${x.n})`;
  return [
    `${r.size.toLocaleString("en-US")} + ${r.size.toLocaleString("en-US")}, vectors ${r.vectors ? "on" : "off"}: open ${r.openMs.toFixed(0)} ms`,
    `  add    ${t(r.add)} actions ${JSON.stringify(r.add.actions)}`,
    `  recall ${t(r.recall)} mean hits ${r.recall.meanHits.toFixed(1)}`,
    `  inject ${t(r.inject)} mean entries ${r.inject.meanEntries.toFixed(1)}`,
    `  stats  ${t(r.stats)} rss after ${r.stats.rssAfterMb.toFixed(0)} MB`,
    `  memory rss ${r.rssMb.toFixed(0)} MB (before opening the stores: ${r.baselineRssMb.toFixed(0)} MB), heap ${r.heapUsedMb.toFixed(0)} MB`,
  ].join("\n");
}
