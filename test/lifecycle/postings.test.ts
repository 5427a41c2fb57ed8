// The in-memory index's typed posting lists hold exactly what a Map per term would, through adds, removals and reused slots; its ranking matches the store's.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { BulkNeighbours } from "../../src/lifecycle/bulk-neighbours.js";
import { PostingLists } from "../../src/lifecycle/postings.js";
import { MERGEABLE } from "../../src/lifecycle/neighbours.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { makeRng, int, pick } from "../../bench/rng.js";
import { generatedLesson } from "../../bench/corpus.js";
import { queryTerms } from "../../src/core/text.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const VOCABULARY = Array.from({ length: 60 }, (_, i) => `t${i}`);

test("typed posting lists equal a Map per term after random adds and removals (slots reused, lists reordered)", () => {
  const rng = makeRng(11);
  const lists = new PostingLists();
  const reference = new Map<string, Map<number, number>>();
  const held = new Map<number, Map<string, number>>();
  for (let step = 0; step < 20_000; step++) {
    const slot = int(rng, 0, 299);
    const old = held.get(slot);
    if (old) {
      lists.remove(slot);
      for (const t of old.keys()) reference.get(t)!.delete(slot);
      held.delete(slot);
    }
    if (rng() < 0.7) {
      const tf = new Map<string, number>();
      // Skewed: a few terms are in most rows (long lists), most are rare.
      for (let k = int(rng, 1, 12); k > 0; k--) {
        const t = VOCABULARY[Math.floor(VOCABULARY.length * rng() ** 3)]!;
        tf.set(t, (tf.get(t) ?? 0) + 1);
      }
      lists.add(slot, tf);
      for (const [t, f] of tf) {
        if (!reference.has(t)) reference.set(t, new Map());
        reference.get(t)!.set(slot, f);
      }
      held.set(slot, tf);
    }
    if (step % 500 !== 0) continue;
    for (const t of [...VOCABULARY, "absent"]) {
      const want = [...(reference.get(t) ?? new Map<number, number>())].sort((a, b) => a[0] - b[0]);
      const id = lists.idOf(t);
      const pairs = lists.pairsOf(id);
      const got: Array<[number, number]> = [];
      for (let k = 0; k < 2 * lists.sizeOf(id); k += 2) got.push([pairs[k]!, pairs[k + 1]!]);
      got.sort((a, b) => a[0] - b[0]);
      assert.deepEqual(got, want, `term ${t} at step ${step}`);
      assert.equal(lists.frequency(t), want.length);
      for (let s = 0; s < 300; s++) assert.equal(lists.frequencyIn(s, id), reference.get(t)?.get(s) ?? 0);
    }
  }
});

function entry(lesson: string, status: Entry["lifecycle"]["status"]): Entry {
  const at = "2026-01-02T03:04:05.000Z";
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at, lifecycle: { status } });
}

test("the index ranks as the store's full-text search after inserts, rewrites and deletions (both term modes)", async () => {
  const sb = makeSandbox();
  const store = new SqliteStore(path.join(sb.root, "s.db"), "swarm");
  const rng = makeRng(5);
  const ev = { type: "created" as const, actor: "test" };
  const index = BulkNeighbours.for(store)!;
  try {
    const ids: string[] = [];
    /** Rows per query term, to ask for common terms only too (the index then requires them together). */
    const df = new Map<string, number>();
    // Past the size where query terms are pruned, so both "any" and "all" searches run.
    for (let i = 0; i < 1500; i++) {
      const lesson = generatedLesson(rng, i % 4 ? undefined : i).lesson;
      for (const t of queryTerms(lesson)) df.set(t, (df.get(t) ?? 0) + 1);
      const e = await store.insertEntry(entry(lesson, pick(rng, ["candidate", "established", "quarantined"] as const)), ev);
      ids.push(e.id);
      if (i % 7 === 3) {
        const target = ids[int(rng, 0, ids.length - 1)]!;
        const lesson = generatedLesson(rng).lesson;
        await store.updateEntry(target, (c) => ({ ...c, lesson }), { type: "updated", actor: "test" }).catch(() => undefined);
      }
      if (i % 11 === 5) {
        const [gone] = ids.splice(int(rng, 0, ids.length - 1), 1);
        await store.deleteEntry(gone!, { type: "removed", actor: "test" });
      }
    }
    const common = [...df].filter(([, n]) => n > 200).map(([t]) => t);
    assert.ok(common.length >= 4);
    let modes = 0;
    for (let q = 0; q < 300; q++) {
      const terms = q % 3 ? queryTerms(generatedLesson(rng).lesson, 24) : [pick(rng, common), pick(rng, common), pick(rng, common)];
      const want = await store.searchEntries(terms, { statuses: MERGEABLE }, 12);
      const got = await index.search(terms, MERGEABLE, 12);
      assert.deepEqual(got.map((h) => h.entry.id), want.map((h) => h.entry.id), `query ${terms.join(" ")}`);
      modes += got.length;
    }
    assert.ok(modes > 1000, "the queries find rows");
  } finally {
    index.close();
    await store.close();
    removeSandbox(sb);
  }
});
