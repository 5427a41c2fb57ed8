// Entry vectors on PostgreSQL: pgvector when the server has it (per-space HNSW, filter before top-k), exact search in Cairn when not.
import { createHash } from "node:crypto";
import { CairnError } from "../../errors.js";
import type { VectorSpace } from "../store.js";
import type { PgClient } from "./client.js";

/** How this client searches vectors on one hive: through pgvector (schema of the extension, its version) or exactly in Cairn. */
export type VectorBackend = { kind: "pgvector"; schema: string; version: string } | { kind: "exact"; why: string };

/** ef_search: at least pgvector's default, and twice the hits wanted. */
const HNSW_MIN_EF_SEARCH = 40;
const HNSW_MAX_EF_SEARCH = 1000;
/** An index build is waited for this long (the client's usual read timeout is seconds). */
const INDEX_BUILD_WAIT_MS = 6 * 3600_000;
/** A space with fewer vectors than this gets its index built in one short step. */
const SMALL_SPACE = 5000;
/** The no-extension path re-scores this many int8 candidates per wanted hit with the exact vectors. */
const RESCORE_FACTOR = 4;

const noticed = new Set<string>();
/** One line per hive and process, never one per call. */
function noticeOnce(location: string, line: string, log: (l: string) => void): void {
  if (noticed.has(location)) return;
  noticed.add(location);
  log(line);
}

function versionAtLeast(v: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = v.split(".").map((x) => Number.parseInt(x, 10));
  return a > major || (a === major && b >= minor);
}

/**
 * Finds pgvector in the hive's database, creating it when the server has the package and this role
 * may (CREATE EXTENSION needs the database owner or a superuser). Without it, says once on stderr why
 * vector search is exact (and slower on big hives) and what to install.
 */
export async function detectVectorBackend(db: PgClient, location: string, log: (l: string) => void): Promise<VectorBackend> {
  const find = async () =>
    (
      await db.query<{ schema: string; version: string }>(
        `SELECT n.nspname AS schema, x.extversion AS version FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'vector'`,
      )
    )[0];
  let found = await find();
  let why = "";
  if (!found) {
    const available = await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    if (available.length === 0) {
      why = "the pgvector extension is not installed on the server (Debian: apt-get install postgresql-15-pgvector)";
    } else {
      try {
        // In public, never in the first schema of the search path (that may be Cairn's own, which tests and
        // teams drop with CASCADE, taking the extension along).
        await db.exec("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public");
      } catch (e) {
        why = `pgvector is installed on the server but this role cannot enable it (${(e as Error).message.replace(/^The team hive .*? refused a query: /, "")}); a superuser can run CREATE EXTENSION vector; in this database`;
      }
      // Another client may have created it at the same moment (its unique violation is ours then).
      found = await find();
    }
  }
  if (found) return { kind: "pgvector", schema: found.schema, version: found.version };
  noticeOnce(location, `cairn: ${location}: ${why}; semantic search on the team hive runs exact in Cairn over the filtered entries (slower past ~10k vectors); text search is unaffected`, log);
  return { kind: "exact", why };
}

/** A model id goes into SQL text (a partial index's predicate must see a literal): printable ASCII, quotes doubled. */
function modelLiteral(modelId: string): string {
  if (!/^[\x20-\x7e]{1,200}$/.test(modelId)) {
    throw new CairnError("INVALID_INPUT", `Embedding model id "${modelId.slice(0, 60)}" must be 1–200 printable ASCII characters.`);
  }
  return `'${modelId.replace(/'/g, "''")}'`;
}

function checkSpace(space: VectorSpace): void {
  if (!Number.isInteger(space.dimension) || space.dimension < 1 || space.dimension > 16000) {
    throw new CairnError("INVALID_INPUT", `Vector dimension ${space.dimension} is not usable (1–16000).`);
  }
}

function checkVector(space: VectorSpace, v: Float32Array, what: string): void {
  if (v.length !== space.dimension) {
    throw new CairnError("INVALID_INPUT", `${what} has ${v.length} dimensions; the space ${space.modelId} has ${space.dimension}.`);
  }
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i]!)) throw new CairnError("INVALID_INPUT", `${what} holds a value that is not a finite number.`);
}

/** The WHERE part naming one space, as literals (so the planner matches the space's partial index). */
export function spaceSql(space: VectorSpace): string {
  checkSpace(space);
  return `v.model = ${modelLiteral(space.modelId)} AND v.dim = ${space.dimension}`;
}

