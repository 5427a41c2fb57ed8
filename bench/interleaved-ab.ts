// Two checkouts' engines in one process on copies of one bench corpus, their recall and inject calls interleaved: CPU per call compared under the same machine load.
import fs from "node:fs";
import path from "node:path";
import { percentile } from "./stats.js";
import { timedCall } from "./timed-call.js";

const USAGE = `usage: node --expose-gc --import tsx bench/interleaved-ab.ts [--size 10000] [--calls 500] [--vectors on|off] <checkout> <checkout>…
  Each checkout is a directory holding src/ and bench/ (e.g. an older commit unpacked with
  \`git archive <commit> | tar -x -C /tmp/base\`, its node_modules and bench/.cache linked to this one's).
  Each opens its own copy of its seeded corpus (bench/run.ts --sizes N seeds it); call i of every
  engine gets the same input, in alternating order. On a shared machine single runs swing by tens of
  per cent; interleaving lets the load fall on both alike.`;

interface Engine {
  label: string;
  cairn: { recall(q: string, o: { limit: number }): Promise<unknown>; inject(c: unknown): Promise<unknown>; close(): Promise<void> };
  remove(): void;
}

function option(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
}

async function openEngine(root: string, size: number, vectors: boolean): Promise<Engine> {
  const from = (file: string) => import(path.join(path.resolve(root), file));
  const { openCairn } = await from("src/index.ts");
  const { copyCorpus } = await from("bench/corpus-copy.ts");
  const { benchConfig } = await from("bench/measure.ts");
  const { cacheDir } = await from("bench/seed.ts");
  const corpus = cacheDir(size, 42) as string;
  if (!fs.existsSync(path.join(corpus, "ready.json"))) throw new Error(`no seeded corpus at ${corpus}; run bench/run.ts --sizes ${size} there first`);
  const copy = copyCorpus(corpus, "cairn-ab-");
  const cairn = await openCairn({ ...copy.open, config: benchConfig(vectors), actor: "agent:bench" });
  return { label: root, cairn, remove: copy.remove };
}

async function main(): Promise<void> {
  const roots = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));
  if (roots.length < 2) throw new Error(USAGE);
  const size = Number(option("size", "10000"));
  const calls = Number(option("calls", "500"));
  const vectors = option("vectors", "on") !== "off";
  const engines: Engine[] = [];
  for (const root of roots) engines.push(await openEngine(root, size, vectors));
  const { injectContext, recallQuery } = await import("./corpus.js");
  const { makeRng } = await import("./rng.js");
  const cpu = engines.map(() => ({ recall: [] as number[], inject: [] as number[] }));
  const wall = engines.map(() => ({ recall: [] as number[], inject: [] as number[] }));
  for (const kind of ["recall", "inject"] as const) {
    const rng = makeRng(kind === "recall" ? 77 : 78);
    for (let i = -60; i < calls; i++) {
      const input = kind === "recall" ? recallQuery(rng) : injectContext(rng, Math.abs(i));
      const order = i % 2 ? [...engines.keys()].reverse() : [...engines.keys()];
      for (const k of order) {
        const t = await timedCall(engines[k]!.cairn, kind, input);
        if (i < 0) continue;
        cpu[k]![kind].push(t.cpuMs);
        wall[k]![kind].push(t.wallMs);
      }
    }
  }
  const f = (xs: number[], p: number) => percentile(xs, p).toFixed(2);
  for (const [k, e] of engines.entries()) {
    const c = cpu[k]!;
    const w = wall[k]!;
    console.log(
      `${e.label} ${size.toLocaleString("en-US")} + ${size.toLocaleString("en-US")}, vectors ${vectors ? "on" : "off"}, ${calls} calls each: ` +
        `recall CPU p50 ${f(c.recall, 50)} ms, wall p50 ${f(w.recall, 50)} p99 ${f(w.recall, 99)} | inject CPU p50 ${f(c.inject, 50)} p99 ${f(c.inject, 99)} ms, wall p50 ${f(w.inject, 50)} p99 ${f(w.inject, 99)}`,
    );
  }
  // Call i of every engine had the same input under nearly the same load: the median of the per-call
  // differences is steadier than the difference of two medians.
  for (let k = 1; k < engines.length; k++) {
    const paired = (kind: "recall" | "inject") => {
      const d = cpu[k]![kind].map((x, i) => x - cpu[0]![kind][i]!);
      const mid = percentile(d, 50);
      return `${mid >= 0 ? "+" : ""}${mid.toFixed(3)} ms (${((mid / percentile(cpu[0]![kind], 50)) * 100).toFixed(1)} %), faster in ${d.filter((x) => x < 0).length} of ${d.length}`;
    };
    console.log(`${engines[k]!.label} against ${engines[0]!.label}, CPU per call, median of paired differences: recall ${paired("recall")} | inject ${paired("inject")}`);
  }
  for (const e of engines) {
    await e.cairn.close();
    e.remove();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error)?.message ?? String(e)}\n`);
  process.exit(1);
});
