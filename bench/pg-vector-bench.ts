// Vector search on the PostgreSQL hive at 100k entries: pgvector (HNSW, filter before top-k) against exact search in Cairn.
// Run: CAIRN_BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres nice -n 10 node --import tsx bench/pg-vector-bench.ts [dim]
// Reads the entries of the pg bench's cached schema (never changes it) into a schema of its own, seeded once and kept.
import pg from "pg";
import { PostgresStore } from "../src/store/pg/pg-store.js";
import type { EntryFilter, VectorSpace } from "../src/store/store.js";
import { makeRng } from "./rng.js";
import { timeLoop } from "./stats.js";

const URL = process.env.CAIRN_BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SOURCE = "cairn_bench_h100000_s42_m4";
const DIM = Number(process.argv[2] ?? 256);
const TARGET = `cairn_bench_vec_h100000_d${DIM}`;
const SPACE: VectorSpace = { modelId: "bench-clustered", dimension: DIM };
/** Text embeddings cluster by topic: unit vectors around this many centres, rather than uniform noise. */
const CENTRES = 300;

function log(m: string): void {
  process.stderr.write(`${m}\n`);
}

function unitVectors(rng: () => number, centres: Float32Array[], n: number): Float32Array[] {
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(rng() * centres.length)]!;
    const v = c.map((x) => x + (rng() - 0.5) * 0.6);
    let s = 0;
    for (const x of v) s += x * x;
    return v.map((x) => x / Math.sqrt(s));
  });
}

/** The topic centres: the same for the seeded vectors and the queries. */
function centres(): Float32Array[] {
  const rng = makeRng(42);
  return Array.from({ length: CENTRES }, () => Float32Array.from({ length: DIM }, () => rng() - 0.5));
}

async function seed(): Promise<void> {
  // Vectors go in without an index (exact mode builds none), then the index is built in one pass: faster than
  // keeping an HNSW graph up through 100k inserts.
  const store = new PostgresStore({ url: URL, schema: TARGET, statementTimeoutMs: 600_000, vectorSearch: "exact", log }, "hive");
  try {
    const have = (await store.vectorCounts()).find((c) => c.modelId === SPACE.modelId)?.entries ?? 0;
    if (have < 100_000) await fill(store);
  } finally {
    await store.close();
  }
  const indexer = new PostgresStore({ url: URL, schema: TARGET, log }, "hive");
  try {
    const t0 = Date.now();
    const one = (await indexer.iterateEntries()[Symbol.asyncIterator]().next()).value!;
    const v = (await indexer.vectorsOf(SPACE, [one.id])).get(one.id)!;
    // Re-writing one vector has this client build the space's index if it is not there (CONCURRENTLY: the space is big).
    await indexer.putVectors(SPACE, [{ id: one.id, vector: v }]);
    log(`index of the space ready after ${Math.round((Date.now() - t0) / 1000)} s`);
  } finally {
    await indexer.close();
  }
}

async function fill(store: PostgresStore): Promise<void> {
  const t0 = Date.now();
  if ((await store.totalEntries()) === 0) {
    log(`copying entries ${SOURCE} → ${TARGET} (once)…`);
    // This schema serves vector search only: no full-text index and no per-row triggers to keep up while
    // copying (the entry counter is set once after), which makes the copy minutes shorter on a shared machine.
    await store.db.exec(
      `DROP INDEX IF EXISTS "${TARGET}".entries_search;
       SET statement_timeout = 0; SET session_replication_role = replica;
       INSERT INTO "${TARGET}".entries SELECT * FROM "${SOURCE}".entries ORDER BY seq;
       RESET session_replication_role; RESET statement_timeout;
       UPDATE "${TARGET}".counters SET value = (SELECT count(*) FROM "${TARGET}".entries) WHERE name = 'entries' AND shard = 0;
       SELECT setval(pg_get_serial_sequence('"${TARGET}".entries', 'seq'), (SELECT max(seq) FROM "${TARGET}".entries))`,
    );
  }
  log(`seeding ${DIM}-dimension vectors…`);
  const rng = makeRng(43);
  const cs = centres();
  let after = 0;
  for (;;) {
    const batch = await store.entriesWithoutVector(SPACE, 1000, after);
    if (batch.length === 0) break;
    const vs = unitVectors(rng, cs, batch.length);
    await store.putVectors(SPACE, batch.map((b, i) => ({ id: b.entry.id, vector: vs[i]! })));
    after = batch[batch.length - 1]!.seq;
    if (after % 20_000 < 1000) log(`  ${after}…`);
  }
  await store.db.exec(`ANALYZE "${TARGET}".entries; ANALYZE "${TARGET}".vectors`);
  log(`seeded in ${Math.round((Date.now() - t0) / 1000)} s`);
}

async function main(): Promise<void> {
  await seed();
  const queries = unitVectors(makeRng(7), centres(), 50);
  const live: EntryFilter = { statuses: ["candidate", "established", "promoted"] };
  const rare: EntryFilter = { ...live, scopes: ["stack:python"] };
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  const size = (await admin.query(`SELECT pg_size_pretty(pg_total_relation_size('"${TARGET}".vectors')) AS s`)).rows[0].s as string;
  await admin.end();
  const out: Record<string, unknown> = { dim: DIM, rows: 100_000, vectorsTable: size };
  for (const mode of ["auto", "exact"] as const) {
    const store = new PostgresStore({ url: URL, schema: TARGET, vectorSearch: mode, statementTimeoutMs: 60_000, log }, "hive");
    try {
      const backend = await store.vectorBackendInfo();
      // The exact path reads every filtered row: a few runs tell its cost.
      const n = backend.kind === "pgvector" ? 60 : 8;
      const warm = backend.kind === "pgvector" ? 5 : 1;
      const k20 = await timeLoop(n, warm, (i) => store.searchVectors(SPACE, queries[Math.abs(i) % queries.length]!, live, 20));
      const sel = await timeLoop(n, warm, (i) => store.searchVectors(SPACE, queries[Math.abs(i) % queries.length]!, rare, 20));
      const hits = (await store.searchVectors(SPACE, queries[0]!, rare, 20)).length;
      out[backend.kind] = { live_k20: k20, rare_filter_k20: sel, rare_hits: hits };
    } finally {
      await store.close();
    }
  }
  // How many of the exact top 20 the index walk finds (live filter), over 10 queries.
  const ann = new PostgresStore({ url: URL, schema: TARGET, statementTimeoutMs: 60_000, log }, "hive");
  const exact = new PostgresStore({ url: URL, schema: TARGET, vectorSearch: "exact", statementTimeoutMs: 60_000, log }, "hive");
  try {
    let found = 0;
    for (const q of queries.slice(0, 10)) {
      const truth = new Set((await exact.searchVectors(SPACE, q, live, 20)).map((h) => h.entry.id));
      found += (await ann.searchVectors(SPACE, q, live, 20)).filter((h) => truth.has(h.entry.id)).length;
    }
    out.pgvector_recall_at_20 = found / 200;
  } finally {
    await ann.close();
    await exact.close();
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

await main();