/** A float4 array literal; each float32 prints as the double it is, which parses back to the same float4. */
export function realArrayLiteral(v: Float32Array): string {
  return `{${Array.from(v, (x) => String(x)).join(",")}}`;
}

/** pgvector's text form of a vector. */
export function vectorLiteral(v: Float32Array): string {
  return `[${Array.from(v, (x) => String(x)).join(",")}]`;
}

/** int8 copy: a float32 scale, then one signed byte per dimension (what the no-extension search reads). */
export function quantise(v: Float32Array): Buffer {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const scale = max > 0 ? max / 127 : 1;
  const out = Buffer.alloc(4 + v.length);
  out.writeFloatLE(scale, 0);
  for (let i = 0; i < v.length; i++) out.writeInt8(Math.round(v[i]! / scale), 4 + i);
  return out;
}

function q8Dot(q: Float32Array, b: Buffer): number {
  const scale = b.readFloatLE(0);
  let dot = 0;
  for (let i = 0; i < q.length; i++) dot += q[i]! * ((b[4 + i]! << 24) >> 24);
  return dot * scale;
}

function norm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s);
}

/** Cosine similarity computed as pgvector's 1 − (a <=> b) is, so both paths report the same number. */
function cosineOf(a: Float32Array, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  const n = norm(a) * norm(b);
  return n > 0 ? dot / n : 0;
}

export function hnswIndexName(space: VectorSpace): string {
  return `vectors_hnsw_${createHash("sha1").update(`${space.modelId}\u0000${space.dimension}`).digest("hex").slice(0, 16)}`;
}

/**
 * The HNSW index of one space: a partial index over the cast to vector(n) (an index needs one
 * dimension; the table holds many). Built CONCURRENTLY so writers never wait; one client builds it
 * (advisory lock), and an index a killed build left invalid is dropped and built again.
 * pgvector's HNSW holds at most 2000 dimensions: bigger spaces are searched exactly.
 */
export async function ensureHnswIndex(db: PgClient, S: string, schema: string, backend: VectorBackend, space: VectorSpace): Promise<boolean> {
  if (backend.kind !== "pgvector" || !versionAtLeast(backend.version, 0, 5) || space.dimension > 2000) return false;
  const name = hnswIndexName(space);
  const V = `"${backend.schema}"`;
  return db.withConnection(async (c) => {
    const state = async () => (await c.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_namespace n ON n.oid = x.relnamespace WHERE n.nspname = $1 AND x.relname = $2`,
      [schema, name],
    ))[0];
    if ((await state())?.valid) return true;
    const [lock] = await c.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext('cairn.vector-index'), hashtext($1)) AS ok", [`${schema}.${name}`]);
    if (!lock?.ok) return false;
    try {
      const now = await state();
      if (now?.valid) return true;
      // An index build may take minutes on a big hive; this connection alone waits for it.
      await c.exec("SET statement_timeout = 0");
      if (now && !now.valid) await c.exec(`DROP INDEX CONCURRENTLY IF EXISTS ${S}."${name}"`, INDEX_BUILD_WAIT_MS);
      // A new space (the usual case) is indexed at once: writers of vectors wait a moment. An existing one
      // (pgvector installed later) CONCURRENTLY, which never blocks writers but waits for every open transaction.
      const [size] = await c.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${S}.vectors v WHERE ${spaceSql(space)} LIMIT ${SMALL_SPACE}) x`,
      );
      const how = (size?.n ?? 0) < SMALL_SPACE ? "" : "CONCURRENTLY ";
      await c.exec(
        `CREATE INDEX ${how}IF NOT EXISTS "${name}" ON ${S}.vectors USING hnsw ((vec::${V}.vector(${space.dimension})) ${V}.vector_cosine_ops)
           WHERE model = ${modelLiteral(space.modelId)} AND dim = ${space.dimension}`,
        INDEX_BUILD_WAIT_MS,
      );
      return true;
    } finally {
      await c.exec("RESET statement_timeout").catch(() => {});
      await c.query("SELECT pg_advisory_unlock(hashtext('cairn.vector-index'), hashtext($1))", [`${schema}.${name}`]).catch(() => {});
    }
  });
}

export interface VectorRows {
  ids: string[];
  vecs: string[];
  q8: Buffer[];
}

/** Validated rows as the parameters of one INSERT … SELECT FROM unnest(). */
export function vectorRows(space: VectorSpace, rows: readonly { id: string; vector: Float32Array }[]): VectorRows {
  checkSpace(space);
  const out: VectorRows = { ids: [], vecs: [], q8: [] };
  for (const r of rows) {
    checkVector(space, r.vector, `The vector of ${r.id.slice(0, 40)}`);
    out.ids.push(r.id);
    out.vecs.push(realArrayLiteral(r.vector));
    out.q8.push(quantise(r.vector));
  }
  return out;
}

