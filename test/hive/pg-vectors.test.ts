// Entry vectors on the PostgreSQL hive, with pgvector and without: spaces never mixed, filters before the top-k, copies keep vectors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { copyHive } from "../../src/hive/copy.js";
import { TeamHiveStore } from "../../src/hive/team-hive.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import type { EntryFilter, VectorSpace } from "../../src/store/store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { startProxy, viaProxy } from "../helpers/tcp-proxy.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const MODEL_A: VectorSpace = { modelId: "cairn-test-a", dimension: 8 };
/** Same dimension, another model: its vectors must never be compared with A's. */
const MODEL_B: VectorSpace = { modelId: "openai:it's-b", dimension: 8 };
/** Same model id, another dimension (a re-configured endpoint): another space. */
const MODEL_A16: VectorSpace = { modelId: "cairn-test-a", dimension: 16 };

type Mode = "auto" | "exact";

/** pgvector can be used here when the server has the package (CI without it runs the exact path only). */
async function pgvectorAvailable(): Promise<boolean> {
  const url = pgTestUrl();
  if (!url) return false;
  return (await adminQuery(url, "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).length > 0;
}

function open(schema: string, mode: Mode, log: string[] = []): PostgresStore {
  return new PostgresStore({ url: pgTestUrl()!, schema, vectorSearch: mode, log: (l) => log.push(l) }, "hive");
}

function entry(lesson: string, extra: Record<string, unknown> = {}): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at, ...extra });
}

/** A deterministic pseudo-random unit vector. */
function unit(seed: number, dim: number): Float32Array {
  let s = seed * 2654435761 + 12345;
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    v[i] = s / 2147483648 - 0.5;
  }
  let n = 0;
  for (const x of v) n += x * x;
  return v.map((x) => x / Math.sqrt(n));
}

function cosine(a: Float32Array, b: Float32Array): number {
  let d = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return d / Math.sqrt(na * nb);
}

/** Moves a vector toward `q` by `t` (0 = itself, 1 = q): a controlled distance from the query. */
function toward(v: Float32Array, q: Float32Array, t: number): Float32Array {
  return v.map((x, i) => x * (1 - t) + q[i]! * t);
}

interface Seeded {
  store: PostgresStore;
  schema: string;
  entries: Array<{ e: Entry; v: Float32Array }>;
  query: Float32Array;
}

/**
 * 240 entries: the 30 nearest to the query are archived (a filter on live statuses excludes them),
 * the rest are candidates; 3 of the far ones carry scope "stack:rare" (a very selective filter).
 */
async function seed(mode: Mode, tag: string): Promise<Seeded> {
  const schema = uniqueSchema(`vec_${tag}`);
  const store = open(schema, mode);
  const query = unit(999, MODEL_A.dimension);
  const entries: Seeded["entries"] = [];
  for (let i = 0; i < 240; i++) {
    const near = i < 30;
    const extra: Record<string, unknown> = near ? { lifecycle: { status: "archived" } } : {};
    if (i >= 200 && i < 203) extra.applicability = { scope: "stack:rare" };
    const e = await store.insertEntry(entry(`lesson number ${i} about topic ${i % 7}`, extra), { type: "created", actor: "test" });
    // The near ones are pulled hard toward the query; the others by a little, each by a different amount.
    const v = toward(unit(i + 1, MODEL_A.dimension), query, near ? 0.9 - i * 0.01 : 0.3 * ((i * 37) % 100) / 100);
    entries.push({ e, v });
  }
  await store.putVectors(MODEL_A, entries.map(({ e, v }) => ({ id: e.id, vector: v })));
  return { store, schema, entries, query };
}

/** What an exact search must answer: filter first, then the top k by cosine. */
function bruteForce(s: Seeded, pass: (e: Entry) => boolean, k: number): string[] {
  return s.entries
    .filter(({ e }) => pass(e))
    .map(({ e, v }) => ({ id: e.id, sim: cosine(s.query, v) }))
    .sort((a, b) => b.sim - a.sim)
    .slice(0, k)
    .map((x) => x.id);
}

const LIVE: EntryFilter = { statuses: ["candidate", "established", "promoted"] };

