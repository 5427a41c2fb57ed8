// A lesson found both by its words and by its meaning is read from its tier once per recall, and the vector search answers the same either way.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { openCairn, type Cairn } from "../../src/index.js";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import type { VectorSpace } from "../../src/store/store.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const services = (c: Cairn) => (c as unknown as { services: Services }).services;

function unit(values: number[]): Float32Array {
  const n = Math.hypot(...values);
  return Float32Array.from(values.map((v) => v / n));
}

const space: VectorSpace = { modelId: "model-a", dimension: 4 };

/** A recall's hits and what it cost the swarm tier by `counter`, measured on its second run (the first warms the indexes). */
async function measuredRecall(cairn: Cairn, query: string, counter: "rowsRead" | "jsonRowsRead") {
  const swarm = services(cairn).swarm as SqliteStore;
  await cairn.recall(query, { limit: 5 });
  const before = swarm.driver[counter];
  const hits = await cairn.recall(query, { limit: 5 });
  return { hits, cost: swarm.driver[counter] - before };
}

/**
 * A store in a temp dir holding `count` lessons, those `archived(i)` names archived, entry i with the
 * vector `vectorOf(i)`; removed after `body`.
 */
async function withVectorStore(
  count: number, archived: (i: number) => boolean, vectorOf: (i: number) => number[],
  body: (store: SqliteStore, entries: Entry[]) => Promise<void>,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-shared-reads-"));
  const store = new SqliteStore(path.join(dir, "cairn.db"), "swarm");
  try {
    const entries: Entry[] = [];
    for (let i = 0; i < count; i++) {
      const at = new Date().toISOString();
      const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson: `Lesson number ${i} about queues.`, category: "tooling", kind: "learning", created_at: at, updated_at: at });
      const status = archived(i) ? "archived" : "established";
      entries.push(await store.insertEntry({ ...e, lifecycle: { ...e.lifecycle, status } }, { type: "created", actor: "human:test" }));
    }
    await store.putVectors(space, entries.map((e, i) => ({ id: e.id, vector: unit(vectorOf(i)) })));
    await body(store, entries);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("searchVectors hands back known entries instead of reading them: same hits, same order, fewer rows read", async () => {
  // Every third one archived: the filter below must still leave it out when it is not known.
  await withVectorStore(12, (i) => i % 3 === 2, (i) => [1, i / 4, (i % 5) / 3, 0.5], async (store) => {
      const query = unit([1, 1, 0.5, 0.5]);
      const view = (hits: ReadonlyArray<{ entry?: Entry; similarity: number }>) => hits.map((h) => `${h.entry?.id ?? "unread"}@${h.similarity}`);
      /** The hits of a search and the rows it read. */
      const search = async (filter: { statuses?: Array<"established"> }, known?: Entry[]) => {
        const before = store.driver.rowsRead;
        const hits = await store.searchVectors(space, query, filter, 6, known ? { known } : {});
        return { hits: hits.map((h) => ({ entry: h.entry!, similarity: h.similarity })), rows: store.driver.rowsRead - before };
      };
      // The first search loads the vector index: measured from the second on.
      await search({});

      // No filter to ask about: each known hit is exactly one row fewer, all known means no entry read.
      const plain = await search({});
      const half = plain.hits.filter((_, i) => i % 2 === 0).map((h) => h.entry);
      const halfKnown = await search({}, half);
      assert.deepEqual(view(halfKnown.hits), view(plain.hits));
      for (const e of half) assert.ok(halfKnown.hits.some((h) => h.entry === e), "a known entry is handed back, not re-read");
      assert.equal(plain.rows - halfKnown.rows, half.length, `rows read: ${plain.rows} without, ${halfKnown.rows} with ${half.length} known`);
      const allKnown = await search({}, plain.hits.map((h) => h.entry));
      assert.deepEqual(view(allKnown.hits), view(plain.hits));
      assert.equal(allKnown.rows, plain.rows - plain.hits.length);

      // Archived entries ranked among the hits still have to be asked about (had they passed, they would
      // be hits): the same hits in the same order, and still fewer rows than without.
      const filter = { statuses: ["established" as const] };
      const filtered = await search(filter);
      assert.ok(filtered.hits.every((h) => h.entry.lifecycle.status === "established"));
      const some = filtered.hits.filter((_, i) => i % 2 === 0).map((h) => h.entry);
      const filteredKnown = await search(filter, some);
      assert.deepEqual(view(filteredKnown.hits), view(filtered.hits));
      assert.ok(filteredKnown.rows < filtered.rows, `rows read: ${filtered.rows} without, ${filteredKnown.rows} with ${some.length} known`);
      assert.deepEqual(view((await search(filter, filtered.hits.map((h) => h.entry))).hits), view(filtered.hits));
  });
});

