// A temp SQLite store, and one filled with the bench generator's lessons and the built-in model's vectors: what the vector search tests search.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { builtinEmbedder } from "../../src/embed/static-embedder.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import type { VectorSpace } from "../../src/store/store.js";
import { generatedLesson } from "../../bench/corpus.js";
import { makeRng } from "../../bench/rng.js";

export const SIZE = 3000;

export function tempStore(): { store: SqliteStore; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-vsearch-"));
  const store = new SqliteStore(path.join(dir, "cairn.db"), "swarm");
  return { store, cleanup: () => { void store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

/** SIZE generated lessons (the bench's generator) with the built-in model's vectors; every tenth archived, one in 97 a candidate. */
export async function generatedStore(): Promise<{ store: SqliteStore; cleanup: () => void; space: VectorSpace; vectors: Map<string, Float32Array>; archived: Set<string>; candidates: Set<string> }> {
  const t = tempStore();
  const model = builtinEmbedder();
  const space: VectorSpace = { modelId: model.modelId, dimension: model.dimension };
  const rng = makeRng(7);
  const vectors = new Map<string, Float32Array>();
  const archived = new Set<string>();
  const candidates = new Set<string>();
  const at = new Date().toISOString();
  const rows: { id: string; vector: Float32Array }[] = [];
  const pending: Promise<unknown>[] = [];
  t.store.driver.transaction(() => {
    for (let i = 0; i < SIZE; i++) {
      const g = generatedLesson(rng, i);
      const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson: g.lesson, category: g.category, kind: g.kind, created_at: at, updated_at: at });
      const status = i % 10 === 0 ? "archived" : i % 97 === 1 ? "candidate" : "established";
      if (status === "archived") archived.add(e.id);
      if (status === "candidate") candidates.add(e.id);
      pending.push(t.store.insertEntry({ ...e, lifecycle: { ...e.lifecycle, status } }, { type: "created", actor: "human:test" }));
      const v = model.embedSync(g.lesson);
      if (v) {
        vectors.set(e.id, v);
        rows.push({ id: e.id, vector: v });
      }
    }
  });
  await Promise.all(pending);
  await t.store.putVectors(space, rows);
  return { ...t, space, vectors, archived, candidates };
}


/** Adds `count` generated lessons (numbered from `from`) with the built-in model's vectors, as one put. */
export async function addGeneratedLessons(store: SqliteStore, space: VectorSpace, rng: () => number, from: number, count: number): Promise<void> {
  const model = builtinEmbedder();
  const at = new Date().toISOString();
  const rows: { id: string; vector: Float32Array }[] = [];
  for (let i = from; i < from + count; i++) {
    const g = generatedLesson(rng, i);
    const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson: g.lesson, category: g.category, kind: g.kind, created_at: at, updated_at: at });
    await store.insertEntry(e, { type: "created", actor: "human:test" });
    rows.push({ id: e.id, vector: model.embedSync(g.lesson)! });
  }
  await store.putVectors(space, rows);
}
