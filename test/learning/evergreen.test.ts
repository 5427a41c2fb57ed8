// Acceptance: an evergreen lesson (confidence ≥ 0.9, utility ≥ 0.8) survives 20 phase sweeps; ordinary ones expire on schedule.
import { test } from "node:test";
import assert from "node:assert/strict";
import { utilityOf } from "../../src/lifecycle/utility.js";
import { withWorld } from "./helpers.js";

test("evergreen survives 20 completePhase() sweeps while ordinary lessons are archived after default_max_phases", async () => {
  await withWorld(async ({ cairn }) => {
    const k = cairn.config.knowledge;
    const add = async (lesson: string, confidence: number) => {
      const r = await cairn.add({ lesson, category: "tooling", confidence });
      assert.equal(r.action, "added", r.reason);
      return r.id!;
    };
    // Exactly at both thresholds: confidence 0.9, utility 4 applied / (4 + 1 ignored) = 0.8.
    const evergreen = await add("Run the database migrations in CI against a Postgres container before the deploy job starts.", 0.9);
    for (let i = 0; i < 4; i++) await cairn.feedback(evergreen, "applied");
    await cairn.feedback(evergreen, "ignored");
    // Just under on confidence, same utility.
    const almost = await add("Cache the pnpm store between CI jobs, keyed on the lockfile hash, to cut install time.", 0.89);
    for (let i = 0; i < 4; i++) await cairn.feedback(almost, "applied");
    await cairn.feedback(almost, "ignored");
    // High confidence, utility under the threshold (3 / (3 + 1.5) = 0.67).
    const lowUtility = await add("Split the Jest suite into four shards on CI so the feedback loop stays under ten minutes.", 0.95);
    for (let i = 0; i < 3; i++) await cairn.feedback(lowUtility, "applied");
    await cairn.feedback(lowUtility, "violated");
    const ordinary = await add("Keep the Docker build context small with a .dockerignore that excludes node_modules and test fixtures.", 0.6);

    assert.equal(utilityOf(await cairn.get(evergreen)), k.evergreen_utility);
    assert.ok(utilityOf(await cairn.get(lowUtility))! < k.evergreen_utility);

    const archivedAt = new Map<string, number>();
    for (let phase = 1; phase <= 20; phase++) {
      const report = await cairn.completePhase(`phase-${phase}`);
      const swarm = report.sweep.find((r) => r.tier === "swarm")!;
      for (const id of swarm.archived) archivedAt.set(id, phase);
      if (phase > k.default_max_phases) assert.ok(swarm.kept_evergreen.includes(evergreen), `phase ${phase}: kept as evergreen`);
    }

    const e = await cairn.get(evergreen);
    assert.equal(e.lifecycle.status, "candidate", "the evergreen lesson is still live");
    assert.equal(e.lifecycle.phases_alive, 20);
    // Archived on the first sweep that takes phases_alive past the TTL, not before.
    for (const id of [almost, lowUtility, ordinary]) {
      assert.equal((await cairn.get(id)).lifecycle.status, "archived", id);
      assert.equal(archivedAt.get(id), k.default_max_phases + 1, id);
    }
    const injected = await cairn.inject({ task: "set up the CI deploy job with database migrations" });
    assert.ok(injected.entries.some((x) => x.id === evergreen), "the survivor is still injected");
    const history = await cairn.history(ordinary);
    assert.ok(history.some((h) => h.type === "archived" && h.data.reason === "ttl"));
  });
});

test("TTL is configurable: with default_max_phases 3 the ordinary lesson goes after the 4th sweep", async () => {
  await withWorld(
    async ({ cairn }) => {
      const { id } = await cairn.add({ lesson: "Pin the Terraform AWS provider to a minor version in versions.tf to avoid surprise upgrades.", category: "tooling" });
      for (let phase = 1; phase <= 3; phase++) await cairn.completePhase(`p${phase}`);
      assert.equal((await cairn.get(id!)).lifecycle.status, "candidate");
      await cairn.completePhase("p4");
      assert.equal((await cairn.get(id!)).lifecycle.status, "archived");
    },
    { knowledge: { default_max_phases: 3 } },
  );
});

test("sweep archives auto-generated lessons shown often and never applied, but keeps hand-written and applied ones", async () => {
  await withWorld(
    async ({ cairn }) => {
      const auto = await cairn.add({ lesson: "Regenerate the GraphQL schema snapshot after changing any resolver signature.", category: "tooling", auto_generated: true }, { actor: "agent:coder" });
      const autoApplied = await cairn.add({ lesson: "Restart the Vite dev server after editing the alias map in vite.config.ts.", category: "tooling", auto_generated: true }, { actor: "agent:coder" });
      const human = await cairn.add({ lesson: "Regenerate the OpenAPI client after changing any controller route in the API package.", category: "tooling" });
      for (const r of [auto, autoApplied, human]) assert.equal(r.action, "added", r.reason);
      await cairn.feedback(autoApplied.id!, "applied");
      const store = cairn["services"].swarm;
      for (let i = 0; i < 5; i++) await store.recordUsage([auto.id!, autoApplied.id!, human.id!], "shown", "test");
      const [swarm] = (await cairn.completePhase("p1")).sweep;
      assert.deepEqual(swarm!.archived_unused, [auto.id]);
      assert.equal((await cairn.get(auto.id!)).lifecycle.status, "archived");
      assert.equal((await cairn.get(autoApplied.id!)).lifecycle.status, "candidate");
      assert.equal((await cairn.get(human.id!)).lifecycle.status, "candidate");
    },
    { knowledge: { auto_archive_min_shown: 5 } },
  );
});
