// A lesson whose verdicts are all harmful stops being injected (not only ranked lower), until its verdicts fade.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BAD_RUN, DAY, withWorld } from "./helpers.js";

const REDIS = "Pin the Redis client's reconnect backoff to a ceiling so a flapping primary cannot stall the queue workers.";
const TASK = { task: "tune the Redis client reconnect backoff for the queue workers" };

test("regression: a lesson judged harmful again and again is no longer injected, though recall still finds it for review", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const { id } = await cairn.add({ lesson: REDIS, category: "tooling" });
    const other = await cairn.add({ lesson: "Give each queue worker its own Redis connection; a shared client serialises the workers' blocking pops.", category: "tooling" });
    const injected = async () => (await cairn.inject(TASK, { recordShown: false })).entries.map((e) => e.id);
    assert.ok((await injected()).includes(id!), "precondition: the lesson is injected for its task");
    await cairn.feedback(id!, "harmful");
    assert.ok((await injected()).includes(id!), "one harmful verdict lowers it, it does not silence it");
    for (let i = 0; i < 19; i++) await cairn.feedback(id!, "harmful");
    const now = await injected();
    assert.ok(!now.includes(id!), `twenty harmful verdicts and nothing helpful: still injected (${now.join(", ")})`);
    assert.ok(now.includes(other.id!), "the other lesson on the task still is");
    assert.ok((await cairn.recall(TASK)).some((h) => h.entry.id === id), "an explicit recall still lists it, so a person can review it");
    // Verdicts fade by the half-life: years later the lesson may be shown again, to be judged afresh.
    clock.t += 5 * 365 * DAY;
    assert.ok((await injected()).includes(id!), "faded verdicts no longer silence it");
  });
});

test("regression: a lesson shown during three failed tasks, and no successful one, is no longer injected", async () => {
  await withWorld(async ({ cairn }) => {
    const { id } = await cairn.add({ lesson: REDIS, category: "tooling" });
    for (let i = 0; i < 3; i++) {
      await cairn.recordOutcome({ ...BAD_RUN, task: `queue worker stall ${i}`, shown_entry_ids: [id!] });
      await cairn.reflect();
    }
    const e = await cairn.get(id!);
    assert.equal(e.usage.harmful, 3, "each failure laid a verdict on it");
    const block = await cairn.inject(TASK, { recordShown: false });
    assert.ok(!block.entries.some((x) => x.id === id), `still injected after three failures: ${block.text}`);
  });
});

test("a lesson a person approved sinks under agents' harmful verdicts but is not silenced by them: only a person retires it", async () => {
  await withWorld(async ({ cairn }) => {
    const { id } = await cairn.add({ lesson: REDIS, category: "tooling" }, { actor: "human:ann" });
    await cairn.approve(id!, "human:ann");
    for (let i = 0; i < 20; i++) await cairn.feedback(id!, "harmful", undefined, "agent:coder");
    const block = await cairn.inject(TASK, { recordShown: false });
    assert.ok(block.entries.some((x) => x.id === id), "agents' verdicts hid a lesson a person approved");
    const hit = (await cairn.recall(TASK)).find((h) => h.entry.id === id)!;
    assert.ok((hit.breakdown.feedback ?? 0) < 0, "it still ranks lower for them");
  });
});
