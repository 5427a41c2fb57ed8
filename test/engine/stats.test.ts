// `cairn stats`: every figure is exact, and none comes from reading every entry (its cost does not grow with the store).
import { test } from "node:test";
import assert from "node:assert/strict";
import { EntrySchema, type Entry, type Tier } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { openCairn, type Cairn } from "../../src/index.js";
import { openTiers, type Services } from "../../src/services.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { cpuMicrosAsync } from "../helpers/cost.js";

const services = (c: Cairn) => (c as unknown as { services: Services }).services;

function lesson(tier: Tier, i: number, extra: Partial<Entry> = {}): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({
    id: newEntryId(), handle: "", tier, category: "tooling", kind: "learning", created_at: at, updated_at: at,
    lesson: `Service ${i} must close its pooled connection ${i % 97} before the worker exits.`,
    provenance: { created_by: ["agent:coder", "human:ann", "import:file"][i % 3] },
    ...extra,
  });
}

/** Applied 5 times, ignored 20: utility 0.2, below the default threshold of 0.3. */
const lowUtility = { shown: 30, applied: 5, ignored: 20, violated: 0, prevented: 0, helpful: 0, harmful: 0, consulted: 0 };

async function withStore(n: number, fn: (c: Cairn) => Promise<void>): Promise<void> {
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:ann" });
  try {
    const s = services(cairn);
    for (const store of openTiers(s)) {
      for (let i = 0; i < n; i++) {
        const statuses = ["candidate", "established", "archived", "draft"] as const;
        const e = lesson(store.tier, i, {});
        e.lifecycle.status = statuses[i % statuses.length]!;
        // A fixed handful of low-utility lessons at every size: what stats counts as flagged.
        if (i < 5) e.usage = { ...e.usage, ...lowUtility };
        await store.insertEntry(e, { type: "created", actor: "test" });
      }
    }
    await fn(cairn);
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
}

test("stats() costs about the same on a store ten times larger: it reads tallies and indexes, not every entry", async (t) => {
  let small = 0;
  let large = 0;
  await withStore(300, async (c) => {
    await c.stats();
    small = await cpuMicrosAsync(() => c.stats(), { calls: 5, batches: 7 });
  });
  await withStore(3000, async (c) => {
    await c.stats();
    large = await cpuMicrosAsync(() => c.stats(), { calls: 5, batches: 7 });
  });
  const ratio = large / Math.max(small, 20);
  t.diagnostic(`stats() CPU: ${small.toFixed(0)} µs at 300 + 300, ${large.toFixed(0)} µs at 3,000 + 3,000 (${ratio.toFixed(2)}×)`);
  // Reading every entry makes this ~10×; tallies and capped index counts keep it near 1×.
  assert.ok(ratio < 3, `stats() on 3,000 + 3,000 entries cost ${ratio.toFixed(1)}× what 300 + 300 did (${small.toFixed(0)} → ${large.toFixed(0)} µs)`);
});

test("stats() figures equal what the entries say: per status, per creator kind, flagged, rejected", async () => {
  await withStore(40, async (c) => {
    const s = services(c);
    // A lesson whose counters moved after its utility column was written: flagged by neither count nor list.
    const recovered = await s.swarm.insertEntry(lesson("swarm", 1000, { usage: { ...lowUtility } as Entry["usage"] }), { type: "created", actor: "test" });
    for (let i = 0; i < 40; i++) await s.swarm.recordUsage([recovered.id], "applied", "agent:coder");
    await s.swarm.addRejected({ lesson: "Too vague.", reason: "vague", codes: ["vague"], source: "test", at: new Date().toISOString() }, 100);
    const stats = await c.stats();
    for (const store of openTiers(s)) {
      const t = stats.tiers.find((x) => x.tier === store.tier)!;
      const all: Entry[] = [];
      for await (const e of store.iterateEntries()) all.push(e);
      const byStatus: Record<string, number> = {};
      for (const e of all) byStatus[e.lifecycle.status] = (byStatus[e.lifecycle.status] ?? 0) + 1;
      assert.deepEqual(t.by_status, byStatus);
      assert.equal(t.total, all.length);
      assert.equal(t.shown, all.reduce((a, e) => a + e.usage.shown, 0));
      assert.equal(t.applied, all.reduce((a, e) => a + e.usage.applied, 0));
      const agents = all.filter((e) => e.provenance.created_by.startsWith("agent:"));
      assert.deepEqual(
        t.application_rate.find((r) => r.source === "agent"),
        { source: "agent", entries: agents.length, shown: agents.reduce((a, e) => a + e.usage.shown, 0), applied: agents.reduce((a, e) => a + e.usage.applied, 0), rate: agents.reduce((a, e) => a + e.usage.applied, 0) / agents.reduce((a, e) => a + e.usage.shown, 0) },
      );
      assert.equal(t.flagged, (await c.flagged(store.tier, 1000)).length);
      assert.equal(t.rejected_recent, store.tier === "swarm" ? 1 : 0);
    }
    // 5 seeded low-utility lessons per tier; of them only the live ones (candidate, established) are flagged.
    assert.deepEqual(stats.tiers.map((t) => t.flagged), [3, 3]);
  });
});