test("searchVectors below entriesFrom asks only whether an entry passes: same ranking, those hits unread, fewer entries parsed", async () => {
  // Entry i points further from the query as i grows: similarities spread from ~1 down to ~0.
  await withVectorStore(10, (i) => i === 7, (i) => [Math.cos(i / 6), Math.sin(i / 6), 0, 0], async (store, entries) => {
      const query = unit([1, 0, 0, 0]);
      const filter = { statuses: ["established" as const] };
      await store.searchVectors(space, query, filter, 8);
      const parsed = async (f: () => Promise<ReadonlyArray<{ entry?: Entry; similarity: number }>>) => {
        const before = store.driver.jsonRowsRead;
        const hits = await f();
        return { hits, parsed: store.driver.jsonRowsRead - before };
      };
      const all = await parsed(() => store.searchVectors(space, query, filter, 8));
      const from = 0.9;
      const some = await parsed(() => store.searchVectors(space, query, filter, 8, { entriesFrom: from }));
      // The same places at the same similarities (the archived entry left out either way).
      assert.deepEqual(some.hits.map((h) => h.similarity), all.hits.map((h) => h.similarity));
      assert.ok(!all.hits.some((h) => h.entry?.id === entries[7]!.id));
      const above = all.hits.filter((h) => h.similarity >= from).length;
      assert.ok(above >= 2 && above < all.hits.length, `precondition: ${above} of ${all.hits.length} hits at or above ${from}`);
      some.hits.forEach((h, i) => {
        if (h.similarity >= from) assert.equal(h.entry?.id, all.hits[i]!.entry!.id);
        else assert.deepEqual([h.entry, (h as { tier?: string }).tier], [undefined, "swarm"]);
      });
      assert.equal(all.parsed, all.hits.length);
      assert.equal(some.parsed, above, `${some.parsed} entries parsed for ${above} hits at or above ${from}`);
      // A known entry below the cut still comes back whole: recall has it already.
      const known = all.hits[all.hits.length - 1]!.entry!;
      const withKnown = await store.searchVectors(space, query, filter, 8, { known: [known], entriesFrom: from });
      assert.equal(withKnown[withKnown.length - 1]!.entry, known);
  });
});

