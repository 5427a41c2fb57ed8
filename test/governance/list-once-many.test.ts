// Past 5,000 promoted lessons, browse still counts each promoted pair once (its hive copy), none twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EntrySchema, type Entry, type Tier } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import type { Store } from "../../src/store/store.js";
import { withCairn } from "../helpers/engine.js";

function entry(tier: Tier, lesson: string, status: Entry["lifecycle"]["status"]): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier, lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at, lifecycle: { status } });
}

test("browse across both tiers with 5,001 promoted lessons: total 5,001 (each pair once), and a page holds no original beside its copy", async () => {
  await withCairn(async (c) => {
    const { swarm, hive } = (c as unknown as { services: { swarm: Store; hive: Store } }).services;
    const n = 5_001;
    // Built in bulk through the stores (a promotion each would take minutes): copies, originals, and each original's `promoted` event naming its copy.
    const lessons = Array.from({ length: n }, (_, i) => `Keep ingest worker ${i} under its own cgroup memory limit so one leak cannot starve the pool.`);
    const copies = lessons.map((l) => entry("hive", l, "candidate"));
    const originals = lessons.map((l) => entry("swarm", l, "candidate"));
    await hive.insertEntries(copies, { type: "created", actor: "test", data: { source: "promote" } });
    await swarm.insertEntries(originals, { type: "created", actor: "test", data: { source: "add" } });
    for (let i = 0; i < n; i++) {
      await swarm.updateEntry(originals[i]!.id, (e) => ({ ...e, lifecycle: { ...e.lifecycle, status: "promoted" } }), { type: "promoted", actor: "test", data: { route: "manual", hive_id: copies[i]!.id } });
    }
    const page = await c.browse({ limit: 50 });
    assert.equal(page.total, n, "each promoted lesson counted once");
    assert.ok(page.entries.every((e) => e.tier === "hive"), "originals are left out for their copies");
    assert.equal(Object.keys(page.promoted_from ?? {}).length, page.entries.length);
    assert.equal((await c.browse({ tier: "swarm", limit: 1 })).total, n, "the project tier alone still lists its originals");
  });
});
