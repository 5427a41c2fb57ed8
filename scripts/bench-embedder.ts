// Measures the built-in embedder: table load and per-query embedding, in CPU time (robust on a shared, loaded machine).
//
// `nice -n 10 node --import tsx scripts/bench-embedder.ts [table.bin]` — embeds every eval case text (the
// contexts recall and inject see) 20 times; prints JSON. Wall-clock percentiles are printed too, for reference.
import { allCases } from "../eval/retrieval/cases/index.js";
import { caseText } from "../eval/retrieval/rankers.js";
import { defaultTablePath, StaticEmbedder } from "../src/embed/static-embedder.js";

const file = process.argv[2] ?? defaultTablePath();
const cpuMs = (f: () => void) => {
  const a = process.cpuUsage();
  f();
  const d = process.cpuUsage(a);
  return (d.user + d.system) / 1000;
};
const loads: number[] = [];
for (let i = 0; i < 5; i++) loads.push(cpuMs(() => new StaticEmbedder(file).embedSync("docker")));
const emb = new StaticEmbedder(file);
const texts = allCases().map(caseText);
emb.embedSync(texts[0]!);
const REPS = 20;
const wall: number[] = [];
const cpu = cpuMs(() => {
  for (let r = 0; r < REPS; r++)
    for (const t of texts) {
      const t0 = performance.now();
      emb.embedSync(t);
      wall.push(performance.now() - t0);
    }
});
wall.sort((a, b) => a - b);
const pct = (p: number) => +(wall[Math.floor(wall.length * p)]! * 1000).toFixed(1);
console.log(
  JSON.stringify({
    model: emb.modelId,
    dimension: emb.dimension,
    load_cpu_ms: loads.map((x) => +x.toFixed(1)),
    queries: wall.length,
    query_cpu_mean_us: +((cpu * 1000) / wall.length).toFixed(1),
    query_wall_p50_us: pct(0.5),
    query_wall_p90_us: pct(0.9),
    rss_mb: Math.round(process.memoryUsage().rss / 1e6),
  }),
);
