// Per-row CPU of a lossless import worker's steps (parse, gates, derived columns, all three) for two or more checkouts interleaved in one process, on the same bench rows.
import path from "node:path";
import { makeRng } from "./rng.js";
import { makeEntry } from "./seed.js";

const USAGE = `usage: node --import tsx bench/prepare-ab.ts [--rows 3000] [--rounds 9] <checkout> <checkout>…
  Each checkout is a directory holding src/ (e.g. an older commit unpacked inside this repository with
  \`git archive <commit> src | tar -x -C ab-base\`, so it resolves this node_modules). Rounds alternate the
  order; each step's median per row is printed, and whether every checkout prepared the same items.`;

function option(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
}

interface Steps {
  root: string;
  parseCairnLine(text: string, line: number): { ok: boolean; record?: { entry: unknown } } | undefined;
  gateRestoredEntry(entry: unknown): { ok: boolean };
  restoredEntry(entry: unknown, gate: unknown): unknown;
  derivedColumns(entry: unknown): unknown;
  prepareItem(item: unknown, ctx: unknown, opts: { ahead: boolean }): unknown;
}

async function load(root: string): Promise<Steps> {
  const from = (file: string) => import(path.join(path.resolve(root), file));
  const [cairn, restore, columns, prepare] = await Promise.all(["src/io/formats/cairn.ts", "src/io/restore.ts", "src/store/entry-columns.ts", "src/io/prepare.ts"].map(from));
  return { root, ...cairn, ...restore, ...columns, ...prepare } as Steps;
}

/** CPU µs per row of `f` over `n` rows. */
function timed(n: number, f: () => void): number {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / n;
}

const roots = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));
if (roots.length < 2) throw new Error(USAGE);
const rows = Number(option("rows", "3000"));
const rounds = Number(option("rounds", "9"));
// The rows bench/import-bench.ts writes: distinct generated entries as a cairn export holds them.
const rng = makeRng(42);
const lines = Array.from({ length: rows }, (_, i) => {
  const e = makeEntry(rng, "swarm", undefined);
  return JSON.stringify({ ...e, lesson: `${e.lesson.slice(0, 250)} (row ${i})`, lifecycle: { ...e.lifecycle, status: "candidate" } });
});
const ctx = { config: {}, trusted: true, hive: false };
const checkouts = await Promise.all(roots.map(load));
const STEPS = ["parse", "gates", "derived", "all"] as const;
const times = checkouts.map(() => Object.fromEntries(STEPS.map((s) => [s, [] as number[]])) as Record<(typeof STEPS)[number], number[]>);
const prepared: string[][] = checkouts.map(() => []);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? [...checkouts.keys()].reverse() : [...checkouts.keys()];
  for (const k of order) {
    const c = checkouts[k]!;
    const items = lines.map(() => undefined as ReturnType<Steps["parseCairnLine"]>);
    const gates: Array<{ ok: boolean }> = [];
    times[k]!.parse.push(timed(rows, () => lines.forEach((l, i) => (items[i] = c.parseCairnLine(l, i + 1)))));
    times[k]!.gates.push(timed(rows, () => items.forEach((it) => gates.push(c.gateRestoredEntry(it!.record!.entry)))));
    times[k]!.derived.push(timed(rows, () => items.forEach((it, i) => gates[i]!.ok && c.derivedColumns(c.restoredEntry(it!.record!.entry, gates[i])))));
    const all: unknown[] = [];
    times[k]!.all.push(timed(rows, () => lines.forEach((l, i) => all.push(c.prepareItem(c.parseCairnLine(l, i + 1), ctx, { ahead: true })))));
    if (round === 0) prepared[k] = all.map((x) => JSON.stringify(x));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const [k, c] of checkouts.entries()) console.log(`${c.root}: ${STEPS.map((s) => `${s} ${median(times[k]![s]).toFixed(1)}`).join(", ")} µs a row (medians of ${rounds})`);
for (let k = 1; k < checkouts.length; k++) console.log(`${roots[k]} prepared the same items as ${roots[0]}: ${prepared[k]!.every((p, i) => p === prepared[0]![i])}`);