export interface NearestQuery {
  S: string;
  space: VectorSpace;
  query: Float32Array;
  /** The entry filter's SQL over alias `e`, and its bound values (Params of pg-store). */
  where: string;
  values: unknown[];
  limit: number;
}

/**
 * The `limit` nearest entry seqs with their cosine similarity. pgvector: the HNSW index with an
 * iterative scan (it keeps walking until enough rows pass the filter); if the walk still comes back
 * short (a very selective filter, or an index not built yet), the same filtered rows are ranked exactly.
 */
export async function nearestPgvector(db: PgClient, backend: Extract<VectorBackend, { kind: "pgvector" }>, nq: NearestQuery): Promise<Array<{ seq: number; sim: number }>> {
  checkVector(nq.space, nq.query, "The query vector");
  const V = `"${backend.schema}"`;
  const n = nq.space.dimension;
  const qParam = `$${nq.values.length + 1}`;
  const limitParam = `$${nq.values.length + 2}`;
  const values = [...nq.values, vectorLiteral(nq.query), nq.limit];
  const sql = (exact: boolean) => {
    // Sized cast: the expression of the space's index. Unsized: the same distance, which no index matches.
    const dist = exact ? `(v.vec::${V}.vector OPERATOR(${V}.<=>) ${qParam}::${V}.vector)` : `(v.vec::${V}.vector(${n}) OPERATOR(${V}.<=>) ${qParam}::${V}.vector(${n}))`;
    return `SELECT v.entry_seq AS seq, 1 - ${dist} AS sim FROM ${nq.S}.vectors v JOIN ${nq.S}.entries e ON e.seq = v.entry_seq
             WHERE ${spaceSql(nq.space)} AND ${nq.where} ORDER BY ${dist}${exact ? ", v.entry_seq" : ""} LIMIT ${limitParam}`;
  };
  // No count of the filtered entries first: measured at 100k under a 1% filter, that count (a scan of the
  // entries when the filter has no index) cost more than the iterative walk, which visits about k / share rows.
  const indexed = versionAtLeast(backend.version, 0, 5) && n <= 2000;
  const rows = indexed
    ? await db.transaction(async (q) => {
        if (versionAtLeast(backend.version, 0, 8)) await q.exec("SET LOCAL hnsw.iterative_scan = strict_order");
        await q.exec(`SET LOCAL hnsw.ef_search = ${Math.min(HNSW_MAX_EF_SEARCH, Math.max(HNSW_MIN_EF_SEARCH, nq.limit * 2))}`);
        return q.query<{ seq: string; sim: number }>(sql(false), values);
      })
    : [];
  const full = rows.length >= nq.limit ? rows : await db.query<{ seq: string; sim: number }>(sql(true), values);
  return full.map((r) => ({ seq: Number(r.seq), sim: Number(r.sim) }));
}

/**
 * Without pgvector: the filtered rows' int8 copies are scored here, the best few re-scored with
 * their exact vectors. Exact and complete, and linear in the number of filtered rows.
 */
export async function nearestExact(db: PgClient, nq: NearestQuery): Promise<Array<{ seq: number; sim: number }>> {
  checkVector(nq.space, nq.query, "The query vector");
  const rows = await db.query<{ seq: string; q8: Buffer }>(
    `SELECT v.entry_seq AS seq, v.q8 FROM ${nq.S}.vectors v JOIN ${nq.S}.entries e ON e.seq = v.entry_seq WHERE ${spaceSql(nq.space)} AND ${nq.where}`,
    nq.values,
  );
  if (rows.length === 0) return [];
  const scored = rows.map((r) => ({ seq: Number(r.seq), s: q8Dot(nq.query, r.q8) }));
  scored.sort((a, b) => b.s - a.s || a.seq - b.seq);
  const keep = scored.slice(0, nq.limit * RESCORE_FACTOR + 8).map((r) => r.seq);
  const exact = await db.query<{ seq: string; vec: number[] }>(
    `SELECT v.entry_seq AS seq, v.vec FROM ${nq.S}.vectors v WHERE ${spaceSql(nq.space)} AND v.entry_seq = ANY($1::bigint[])`,
    [keep],
  );
  return exact
    .map((r) => ({ seq: Number(r.seq), sim: cosineOf(nq.query, r.vec) }))
    .sort((a, b) => b.sim - a.sim || a.seq - b.seq)
    .slice(0, nq.limit);
}

