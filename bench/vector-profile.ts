// Profiles recall and inject with vectors on at one size (a development aid: `node --cpu-prof --import tsx bench/vector-profile.ts 10000`).
import { openCairn } from "../src/index.js";
import { injectContext, recallQuery } from "./corpus.js";
import { copyCorpus } from "./corpus-copy.js";
import { benchConfig } from "./measure.js";
import { makeRng } from "./rng.js";
import { cacheDir } from "./seed.js";

const size = Number(process.argv[2] ?? 10_000);
const vectors = process.argv[3] !== "off";
const copy = copyCorpus(cacheDir(size, 42), "cairn-vprof-");
try {
  const cairn = await openCairn({ ...copy.open, config: benchConfig(vectors), actor: "agent:bench" });
  const rng = makeRng(5);
  for (let i = 0; i < 30; i++) await cairn.inject(injectContext(rng, i));
  const c0 = process.cpuUsage();
  const n = 300;
  for (let i = 0; i < n; i++) await cairn.recall(recallQuery(rng), { limit: 10 });
  const c1 = process.cpuUsage(c0);
  for (let i = 0; i < n; i++) await cairn.inject(injectContext(rng, i));
  const c2 = process.cpuUsage(c0);
  const ms = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000 / n;
  console.log(`size ${size} vectors ${vectors}: recall ${ms(c1).toFixed(2)} ms CPU mean, inject ${(ms(c2) - ms(c1)).toFixed(2)} ms CPU mean, rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`);
  await cairn.close();
} finally {
  copy.remove();
}
