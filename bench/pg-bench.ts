// The team hive on PostgreSQL: inject p99 and recall p50 with 100k hive rows in PostgreSQL + 10k local swarm rows, and the fallback with the database down.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openCairn, type Cairn } from "../src/index.js";
import { teamHive } from "../src/hive/outbox.js";
import type { Services } from "../src/services.js";
import { PostgresStore } from "../src/store/pg/pg-store.js";
import { maskUrl } from "../src/store/pg/url.js";
import { SqliteStore } from "../src/store/sqlite-store.js";
import { startProxy, viaProxy } from "../test/helpers/tcp-proxy.js";
import { injectContext, recallQuery } from "./corpus.js";
import { makeRng } from "./rng.js";
import { cacheDir, ensureCorpus } from "./seed.js";
import { timeLoop, type Timing } from "./stats.js";

export interface PgBenchResult {
  server: string;
  hiveRows: number;
  swarmRows: number;
  seeded: { cached: boolean; seconds: number; schema: string };
  inject: Timing & { meanHive: number };
  recall: Timing;
  /** Injection with the database unreachable: the project tier plus recent hive results. */
  fallback: Timing & { withHive: number };
  /** The 1-minute load average before and after the measured loops: above the core count, wall time includes waiting for a CPU. */
  load: { before: number; after: number; cpus: number };
}

const HIVE = 100_000;
const SWARM = 10_000;
const SEED = 42;
/** Timed calls and untimed warm-up, as the SQLite bench's injection loop (bench/measure.ts): the p99 of 300 was the 3rd-worst call. */
const N = 500;
const WARMUP = 50;
/** Bump when a migration changes what seeded rows hold or how they lie on pages (8: fillfactor) — then the cache is seeded again. */
const SEEDED_AT_MIGRATION = 8;

async function reachable(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query("SELECT 1");
  } catch (e) {
    throw new Error(`PostgreSQL not reachable at ${maskUrl(url)} (${(e as Error).message}); set CAIRN_BENCH_PG=postgres://… to bench the team hive`);
  } finally {
    await c.end().catch(() => {});
  }
}

/** The PostgreSQL hive of the 100k corpus, seeded once and kept (like bench/.cache) in its own schema. */
async function seedHive(url: string, log: (m: string) => void): Promise<PgBenchResult["seeded"]> {
  // Named after the migration the rows were seeded under: later migrations (5: vectors, an empty table)
  // run on open and keep the seeded rows, so a new migration does not cost a 100k re-seed.
  const schema = `cairn_bench_h${HIVE}_s${SEED}_m${SEEDED_AT_MIGRATION}`;
  const store = new PostgresStore({ url, schema, poolMax: 8, statementTimeoutMs: 60_000 }, "hive");
  try {
    if ((await store.totalEntries()) === HIVE) return { cached: true, seconds: 0, schema };
    await store.db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await store.close();
  }
  const corpus = await ensureCorpus(HIVE, SEED, log);
  log(`seeding ${HIVE.toLocaleString("en-US")} hive entries into PostgreSQL schema ${schema} (once; kept for later runs)…`);
  const t0 = Date.now();
  const target = new PostgresStore({ url, schema, poolMax: 8, statementTimeoutMs: 60_000, connectTimeoutMs: 60_000 }, "hive");
  const source = new SqliteStore(corpus.hivePath, "hive");
  try {
    let batch: Promise<unknown>[] = [];
    let n = 0;
    for await (const e of source.iterateEntries()) {
      batch.push(target.insertEntry(e, { type: "created", actor: "bench:seed" }));
      if (batch.length === 8) {
        await Promise.all(batch);
        batch = [];
      }
      if (++n % 20_000 === 0) log(`  ${n.toLocaleString("en-US")}…`);
    }
    await Promise.all(batch);
    await target.db.query(`ANALYZE "${schema}".entries`);
  } finally {
    await source.close();
    await target.close();
  }
  return { cached: false, seconds: Math.round((Date.now() - t0) / 100) / 10, schema };
}

/**
 * The kept schema carries the dead row versions of every earlier run (each injection bumps usage
 * counters, a new row version each): vacuumed first, the figure is of the hive a team's autovacuum
 * keeps, not of whatever bloat the last run left.
 */
async function vacuumSchema(c: pg.Client, schema: string): Promise<void> {
  const tables = await c.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY 1", [schema]);
  // Names come from the catalogue and are quoted; VACUUM takes no bind parameters.
  const list = tables.rows.map((t) => `"${schema}"."${t.name.replace(/"/g, '""')}"`).join(", ");
  if (list) await c.query(`VACUUM (ANALYZE) ${list}`);
}

/**
 * A team's hive server runs for weeks and keeps its working set in memory; the bench's schema, though,
 * may have been pushed out of the OS page cache by everything the bench wrote before it (the corpora,
 * the import bench). Read cold, GIN and heap pages come from disk inside the timed calls: a run after
 * `drop_caches`, three alternating runs each, measured inject p99 24.5–28.8 ms without this and 12.0–16.1 ms with it. Every relation of the schema is read
 * into the page cache first (pg_prewarm's "read" mode, not shared_buffers: the schema is larger than
 * them), so the figure is the steady state's; the README's Team hive section says how a server keeps
 * that state across restarts. Where pg_prewarm cannot be had, one line says so and the run goes on.
 */