async function modes(): Promise<Mode[]> {
  return (await pgvectorAvailable()) ? ["exact", "auto"] : ["exact"];
}

test("vector search filters before the top-k: excluding the nearest entries returns the next ones, and a selective filter still fills", pgTestOptions(), async (t) => {
  for (const mode of await modes()) {
    await t.test(mode === "auto" ? "with pgvector" : "without pgvector (exact in Cairn)", async () => {
      const s = await seed(mode, `filter_${mode}`);
      try {
        if (mode === "auto") assert.equal((await s.store.vectorBackendInfo()).kind, "pgvector");
        // Unfiltered: the archived near ones come first.
        const all = await s.store.searchVectors(MODEL_A, s.query, {}, 10);
        assert.deepEqual(all.map((h) => h.entry.id), bruteForce(s, () => true, 10));
        assert.ok(all.every((h) => h.entry.lifecycle.status === "archived"));
        // The filter excludes every one of the 30 nearest: the next 10 come back, none archived.
        const live = await s.store.searchVectors(MODEL_A, s.query, LIVE, 10);
        assert.equal(live.length, 10);
        assert.deepEqual(live.map((h) => h.entry.id), bruteForce(s, (e) => e.lifecycle.status !== "archived", 10));
        // Similarities are the cosine of the stored vectors, best first.
        const byId = new Map(s.entries.map((x) => [x.e.id, x.v]));
        for (const h of live) assert.ok(Math.abs(h.similarity - cosine(s.query, byId.get(h.entry.id)!)) < 1e-4);
        for (let i = 1; i < live.length; i++) assert.ok(live[i - 1]!.similarity >= live[i]!.similarity);
        // Only 3 of 240 pass: all 3 come back (an index walk alone would find few or none of them).
        const few = await s.store.searchVectors(MODEL_A, s.query, { ...LIVE, scopes: ["stack:rare"] }, 10);
        assert.deepEqual(new Set(few.map((h) => h.entry.id)), new Set(bruteForce(s, (e) => e.applicability.scope === "stack:rare", 10)));
        assert.equal(few.length, 3);
      } finally {
        await s.store.close();
        await dropSchema(pgTestUrl()!, s.schema);
      }
    });
  }
});

