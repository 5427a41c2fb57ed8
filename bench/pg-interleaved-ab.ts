// Two checkouts' engines against the PostgreSQL bench hive in one process, calls interleaved: client CPU per call and the database backends' CPU per call, compared under the same load.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { percentile } from "./stats.js";
import { timedCall } from "./timed-call.js";

const USAGE = `usage: node --expose-gc --import tsx bench/pg-interleaved-ab.ts [--calls 400] [--pool-max N] <checkout> <checkout>…
  Each checkout is a directory holding src/ and bench/ (e.g. an older commit unpacked with
  \`git archive <commit> | tar -x -C /tmp/base\`, its node_modules and bench/.cache linked to this one's).
  Needs the schema bench/pg-bench.ts seeds (100k hive rows) and its 10k swarm corpus; the database on
  this machine (backend CPU is read from /proc/<pid>/stat of the backends each engine opened).`;

const SCHEMA = "cairn_bench_h100000_s42_m8";
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_MS = 100 / 1000;

function option(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
}

interface Engine {
  label: string;
  app: string;
  cairn: { recall(q: string, o: { limit: number }): Promise<unknown>; inject(c: unknown): Promise<unknown>; close(): Promise<void> };
  tmp: string;
}

async function openEngine(root: string, k: number, url: string, poolMax: number | undefined): Promise<Engine> {
  const from = (file: string) => import(path.join(path.resolve(root), file));
  const { openCairn } = await from("src/index.ts");
  const { cacheDir } = await from("bench/seed.ts");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-pgab-"));
  fs.cpSync(path.join(cacheDir(10_000, 42) as string, "project"), path.join(tmp, "project"), { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: tmp, XDG_DATA_HOME: path.join(tmp, "xdg-data"), XDG_CONFIG_HOME: path.join(tmp, "xdg-config") };
  const app = `cairn-ab-${process.pid}-${k}`;
  const cairn = await openCairn({
    projectDir: path.join(tmp, "project"), env, actor: "agent:bench",
    config: {
      hive_url: `${url}${url.includes("?") ? "&" : "?"}application_name=${app}`,
      hive_postgres: { schema: SCHEMA, read_timeout_ms: 10_000, connect_timeout_ms: 30_000, ...(poolMax ? { pool_max: poolMax } : {}) },
      knowledge: { swarm_max_entries: 1e7, hive_max_entries: 1e7 },
    },
  });
  return { label: root, app, cairn, tmp };
}

/**
 * CPU (ms) of the backends serving one application name, per backend: a pool may close an idle
 * connection and open another mid-run, so each backend seen is remembered with the last figure read.
 */
class BackendCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();

  constructor(private readonly admin: pg.Client, private readonly app: string) {}

  /** Reads every backend of the application now; `start` marks the figures the total counts from. */
  async sample(start = false): Promise<void> {
    const pids = (await this.admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [this.app])).rows;
    if (start) {
      this.first.clear();
      this.last.clear();
    }
    for (const { pid } of pids) {
      try {
        // Fields after the parenthesised command: utime and stime are the 14th and 15th of the line.
        const rest = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        const ms = (Number(rest[11]) + Number(rest[12])) / TICKS_PER_MS;
        // A backend first seen after the start counts whole (its connection was opened for this run).
        if (!this.first.has(pid)) this.first.set(pid, start ? ms : 0);
        this.last.set(pid, ms);
      } catch {
        // A backend that ended since the list was read.
      }
    }
  }

  total(): number {
    let sum = 0;
    for (const [pid, ms] of this.last) sum += ms - this.first.get(pid)!;
    return sum;
  }
}

async function main(): Promise<void> {
  const roots = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));
  if (roots.length < 1) throw new Error(USAGE);
  const calls = Number(option("calls", "400"));
  // One connection each makes the database's figure that of one backend, whose prepared statements and
  // their plans are made once (a pool's several connections each choose their own plans).
  const poolMax = process.argv.includes("--pool-max") ? Number(option("pool-max", "1")) : undefined;
  const url = process.env.CAIRN_BENCH_PG || process.env.CAIRN_TEST_PG || "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const engines: Engine[] = [];
  for (const [k, root] of roots.entries()) engines.push(await openEngine(root, k, url, poolMax));
  const { injectContext, recallQuery } = await import("./corpus.js");
  const { makeRng } = await import("./rng.js");
  const load = os.loadavg()[0]!;
  for (const kind of ["inject", "recall"] as const) {
    const cpu = engines.map(() => [] as number[]);
    const wall = engines.map(() => [] as number[]);
    const server = engines.map((e) => new BackendCpu(admin, e.app));
    const rng = makeRng(kind === "recall" ? 42 * 31 + 9 : 42 * 31 + 5);
    for (let i = -50; i < calls; i++) {
      const input = kind === "recall" ? recallQuery(rng) : injectContext(rng, Math.abs(i));
      if (i === 0) for (const b of server) await b.sample(true);
      else if (i > 0 && i % 20 === 0) for (const b of server) await b.sample();
      const order = i % 2 ? [...engines.keys()].reverse() : [...engines.keys()];
      for (const k of order) {
        const t = await timedCall(engines[k]!.cairn, kind, input);
        if (i < 0) continue;
        cpu[k]!.push(t.cpuMs);
        wall[k]!.push(t.wallMs);
      }
    }
    // Usage counts reach the hive 250 ms after the last turn: let them land before the backends are read.
    await new Promise((r) => setTimeout(r, 600));
    for (const b of server) await b.sample();
    const f = (xs: number[], p: number) => percentile(xs, p).toFixed(2);
    for (const [k, e] of engines.entries()) {
      console.log(
        `${kind} ${e.label}: client CPU p50 ${f(cpu[k]!, 50)} p99 ${f(cpu[k]!, 99)} mean ${(cpu[k]!.reduce((a, b) => a + b, 0) / calls).toFixed(2)} ms | ` +
          `database CPU per call ${(server[k]!.total() / calls).toFixed(2)} ms | wall p50 ${f(wall[k]!, 50)} p99 ${f(wall[k]!, 99)} ms`,
      );
    }
  }
  console.log(`${calls} calls each, load average ${load.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs`);
  for (const e of engines) {
    await e.cairn.close();
    fs.rmSync(e.tmp, { recursive: true, force: true });
  }
  await admin.end();
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(1);
});
