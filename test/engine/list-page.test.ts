// A page of `list` (CLI --offset, MCP knowledge_query offset) reads only that page from a tier, not every entry before it.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Cairn } from "../../src/index.js";
import type { Services } from "../../src/services.js";
import type { SqliteStore } from "../../src/store/sqlite-store.js";
import { distinctLesson } from "../fixtures/workers/lessons.js";
import { withCairn } from "../helpers/engine.js";

const services = (c: Cairn) => (c as unknown as { services: Services }).services;
const ids = (xs: ReadonlyArray<{ id: string }>) => xs.map((x) => x.id);

test("a page deep in one tier reads its own rows, and lists the same entries as slicing the whole listing", async () => {
  await withCairn(async (cairn) => {
    for (let i = 0; i < 60; i++) {
      const r = await cairn.add({ lesson: distinctLesson(i % 7, i), category: "debugging" });
      assert.equal(r.action, "added", r.reason);
    }
    const promoted = await cairn.promote({ lesson: { lesson: "Pin the base image digest in every Dockerfile FROM line so rebuilds stay reproducible.", category: "tooling" } }, "human:lead");
    assert.ok(promoted.id, JSON.stringify(promoted));
    for (const order of ["newest", "oldest", "confidence"] as const) {
      const whole = await cairn.list({ tier: "swarm", limit: 100, order });
      assert.equal(whole.length, 60);
      const swarm = services(cairn).swarm as SqliteStore;
      const before = swarm.driver.rowsRead;
      const page = await cairn.list({ tier: "swarm", limit: 5, offset: 50, order });
      const read = swarm.driver.rowsRead - before;
      assert.deepEqual(ids(page), ids(whole.slice(50, 55)), `${order}: the page is the listing's entries 50–54`);
      assert.ok(read <= 5, `${order}: ${read} rows read for a page of 5 at offset 50`);
    }
    // Both tiers: still one merged order, paged after the merge.
    const all = await cairn.list({ limit: 100 });
    assert.ok(all.some((e) => e.tier === "hive") && all.length > 60, `${all.length} entries in both tiers`);
    assert.deepEqual(ids(await cairn.list({ limit: 7, offset: 20 })), ids(all.slice(20, 27)));
  });
});

test("a page deeper than one merge chunk across both tiers is the merged listing's slice", async () => {
  await withCairn(async (cairn) => {
    for (let i = 0; i < 540; i++) {
      const r = await cairn.add({ lesson: distinctLesson(i % 11, i), category: "debugging" });
      assert.equal(r.action, "added", r.reason);
      if (i % 60 === 0) await cairn.promote({ id: r.id! }, "human:lead");
    }
    const s = services(cairn);
    for (const order of ["newest", "oldest", "confidence"] as const) {
      // The whole listing worked out apart: both tiers read whole, concatenated, stably sorted by the order's key.
      const key = (e: { created_at: string; lifecycle: { confidence: number } }) =>
        order === "confidence" ? -e.lifecycle.confidence : order === "oldest" ? Date.parse(e.created_at) : -Date.parse(e.created_at);
      const whole = [...(await s.swarm.listEntries({}, { limit: 10_000, order })), ...(await s.hive!.listEntries({}, { limit: 10_000, order }))];
      const all = whole.sort((a, b) => key(a) - key(b));
      assert.ok(all.length > 540 && all.some((e) => e.tier === "hive"), `${all.length} entries`);
      for (const offset of [0, 37, 499, 520]) {
        assert.deepEqual(ids(await cairn.list({ limit: 9, offset, order })), ids(all.slice(offset, offset + 9)), `${order}, offset ${offset}`);
      }
    }
  });
});
