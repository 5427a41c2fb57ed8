// Vectors in the store and hybrid recall: spaces never mix, filters apply before the top-k, a lesson in other words is found, reindex resumes.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { openCairn } from "../../src/index.js";
import { builtinEmbedder } from "../../src/embed/static-embedder.js";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import type { VectorSpace } from "../../src/store/store.js";
import { queryTerms } from "../../src/core/text.js";
import { contentStems, isRelated } from "../../src/retrieval/relatedness.js";
import { RELATED_SIMILARITY } from "../../src/retrieval/weights.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

function tempStore(): { store: SqliteStore; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-vectors-"));
  const store = new SqliteStore(path.join(dir, "cairn.db"), "swarm");
  return { store, cleanup: () => { void store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

function unit(values: number[]): Float32Array {
  const n = Math.hypot(...values);
  return Float32Array.from(values.map((v) => v / n));
}

async function insert(store: SqliteStore, lesson: string, status: "established" | "archived" = "established") {
  const at = new Date().toISOString();
  const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
  return store.insertEntry({ ...e, lifecycle: { ...e.lifecycle, status } }, { type: "created", actor: "human:test" });
}

test("mixed-model store: a search compares only vectors of its own space (model id and dimension)", async () => {
  const { store, cleanup } = tempStore();
  try {
    const a = await insert(store, "Lesson embedded by model A.");
    const b = await insert(store, "Lesson embedded by model B.");
    const spaceA: VectorSpace = { modelId: "model-a", dimension: 4 };
    const spaceB: VectorSpace = { modelId: "model-b", dimension: 4 };
    const spaceA8: VectorSpace = { modelId: "model-a", dimension: 8 };
    const v = unit([1, 2, 3, 4]);
    await store.putVectors(spaceA, [{ id: a.id, vector: v }]);
    // B holds the very same numbers: a search of A's space must still never see it.
    await store.putVectors(spaceB, [{ id: b.id, vector: v }]);
    await store.putVectors(spaceA8, [{ id: b.id, vector: unit([1, 1, 1, 1, 1, 1, 1, 1]) }]);
    const hitsA = await store.searchVectors(spaceA, v, {}, 10);
    assert.deepEqual(hitsA.map((h) => h.entry.id), [a.id]);
    assert.ok(Math.abs(hitsA[0]!.similarity - 1) < 0.01);
    assert.deepEqual((await store.searchVectors(spaceB, v, {}, 10)).map((h) => h.entry.id), [b.id]);
    assert.deepEqual((await store.searchVectors(spaceA8, unit([1, 1, 1, 1, 1, 1, 1, 1]), {}, 10)).map((h) => h.entry.id), [b.id]);
    await assert.rejects(store.searchVectors(spaceA, unit([1, 1, 1, 1, 1, 1, 1, 1]), {}, 10), RangeError);
    await assert.rejects(store.putVectors(spaceA, [{ id: a.id, vector: unit([1, 1, 1, 1, 1, 1, 1, 1]) }]), RangeError);
    const counts = (await store.vectorCounts()).map((c) => `${c.modelId}/${c.dimension}:${c.entries}`).sort();
    assert.deepEqual(counts, ["model-a/4:1", "model-a/8:1", "model-b/4:1"]);
    // The entries without a vector of A's space: only b.
    assert.deepEqual((await store.entriesWithoutVector(spaceA, 10)).map((r) => r.entry.id), [b.id]);
  } finally {
    cleanup();
  }
});

test("filters apply before the top-k: when the nearest vectors are all filtered out, the next ones still come back", async () => {
  const { store, cleanup } = tempStore();
  try {
    const space: VectorSpace = { modelId: "m", dimension: 3 };
    const q = unit([1, 0, 0]);
    const archived = [];
    // 300 archived lessons nearest to the query, then 5 live ones further away: a post-filtered top-k would be empty.
    for (let i = 0; i < 300; i++) {
      const e = await insert(store, `Archived lesson number ${i} about the query.`, "archived");
      await store.putVectors(space, [{ id: e.id, vector: unit([1, 0.001 * i, 0]) }]);
      archived.push(e.id);
    }
    const live = [];
    for (let i = 0; i < 5; i++) {
      const e = await insert(store, `Live lesson number ${i} further away.`);
      await store.putVectors(space, [{ id: e.id, vector: unit([1, 1 + i, 0]) }]);
      live.push(e.id);
    }
    const hits = await store.searchVectors(space, q, { statuses: ["established"] }, 3);
    assert.deepEqual(hits.map((h) => h.entry.id), live.slice(0, 3), "the three nearest live lessons, nearest first");
    const unfiltered = await store.searchVectors(space, q, {}, 3);
    assert.deepEqual(unfiltered.map((h) => h.entry.id), archived.slice(0, 3));
    // Another connection's writes are seen on the next search (the in-memory copy follows the table).
    const other = new SqliteStore(store.driver.file, "swarm");
    const late = await insert(other, "Live lesson written by another process.");
    await other.putVectors(space, [{ id: late.id, vector: q }]);
    await other.close();
    assert.equal((await store.searchVectors(space, q, { statuses: ["established"] }, 1))[0]?.entry.id, late.id);
  } finally {
    cleanup();
  }
});

const SECRET_LESSON = "Never write access tokens or passwords to application logs.";
const DISTRACTORS = [
  "Use exponential backoff when retrying HTTP requests.",
  "Pin the Node version in CI with an .nvmrc file.",
  "Prefer CSS grid for two-dimensional page layouts.",
  "Run database migrations before starting the API server.",
  "Keep monitoring dashboards per service, not one per team.",
];
const QUERY = "credentials showed up printed in stdout";

test("hybrid recall finds a lesson that shares no word with the query; lexical recall cannot", async () => {
  const shared = queryTerms(SECRET_LESSON, 50).filter((t) => queryTerms(QUERY, 50).includes(t));
  assert.deepEqual(shared, [], "precondition: no shared term");
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { embedding: { provider: "builtin" } } });
  try {
    for (const lesson of [SECRET_LESSON, ...DISTRACTORS]) await cairn.add({ lesson, category: "security" });
    const lexical = await cairn.recall(QUERY, { retrieval: "lexical" });
    assert.ok(!lexical.some((h) => h.entry.lesson === SECRET_LESSON));
    const hybrid = await cairn.recall(QUERY, { retrieval: "hybrid" });
    assert.equal(hybrid[0]?.entry.lesson, SECRET_LESSON);
    assert.ok((hybrid[0]?.breakdown.semantic ?? 0) > 0, "the semantic part is in the explanation");
    assert.ok(hybrid[0]?.similarity !== undefined);
    // Configured off, vectors play no part.
    const off = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { embedding: { provider: "none" } } });
    assert.ok(!(await off.recall(QUERY)).some((h) => h.entry.lesson === SECRET_LESSON));
    await off.close();
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});