test("vectors of two models, or of one model at two dimensions, are never compared", pgTestOptions(), async (t) => {
  for (const mode of await modes()) {
    await t.test(mode === "auto" ? "with pgvector" : "without pgvector", async () => {
      const schema = uniqueSchema(`vec_spaces_${mode}`);
      const store = open(schema, mode);
      try {
        const a = await store.insertEntry(entry("only model A has embedded this one"), { type: "created", actor: "test" });
        const b = await store.insertEntry(entry("only model B has embedded this one"), { type: "created", actor: "test" });
        const both = await store.insertEntry(entry("both models have embedded this one"), { type: "created", actor: "test" });
        const q = unit(7, 8);
        // B's vector is the query itself: were spaces mixed, it would rank first in A.
        await store.putVectors(MODEL_A, [{ id: a.id, vector: unit(1, 8) }, { id: both.id, vector: unit(2, 8) }]);
        await store.putVectors(MODEL_B, [{ id: b.id, vector: q }, { id: both.id, vector: q }]);
        await store.putVectors(MODEL_A16, [{ id: b.id, vector: unit(3, 16) }]);
        const inA = await store.searchVectors(MODEL_A, q, {}, 10);
        assert.deepEqual(new Set(inA.map((h) => h.entry.id)), new Set([a.id, both.id]));
        assert.ok(Math.abs(inA.find((h) => h.entry.id === both.id)!.similarity - cosine(q, unit(2, 8))) < 1e-4);
        const inB = await store.searchVectors(MODEL_B, q, {}, 10);
        assert.deepEqual(new Set(inB.map((h) => h.entry.id)), new Set([b.id, both.id]));
        assert.ok(inB.every((h) => Math.abs(h.similarity - 1) < 1e-4));
        assert.deepEqual((await store.searchVectors(MODEL_A16, unit(3, 16), {}, 10)).map((h) => h.entry.id), [b.id]);
        // A query of the wrong dimension is refused, not compared.
        await assert.rejects(store.searchVectors(MODEL_A16, q, {}, 5), /8 dimensions; the space cairn-test-a has 16/);
        await assert.rejects(store.putVectors(MODEL_A, [{ id: a.id, vector: unit(1, 16) }]), /16 dimensions/);
        assert.deepEqual(await store.vectorCounts(), [
          { modelId: "cairn-test-a", dimension: 8, entries: 2 },
          { modelId: "cairn-test-a", dimension: 16, entries: 1 },
          { modelId: "openai:it's-b", dimension: 8, entries: 2 },
        ]);
        // Reindex walks the entries a space lacks, in order, in batches.
        const missingA = await store.entriesWithoutVector(MODEL_A, 10);
        assert.deepEqual(missingA.map((x) => x.entry.id), [b.id]);
        const firstA16 = await store.entriesWithoutVector(MODEL_A16, 1);
        assert.equal(firstA16[0]!.entry.id, a.id);
        assert.deepEqual((await store.entriesWithoutVector(MODEL_A16, 10, firstA16[0]!.seq)).map((x) => x.entry.id), [both.id]);
        // A changed lesson drops its vectors (they describe the old text); a deleted entry takes its own along.
        await store.updateEntry(both.id, (e) => ({ ...e, lesson: "both models embedded the old text of this one" }), { type: "updated", actor: "test" });
        assert.deepEqual((await store.entriesWithoutVector(MODEL_B, 10)).map((x) => x.entry.id), [a.id, both.id]);
        await store.updateEntry(a.id, (e) => ({ ...e, tags: ["kept"] }), { type: "updated", actor: "test" });
        assert.deepEqual((await store.searchVectors(MODEL_A, q, {}, 10)).map((h) => h.entry.id), [a.id]);
        await store.deleteEntry(a.id, { type: "removed", actor: "test" });
        assert.deepEqual(await store.searchVectors(MODEL_A, q, {}, 10), []);
        // Stored vectors read back exactly as written (float4, no rounding on the way).
        const back = await store.vectorsOf(MODEL_A16, [b.id]);
        assert.deepEqual([...back.get(b.id)!], [...unit(3, 16)]);
      } finally {
        await store.close();
        await dropSchema(pgTestUrl()!, schema);
      }
    });
  }
});

test("a hive whose vectors were stored without pgvector uses it once it is there: same answers, an index per space", pgTestOptions(), async (t) => {
  if (!(await pgvectorAvailable())) return t.skip("pgvector is not installed on this server (the exact path is tested above)");
  const s = await seed("exact", "later");
  const later = open(s.schema, "auto");
  try {
    const before = await s.store.searchVectors(MODEL_A, s.query, LIVE, 10);
    assert.equal((await later.vectorBackendInfo()).kind, "pgvector");
    const after = await later.searchVectors(MODEL_A, s.query, LIVE, 10);
    assert.deepEqual(after.map((h) => h.entry.id), before.map((h) => h.entry.id));
    // The first write of the space builds its index; searches then walk it.
    await later.putVectors(MODEL_A, [{ id: s.entries[0]!.e.id, vector: s.entries[0]!.v }]);
    const idx = await adminQuery<{ indexdef: string }>(pgTestUrl()!, "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%hnsw%'", [s.schema]);
    assert.equal(idx.length, 1);
    assert.match(idx[0]!.indexdef, /vector\(8\).*WHERE.*cairn-test-a/);
    assert.deepEqual((await later.searchVectors(MODEL_A, s.query, LIVE, 10)).map((h) => h.entry.id), before.map((h) => h.entry.id));
  } finally {
    await later.close();
    await s.store.close();
    await dropSchema(pgTestUrl()!, s.schema);
  }
});