async function prewarmSchema(c: pg.Client, schema: string, log: (m: string) => void): Promise<void> {
  try {
    await c.query("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
    await c.query(
      `SELECT pg_prewarm(c.oid, 'read') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'i', 't')`,
      [schema],
    );
  } catch (e) {
    log(`not prewarmed (${(e as Error).message}): the first calls may read from disk`);
  }
}

/**
 * The read timeout is raised so the figures are PostgreSQL's own latency, never a fallback taken
 * because a busy machine answered late (the run checks the hive stayed up throughout).
 */
async function engine(projectDir: string, env: NodeJS.ProcessEnv, url: string, schema: string): Promise<Cairn> {
  return openCairn({
    projectDir, env, actor: "agent:bench",
    config: {
      hive_url: url,
      hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 },
      knowledge: { swarm_max_entries: 10_000_000, hive_max_entries: 10_000_000 },
    },
  });
}

function health(c: Cairn): string | undefined {
  return teamHive((c as unknown as { services: Services }).services)?.health;
}

export async function runPgBench(log: (m: string) => void = (m) => process.stderr.write(`${m}\n`)): Promise<PgBenchResult> {
  const url = process.env.CAIRN_BENCH_PG || process.env.CAIRN_TEST_PG || "postgres://postgres@127.0.0.1:5432/postgres";
  await reachable(url);
  const seeded = await seedHive(url, log);
  await ensureCorpus(SWARM, SEED, log);
  // Migrations first (a new one may touch the kept schema), then the vacuum and the prewarm, then the clock.
  const migrate = new PostgresStore({ url, schema: seeded.schema, poolMax: 1, statementTimeoutMs: 600_000, connectTimeoutMs: 60_000 }, "hive");
  try {
    await migrate.schemaVersion();
  } finally {
    await migrate.close();
  }
  const settle = new pg.Client({ connectionString: url });
  await settle.connect();
  try {
    await vacuumSchema(settle, seeded.schema);
    await prewarmSchema(settle, seeded.schema, log);
  } finally {
    await settle.end().catch(() => {});
  }
  // The 10k corpus's project (its swarm tier) on a copy, so counters do not drift the cache.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-pgbench-"));
  const proxy = await startProxy(Number(new URL(url).port || 5432));
  try {
    fs.cpSync(path.join(cacheDir(SWARM, SEED), "project"), path.join(tmp, "project"), { recursive: true });
    const env = { PATH: process.env.PATH ?? "", HOME: tmp, XDG_DATA_HOME: path.join(tmp, "xdg-data"), XDG_CONFIG_HOME: path.join(tmp, "xdg-config") };
    log(`measuring ${HIVE.toLocaleString("en-US")} hive rows in PostgreSQL + ${SWARM.toLocaleString("en-US")} swarm rows…`);
    const cairn = await engine(path.join(tmp, "project"), env, url, seeded.schema);
    const loadBefore = os.loadavg()[0]!;
    const rng = makeRng(SEED * 31 + 5);
    let hive = 0;
    const inject = await timeLoop(N, WARMUP, async (i) => {
      const r = await cairn.inject(injectContext(rng, i));
      if (i >= 0) hive += r.entries.filter((e) => e.tier === "hive").length;
    });
    const recall = await timeLoop(N, WARMUP, () => cairn.recall(recallQuery(rng), { limit: 10 }));
    const loadAfter = os.loadavg()[0]!;
    if (health(cairn) !== "up") throw new Error(`the hive did not stay up during the measurement (${health(cairn)}); the figures would be the fallback's`);
    await cairn.close();

    // The fallback: a session that has been running (its cache warm), then the database goes away.
    const session = await engine(path.join(tmp, "project"), env, viaProxy(url, proxy.port), seeded.schema);
    const warm = makeRng(SEED * 31 + 7);
    for (let i = 0; i < 200; i++) await session.inject(injectContext(warm, i), { recordShown: false });
    await proxy.cut();
    const restore = process.stderr.write.bind(process.stderr);
    // The one "unreachable" line is expected; it is not part of the report.
    process.stderr.write = (() => true) as typeof process.stderr.write;
    let withHive = 0;
    let fallback: Timing;
    try {
      const down = makeRng(SEED * 31 + 7);
      fallback = await timeLoop(N, 5, async (i) => {
        const r = await session.inject(injectContext(down, i < 0 ? 1000 - i : i), { recordShown: false });
        if (i >= 0 && r.entries.some((e) => e.tier === "hive")) withHive++;
      });
    } finally {
      process.stderr.write = restore;
    }
    await session.close();
    return {
      server: maskUrl(url),
      hiveRows: HIVE,
      swarmRows: SWARM,
      seeded,
      inject: { ...inject, meanHive: hive / N },
      recall,
      fallback: { ...fallback, withHive },
      load: { before: loadBefore, after: loadAfter, cpus: os.cpus().length },
    };
  } finally {
    await proxy.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// Run alone: the JSON report; with --result-line (how `npm run bench` runs it, in a process of its own so the
// SQLite benches' heap and collections stay out of its p99): one `RESULT {json}` line bench/child-result.ts reads.
// Bundled by bench/run.ts (bench/bundled-worker.ts) it runs as dist-bench/pg-bench.js.
if (/pg-bench\.(ts|js)$/.test(process.argv[1] ?? "")) {
  const resultLine = process.argv.includes("--result-line");
  runPgBench().then(
    (r) => console.log(resultLine ? `RESULT ${JSON.stringify(r)}` : JSON.stringify(r, null, 2)),
    (e: unknown) => {
      console.error((e as Error).message);
      process.exit(1);
    },
  );
}