test("reindex is resumable: interrupted after a batch, the next run embeds only what is still missing", async () => {
  const sb = makeSandbox();
  try {
    const lessons = [SECRET_LESSON, ...DISTRACTORS];
    let cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { embedding: { provider: "none" } } });
    for (const lesson of lessons) await cairn.add({ lesson, category: "tooling" });
    await cairn.close();

    const config = { embedding: { provider: "builtin" as const, batch_size: 2 } };
    cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config });
    const [before] = (await cairn.stats()).tiers;
    const total = before!.total;
    assert.ok(total >= 4);
    assert.equal(before!.vectors?.missing, total);
    assert.equal(before!.vectors?.reindexNeeded, true);
    let calls = 0;
    await assert.rejects(
      cairn.reindex({
        tier: "swarm",
        onProgress: () => {
          if (++calls === 2) throw new Error("interrupted");
        },
      }),
      /interrupted/,
    );
    const [mid] = (await cairn.stats()).tiers;
    assert.equal(mid!.vectors?.missing, total - 2, "the first batch was kept");
    const [report] = await cairn.reindex({ tier: "swarm" });
    assert.equal(report!.embedded, total - 2);
    const [after] = (await cairn.stats()).tiers;
    assert.equal(after!.vectors?.missing, 0);
    assert.equal(after!.vectors?.reindexNeeded, false);
    assert.equal(after!.vectors?.counts[0]?.modelId, builtinEmbedder().modelId);
    await cairn.close();
  } finally {
    removeSandbox(sb);
  }
});

test("relatedness counts meaning: a lesson close in meaning is related without a shared word; a far one is not", () => {
  const entry = EntrySchema.parse({ id: newEntryId(), handle: "s-1", tier: "swarm", lesson: SECRET_LESSON, category: "security", kind: "learning", created_at: new Date().toISOString(), updated_at: new Date().toISOString() });
  const stems = contentStems({ task: QUERY });
  const base = { entry, score: 1, breakdown: {} };
  assert.equal(isRelated(base, stems), false, "precondition: no shared content word");
  assert.equal(isRelated({ ...base, similarity: RELATED_SIMILARITY + 0.05 }, stems), true);
  assert.equal(isRelated({ ...base, similarity: RELATED_SIMILARITY - 0.05 }, stems), false);
});

test("injection with vectors on still gives an empty block when nothing in the store is about the work", async () => {
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { embedding: { provider: "builtin" } } });
  try {
    for (const lesson of DISTRACTORS) await cairn.add({ lesson, category: "tooling" });
    const block = await cairn.inject({ task: "choose a colour palette for the marketing site", tokensUsed: 0 }, { recordShown: false });
    assert.equal(block.text, "");
    const related = await cairn.inject({ task: "retrying HTTP requests with backoff", tokensUsed: 0 }, { recordShown: false });
    assert.ok(related.text.includes("exponential backoff"), "a related lesson still comes through");
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});
