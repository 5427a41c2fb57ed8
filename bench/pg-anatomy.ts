// Where the PG bench's slowest injections spend their time: per call, the main thread's CPU and run-queue wait, GC, idle checkpoints and hive statements.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { openCairn } from "../src/index.js";
import { teamHive } from "../src/hive/outbox.js";
import type { Services } from "../src/services.js";
import type { SqliteStore } from "../src/store/sqlite-store.js";
import { injectContext } from "./corpus.js";
import { makeRng } from "./rng.js";
import { percentile } from "./stats.js";
import { cacheDir } from "./seed.js";

/*
 * Run after bench/pg-bench.ts has seeded its schema (same seeds, same engine settings):
 *   node --expose-gc --import tsx bench/pg-anatomy.ts [--calls 300] [--slowest 10]
 * Linux only (reads /proc/thread-self/schedstat). A diagnosis, not a gate: it prints, never fails.
 */
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg("--calls", 300);
const SLOWEST = arg("--slowest", 10);
const url = process.env.CAIRN_BENCH_PG || process.env.CAIRN_TEST_PG || "postgres://postgres@127.0.0.1:5432/postgres";
const schema = "cairn_bench_h100000_s42_m8";

function sched(): [number, number] {
  const [run, wait] = fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ");
  return [Number(run) / 1e6, Number(wait) / 1e6];
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-pganatomy-"));
fs.cpSync(path.join(cacheDir(10_000, 42), "project"), path.join(tmp, "project"), { recursive: true });
const env = { PATH: process.env.PATH ?? "", HOME: tmp, XDG_DATA_HOME: path.join(tmp, "xdg-data"), XDG_CONFIG_HOME: path.join(tmp, "xdg-config") };
const cairn = await openCairn({
  projectDir: path.join(tmp, "project"), env, actor: "agent:bench",
  config: { hive_url: url, hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 }, knowledge: { swarm_max_entries: 1e7, hive_max_entries: 1e7 } },
});
try {
  const s = (cairn as unknown as { services: Services }).services;
  const driver = (s.swarm as SqliteStore).driver;
  const db = teamHive(s)!.remote.db;
  let statements = 0;
  const query = db.query.bind(db);
  db.query = ((...a: Parameters<typeof query>) => (statements++, query(...a))) as typeof db.query;
  const gcs: Array<[number, number]> = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
  }).observe({ entryTypes: ["gc"] });

  const rng = makeRng(42 * 31 + 5);
  for (let i = 0; i < 30; i++) await cairn.inject(injectContext(rng, -1 - i));
  const calls: Array<{ i: number; wall: number; cpu: number; queued: number; gc: number; checkpoints: number; statements: number; t0: number; t1: number }> = [];
  for (let i = 0; i < N; i++) {
    await new Promise((r) => setImmediate(r));
    const [c0, q0] = sched();
    const k0 = driver.idleCheckpoints;
    statements = 0;
    const t0 = performance.now();
    await cairn.inject(injectContext(rng, i));
    const t1 = performance.now();
    const [c1, q1] = sched();
    calls.push({ i, wall: t1 - t0, cpu: c1 - c0, queued: q1 - q0, gc: 0, checkpoints: driver.idleCheckpoints - k0, statements, t0, t1 });
  }
  await new Promise((r) => setTimeout(r, 50));
  for (const c of calls) c.gc = gcs.reduce((a, [b, e]) => a + Math.max(0, Math.min(e, c.t1) - Math.max(b, c.t0)), 0);

  const col = (k: "wall" | "cpu" | "queued" | "gc") => calls.map((c) => c[k]);
  const line = (k: "wall" | "cpu" | "queued" | "gc") => `p50 ${percentile(col(k), 50).toFixed(1)} p99 ${percentile(col(k), 99).toFixed(1)}`;
  console.log(`${N} injections, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} on ${os.cpus().length} CPUs`);
  console.log(`  wall ${line("wall")} | main thread on CPU ${line("cpu")} | waiting for a CPU ${line("queued")} | GC inside ${line("gc")} ms`);
  console.log(`  hive statements sent inside a call, per call ${(calls.reduce((a, c) => a + c.statements, 0) / N).toFixed(2)}; idle checkpoints: ${driver.idleCheckpoints} in all, ${calls.filter((c) => c.checkpoints > 0).length} inside a call`);
  console.log(`  slowest ${SLOWEST} (the rest of the wall is waiting on PostgreSQL or on V8's helper threads):`);
  for (const c of [...calls].sort((a, b) => b.wall - a.wall).slice(0, SLOWEST)) {
    console.log(`    #${c.i} wall ${c.wall.toFixed(1)} on CPU ${c.cpu.toFixed(1)} waiting ${c.queued.toFixed(1)} GC ${c.gc.toFixed(1)} checkpoints ${c.checkpoints} statements ${c.statements}`);
  }
} finally {
  await cairn.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
