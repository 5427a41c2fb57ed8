// Allocation and CPU per inject/recall by function (a development aid: `node --import tsx bench/alloc-profile.ts 10000 [off] [inject|recall]`).
import inspector from "node:inspector";
import { openCairn } from "../src/index.js";
import { injectContext, recallQuery } from "./corpus.js";
import { copyCorpus } from "./corpus-copy.js";
import { benchConfig } from "./measure.js";
import { makeRng } from "./rng.js";
import { cacheDir } from "./seed.js";

interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  selfSize: number;
  children: SampleNode[];
}

const size = Number(process.argv[2] ?? 10_000);
const vectors = process.argv[3] !== "off";
const op = process.argv[4] === "recall" ? "recall" : "inject";
const session = new inspector.Session();
session.connect();
const post = <T>(method: string, params: object = {}) =>
  new Promise<T>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as T))));

const copy = copyCorpus(cacheDir(size, 42), "cairn-aprof-");
try {
  const cairn = await openCairn({ ...copy.open, config: benchConfig(vectors), actor: "agent:bench" });
  const rng = makeRng(5);
  const call = (i: number) => (op === "inject" ? cairn.inject(injectContext(rng, i)) : cairn.recall(recallQuery(rng), { limit: 10 }));
  for (let i = 0; i < 30; i++) await call(i);
  const n = 200;
  await post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await call(i);
  const cpu = process.cpuUsage(c0);
  const { profile } = await post<{ profile: { head: SampleNode } }>("HeapProfiler.stopSampling");
  const bySite = new Map<string, number>();
  // A built-in (no script) is named with the function that called it: "join" alone says nothing.
  const walk = (node: SampleNode, caller: string) => {
    const f = node.callFrame;
    const site = `${f.functionName || "(anon)"} ${f.url.replace(/^.*\/(src|node_modules)\//, "$1/")}:${f.lineNumber + 1}:${f.columnNumber ?? 0}`;
    const key = f.url ? site : `${f.functionName || "(anon)"} in ${caller}`;
    bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
    for (const c of node.children) walk(c, f.url ? site : caller);
  };
  walk(profile.head, "(root)");
  const total = [...bySite.values()].reduce((a, b) => a + b, 0);
  console.log(`size ${size} vectors ${vectors} ${op}: ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms CPU/call (sampling on), ${(total / n / 1024).toFixed(0)} KB allocated/call`);
  for (const [k, v] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25))) console.log(`${(v / n / 1024).toFixed(1).padStart(7)} KB  ${k}`);
  await cairn.close();
} finally {
  copy.remove();
}