test("hive push and pull copy vectors with the entries, into the entry each became; a second run writes none", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const fromSchema = uniqueSchema("vec_copy_from");
  const toSchema = uniqueSchema("vec_copy_to");
  const from = open(fromSchema, "exact");
  const to = open(toSchema, "exact");
  try {
    const kept = await from.insertEntry(entry("Vectors travel with their entry when a hive is copied."), { type: "created", actor: "test" });
    const twin = await from.insertEntry(entry("A lesson the target already holds under another id."), { type: "created", actor: "test" });
    const bare = await from.insertEntry(entry("An entry never embedded stays without a vector."), { type: "created", actor: "test" });
    const targetTwin = await to.insertEntry(entry("A lesson the target already holds under another id."), { type: "created", actor: "test" });
    await from.putVectors(MODEL_A, [{ id: kept.id, vector: unit(11, 8) }, { id: twin.id, vector: unit(12, 8) }]);
    await from.putVectors(MODEL_B, [{ id: kept.id, vector: unit(13, 8) }]);
    const first = await copyHive(from, to);
    assert.equal(first.inserted, 2);
    assert.equal(first.merged, 1);
    assert.equal(first.vectors, 3);
    assert.deepEqual([...(await to.vectorsOf(MODEL_A, [kept.id])).get(kept.id)!], [...unit(11, 8)]);
    assert.deepEqual([...(await to.vectorsOf(MODEL_B, [kept.id])).get(kept.id)!], [...unit(13, 8)]);
    // The merged lesson's vector landed on the target's own entry.
    assert.deepEqual([...(await to.vectorsOf(MODEL_A, [targetTwin.id])).get(targetTwin.id)!], [...unit(12, 8)]);
    assert.equal((await to.vectorsOf(MODEL_A, [bare.id])).size, 0);
    const second = await copyHive(from, to);
    assert.equal(second.vectors, 0);
    assert.equal(second.unchanged, 3);
    // A source that cannot read its vectors out says so (reindex re-creates them) instead of dropping them silently.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-vec-copy-"));
    const file = new SqliteStore(path.join(dir, "hive.db"), "hive");
    try {
      const withoutReader = Object.assign(Object.create(Object.getPrototypeOf(from)), from, { vectorsOf: undefined }) as PostgresStore;
      const report = await copyHive(withoutReader, file);
      assert.equal(report.vectors, 0);
      assert.match(report.vectorsSkipped ?? "", /cairn reindex/);
    } finally {
      await file.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await from.close();
    await to.close();
    await dropSchema(url, fromSchema);
    await dropSchema(url, toSchema);
  }
});

test("team hive: vector search answers from the hive, gives no vector hits while it is down (text still answers), and vector writes fail as unavailable", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("vec_team");
  const proxy = await startProxy(Number(new URL(url).port || 5432), new URL(url).hostname);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-vec-team-"));
  const outbox = new SqliteStore(path.join(dir, "swarm.db"), "swarm");
  const lines: string[] = [];
  const remote = new PostgresStore({ url: viaProxy(url, proxy.port), schema, vectorSearch: "exact", connectTimeoutMs: 1000, log: (l) => lines.push(l) }, "hive");
  const hive = new TeamHiveStore(remote, { readTimeoutMs: 10_000, connectTimeoutMs: 30_000, retryAfterMs: 60_000, cacheEntries: 100, outbox, log: (l) => lines.push(l) });
  try {
    const e = await hive.insertEntry(entry("Regenerate the client after editing the schema file."), { type: "created", actor: "test" });
    await hive.putVectors(MODEL_A, [{ id: e.id, vector: unit(5, 8) }]);
    const hits = await hive.searchVectors(MODEL_A, unit(5, 8), LIVE, 5);
    assert.deepEqual(hits.map((h) => h.entry.id), [e.id]);
    assert.deepEqual(await hive.vectorCounts(), [{ modelId: MODEL_A.modelId, dimension: 8, entries: 1 }]);
    const text = await hive.searchEntries(["regenerate", "schema"], LIVE, 5);
    assert.deepEqual(text.map((h) => h.entry.id), [e.id]);
    await proxy.cut();
    assert.deepEqual(await hive.searchVectors(MODEL_A, unit(5, 8), LIVE, 5), []);
    assert.equal(hive.health, "down");
    // The text search seen before still answers from the cache; the vector hit's entry is there too.
    assert.deepEqual((await hive.searchEntries(["regenerate", "schema"], LIVE, 5)).map((h) => h.entry.id), [e.id]);
    assert.equal((await hive.getEntry(e.id))?.id, e.id);
    await assert.rejects(hive.putVectors(MODEL_A, [{ id: e.id, vector: unit(6, 8) }]), (err: Error & { code?: string }) => err.code === "UNAVAILABLE");
    assert.equal(lines.filter((l) => /unreachable/.test(l)).length, 1);
  } finally {
    await proxy.restore().catch(() => {});
    await hive.close().catch(() => {});
    await proxy.close();
    await outbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await dropSchema(url, schema);
  }
});

