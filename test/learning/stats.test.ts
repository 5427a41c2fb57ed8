// Stats and review: application rate (applied / shown) by source, and low-utility entries flagged after enough retrievals.
import { test } from "node:test";
import assert from "node:assert/strict";
import { utilityOf } from "../../src/lifecycle/utility.js";
import { BAD_RUN, GOOD_RUN, withWorld } from "./helpers.js";

test("stats: application_rate by source counts what was shown (inject) and applied (feedback)", async () => {
  await withWorld(async ({ cairn }) => {
    const human = await cairn.add({ lesson: "Run terraform plan with -lock-timeout=60s in CI so a held state lock fails clearly.", category: "tooling" });
    const agent = await cairn.add(
      { lesson: "Pass -lock-timeout=60s to terraform apply in the deploy job so parallel runs wait for the state lock.", category: "tooling" },
      { actor: "agent:coder" },
    );
    for (const r of [human, agent]) assert.equal(r.action, "added", r.reason);
    const source = new Map([[human.id!, "human"], [agent.id!, "agent"]]);
    const shown = new Map<string, number>();
    const applied = new Map<string, number>();
    for (let i = 0; i < 6; i++) {
      const block = await cairn.inject({ task: "terraform apply fails on the state lock in the deploy job" });
      for (const e of block.entries) {
        const src = source.get(e.id);
        if (src) shown.set(src, (shown.get(src) ?? 0) + 1);
      }
      // The agent applies the human lesson every other time, never the agent one.
      if (i % 2 === 0 && block.entries.some((e) => e.id === human.id)) {
        await cairn.feedback(human.id!, "applied");
        applied.set("human", (applied.get("human") ?? 0) + 1);
      }
    }
    assert.ok((shown.get("human") ?? 0) > 0 && (shown.get("agent") ?? 0) > 0, "both were shown");
    const swarm = (await cairn.stats()).tiers.find((t) => t.tier === "swarm")!;
    for (const src of ["human", "agent"]) {
      const row = swarm.application_rate.find((r) => r.source === src)!;
      assert.ok(row, `a row for ${src}`);
      assert.equal(row.entries, 1);
      assert.equal(row.shown, shown.get(src));
      assert.equal(row.applied, applied.get(src) ?? 0);
      assert.equal(row.rate, (applied.get(src) ?? 0) / shown.get(src)!);
    }
    assert.equal(swarm.shown, [...shown.values()].reduce((a, b) => a + b, 0));
    assert.equal(swarm.applied, applied.get("human"));
  });
});

test("flagged: a low-utility entry is listed once it has been shown min_retrievals_for_utility times", async () => {
  // Application count off (0), so this test isolates the retrieval threshold; the next one checks the default.
  await withWorld(async ({ cairn }) => {
    const k = cairn.config.knowledge;
    const added = [];
    for (const lesson of [
      "Disable the TypeScript incremental cache in CI to avoid stale build info files.",
      "Give the Jest database integration suite a 20 second testTimeout; container start-up needs it.",
      "Emit declaration maps from the shared package so editors jump to its sources.",
    ]) {
      const r = await cairn.add({ lesson, category: "tooling" });
      assert.equal(r.action, "added", r.reason);
      assert.equal(r.superseded, undefined, "three unrelated lessons");
      added.push(r.id!);
    }
    const [bad, good, silent] = added as [string, string, string];
    // Outcomes judge them: two failed tasks for one, two good ones for the other, the third never judged.
    await cairn.recordOutcome({ task: "ci build 1", ...BAD_RUN, shown_entry_ids: [bad] });
    await cairn.recordOutcome({ task: "ci build 2", ...BAD_RUN, shown_entry_ids: [bad] });
    await cairn.recordOutcome({ task: "ci build 3", ...GOOD_RUN, shown_entry_ids: [good] });
    await cairn.recordOutcome({ task: "ci build 4", ...GOOD_RUN, shown_entry_ids: [good] });
    assert.equal((await cairn.reflect()).entries_scored, 4);
    assert.ok(utilityOf(await cairn.get(bad))! <= k.low_utility_threshold);
    assert.ok(utilityOf(await cairn.get(good))! > k.low_utility_threshold);
    assert.equal(utilityOf(await cairn.get(silent)), null, "no signal: unknown, not bad");

    const store = cairn["services"].swarm;
    const flaggedIds = async () => (await cairn.flagged()).map((e) => e.id);
    for (let shows = 1; shows <= k.min_retrievals_for_utility + 2; shows++) {
      await store.recordUsage([bad, good, silent], "shown", "test");
      const ids = await flaggedIds();
      assert.deepEqual(ids, shows >= k.min_retrievals_for_utility ? [bad] : [], `after ${shows} shows`);
      const swarm = (await cairn.stats()).tiers.find((t) => t.tier === "swarm")!;
      assert.equal(swarm.flagged, ids.length);
    }
    // Good feedback can lift it out of review again.
    for (let i = 0; i < 6; i++) await cairn.feedback(bad, "applied");
    assert.deepEqual(await flaggedIds(), []);
  }, { knowledge: { low_utility_min_applied: 0 } });
});

test("flagged by default: low utility after enough retrievals AND at least 5 applications (the docs' rule)", async () => {
  await withWorld(async ({ cairn }) => {
    const k = cairn.config.knowledge;
    assert.equal(k.low_utility_min_applied, 5);
    const ids: string[] = [];
    for (const lesson of [
      "Retry the S3 upload three times with jittered backoff before failing the export job.",
      "Cache the GitHub API ETag per repository so polling stays inside the rate limit.",
    ]) {
      const r = await cairn.add({ lesson, category: "integration" });
      assert.equal(r.action, "added", r.reason);
      ids.push(r.id!);
    }
    const [contested, rarelyUsed] = ids as [string, string];
    // Followed five times and violated or harmful far more often: utility well under 0.3.
    for (let i = 0; i < 5; i++) await cairn.feedback(contested, "applied");
    for (let i = 0; i < 12; i++) await cairn.feedback(contested, "violated");
    // Just as bad, but applied only twice: not enough evidence of use to flag it.
    for (let i = 0; i < 2; i++) await cairn.feedback(rarelyUsed, "applied");
    for (let i = 0; i < 12; i++) await cairn.feedback(rarelyUsed, "violated");
    for (const id of ids) assert.ok(utilityOf(await cairn.get(id))! <= k.low_utility_threshold);
    const store = cairn["services"].swarm;
    for (let shows = 0; shows < k.min_retrievals_for_utility; shows++) await store.recordUsage(ids, "shown", "test");
    assert.deepEqual((await cairn.flagged()).map((e) => e.id), [contested]);
  });
});