test("searchVectors reads at most readAtMost of the hits it was not handed: the nearest ones, the rest unread at the same places", async () => {
  // Similarities spread from ~1 down; entry 2 archived, so the filter refuses one of the nearest.
  await withVectorStore(10, (i) => i === 2, (i) => [Math.cos(i / 6), Math.sin(i / 6), 0, 0], async (store, entries) => {
    const query = unit([1, 0, 0, 0]);
    const filter = { statuses: ["established" as const] };
    await store.searchVectors(space, query, filter, 8);
    const parsed = async (opts: { known?: Entry[]; readAtMost?: number }) => {
      const before = store.driver.jsonRowsRead;
      const hits = await store.searchVectors(space, query, filter, 8, opts);
      return { hits, parsed: store.driver.jsonRowsRead - before };
    };
    const all = await parsed({});
    assert.equal(all.hits.length, 8);
    const capped = await parsed({ readAtMost: 3 });
    // The same places at the same similarities; the nearest unknown three (the archived one among them,
    // refused) read whole, every later one unread.
    assert.deepEqual(capped.hits.map((h) => h.similarity), all.hits.map((h) => h.similarity));
    capped.hits.forEach((h, i) => {
      if (i < 2) assert.equal(h.entry?.id, all.hits[i]!.entry!.id);
      else assert.deepEqual([h.entry, (h as { tier?: string }).tier], [undefined, "swarm"]);
    });
    assert.equal(capped.parsed, 2, "the refused entry takes one of the three places");
    // Handed entries do not count: with the first two known, three more are read.
    const known = [all.hits[0]!.entry!, all.hits[1]!.entry!];
    const withKnown = await parsed({ known, readAtMost: 3 });
    assert.deepEqual(withKnown.hits.map((h) => h.entry?.id), all.hits.map((h, i) => (i < 4 ? h.entry!.id : undefined)));
    assert.equal(withKnown.parsed, 2);
    assert.ok(!capped.hits.some((h) => h.entry?.id === entries[2]!.id));
  });
});

test("hybrid recall reads each lesson that both the words and the vectors find once", async () => {
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { embedding: { provider: "builtin" }, knowledge: { hive_enabled: false } } });
  try {
    const subjects = ["billing webhook", "auth middleware", "CSV exporter", "search indexer", "image resizer", "session store", "cron scheduler", "rate limiter", "PDF renderer", "upload helper", "flag client", "connection pool"];
    for (const [i, subject] of subjects.entries()) {
      const r = await cairn.add({ lesson: `The ${subject} retries the payment provider ${i + 2} times before the webhook queue gives up.`, category: "debugging" });
      assert.equal(r.action, "added", r.reason);
    }
    const { hits, cost: read } = await measuredRecall(cairn, "payment provider webhook retries", "rowsRead");
    assert.equal(hits.length, 5);
    // Both searches find all twelve; the text search reads them, the vector search reuses them.
    assert.ok(hits.every((h) => (h.breakdown.relevance ?? 0) > 0 && h.similarity !== undefined), "found by words and by meaning");
    // Twelve entry rows, plus a few small reads (the tier's size, term counts, the vector index's top-up).
    assert.ok(read < subjects.length + 8, `${read} rows read for ${subjects.length} lessons (each read twice would be ≥ ${2 * subjects.length})`);
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});

test("hybrid recall parses only the entries that can be candidates: unrelated vector neighbours are asked about, not read", async () => {
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { embedding: { provider: "builtin" }, knowledge: { hive_enabled: false } } });
  try {
    const lessons = [
      "Rotate the signing keys of the payments webhook every ninety days.",
      "Pin the Node version in CI with an .nvmrc file.",
      "Prefer CSS grid for two-dimensional page layouts.",
      "Run database migrations before starting the API server.",
      "Split the Grafana dashboards per service, not one per team.",
      "Vacuum the SQLite file after bulk deletes to return the space.",
      "Close Kafka consumers on shutdown so the group rebalances at once.",
      "Quote FTS5 match terms; a bare hyphen reads as NOT.",
      "Resize uploaded images in a worker, never in the request thread.",
      "Name Terraform workspaces after the environment they deploy.",
      "Debounce the search box by 200 ms so typing does not flood the API.",
      "Set a statement timeout on every Postgres connection pool.",
    ];
    for (const lesson of lessons) assert.equal((await cairn.add({ lesson, category: "tooling" })).action, "added");
    const { hits, cost: parsed } = await measuredRecall(cairn, "payments webhook signing keys", "jsonRowsRead");
    assert.equal(hits[0]?.entry.lesson, lessons[0]);
    // Every lesson is among the twelve nearest vectors, but few are near: the rest are only asked whether they pass.
    const candidates = hits.length;
    assert.ok(parsed < lessons.length, `${parsed} entries parsed for a recall returning ${candidates} of ${lessons.length} lessons`);
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});
