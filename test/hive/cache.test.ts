// The hive result cache: remembering the hive's answers costs no text work; a fallback indexes only what it ranks, once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { HiveResultCache } from "../../src/hive/cache.js";
import type { EntryFilter } from "../../src/store/store.js";

function entry(lesson: string, n: number): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: `H-${n}`, tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
}

const filter: EntryFilter = { statuses: ["candidate", "established"], project: { id: "p_1", name: "api" } };

test("remembering searches works out no index words (every turn pays nothing for the fallback); a fallback ranks by them and keeps them", () => {
  const cache = new HiveResultCache(100);
  const lessons = [
    "Run prisma migrate deploy before the container starts",
    "Pin the node version in CI so builds stay reproducible",
    "Warm the redis cache before the load test",
    "Rotate the deploy token after a teammate leaves",
  ];
  const entries = lessons.map((l, i) => entry(l, i + 1));
  // What every hive search does while the hive answers.
  cache.rememberSearch(["prisma", "deploy"], filter, entries.slice(0, 2).map((e, i) => ({ entry: e, relevance: 2 - i })));
  cache.rememberSearch(["redis", "token"], filter, entries.slice(2).map((e, i) => ({ entry: e, relevance: 2 - i })));
  assert.equal(cache.size, 4);
  assert.equal(cache.indexed, 0, "no entry's words were worked out while the hive answered");

  // The same search while the hive is down answers as it did, still without text work.
  assert.deepEqual(cache.search(["deploy", "prisma"], filter, 10).map((h) => h.entry.id), [entries[0]!.id, entries[1]!.id]);
  assert.equal(cache.indexed, 0);

  // A new search while down: ranked by the words each remembered entry holds.
  const hits = cache.search(["deploy", "token", "rotate"], filter, 10);
  assert.equal(hits[0]?.entry.id, entries[3]!.id, "the entry holding most of the words first");
  assert.ok(hits.some((h) => h.entry.id === entries[0]!.id), "an entry holding one word is still found");
  assert.ok(!hits.some((h) => h.entry.id === entries[2]!.id), "an entry holding none is not");
  assert.equal(cache.indexed, 4, "the fallback worked out the words of the entries it ranked");
  cache.search(["redis", "warm"], filter, 10);
  assert.equal(cache.indexed, 4, "and keeps them for the next turn");

  // Another filter never sees these results.
  assert.deepEqual(cache.search(["deploy"], { ...filter, agent: "coder" }, 10), []);
});