test("a slow vector search is not an outage: the turn goes on without vector hits, vector search pauses a while, the hive stays up", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("vec_slow");
  const proxy = await startProxy(Number(new URL(url).port || 5432), new URL(url).hostname);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-vec-slow-"));
  const outbox = new SqliteStore(path.join(dir, "swarm.db"), "swarm");
  const lines: string[] = [];
  const remote = new PostgresStore({ url: viaProxy(url, proxy.port), schema, vectorSearch: "exact", log: (l) => lines.push(l) }, "hive");
  // The network hangs (stall) for as long as the test wants: any read budget is passed; 1.5 s leaves room for a busy machine.
  const hive = new TeamHiveStore(remote, { readTimeoutMs: 1500, connectTimeoutMs: 30_000, retryAfterMs: 5000, cacheEntries: 100, outbox, log: (l) => lines.push(l) });
  try {
    const e = await hive.insertEntry(entry("Pin the toolchain version in the CI image."), { type: "created", actor: "test" });
    await hive.putVectors(MODEL_A, [{ id: e.id, vector: unit(8, 8) }]);
    assert.equal((await hive.searchVectors(MODEL_A, unit(8, 8), {}, 3)).length, 1);
    proxy.stall();
    assert.deepEqual(await hive.searchVectors(MODEL_A, unit(8, 8), {}, 3), []);
    assert.equal(hive.health, "up");
    assert.equal(lines.filter((l) => /vector search on the team hive .* took longer/.test(l)).length, 1);
    proxy.resume();
    // Vector search pauses a while (each slow one would hold a pooled connection), then answers again.
    assert.deepEqual(await hive.searchVectors(MODEL_A, unit(8, 8), {}, 3), []);
    await new Promise((r) => setTimeout(r, 5200));
    assert.equal((await hive.searchVectors(MODEL_A, unit(8, 8), {}, 3)).length, 1);
    assert.equal(hive.health, "up");
  } finally {
    proxy.resume();
    await hive.close().catch(() => {});
    await proxy.close();
    await outbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await dropSchema(url, schema);
  }
});

test("where pgvector cannot be used (not installed, or this role may not enable it) the hive says so once and searches exactly", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const tag = `cairn_t_novec_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  // A database of its own whose owner is no superuser: CREATE EXTENSION vector is refused (or there is no package).
  await adminQuery(url, `CREATE ROLE ${tag} LOGIN`);
  await adminQuery(url, `CREATE DATABASE ${tag} OWNER ${tag}`);
  const roleUrl = new URL(url);
  roleUrl.username = tag;
  roleUrl.pathname = `/${tag}`;
  const lines: string[] = [];
  const store = new PostgresStore({ url: roleUrl.toString(), schema: "cairn_t_novec", log: (l) => lines.push(l) }, "hive");
  const again = new PostgresStore({ url: roleUrl.toString(), schema: "cairn_t_novec", log: (l) => lines.push(l) }, "hive");
  try {
    const backend = await store.vectorBackendInfo();
    assert.equal(backend.kind, "exact");
    const e = await store.insertEntry(entry("Exact search answers where the extension is missing."), { type: "created", actor: "test" });
    await store.putVectors(MODEL_A, [{ id: e.id, vector: unit(21, 8) }]);
    assert.deepEqual((await store.searchVectors(MODEL_A, unit(21, 8), LIVE, 3)).map((h) => h.entry.id), [e.id]);
    assert.equal((await again.vectorBackendInfo()).kind, "exact");
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0]!, /pgvector .*(not installed|cannot enable it).*exact/);
    assert.doesNotMatch(lines[0]!, /password/i);
  } finally {
    await store.close();
    await again.close();
    await adminQuery(url, `DROP DATABASE IF EXISTS ${tag} WITH (FORCE)`);
    await adminQuery(url, `DROP ROLE IF EXISTS ${tag}`);
  }
});
