// Feedback given on a project's promoted original reaches its hive copy: the copy is what agents are shown and what ranks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withWorld } from "./helpers.js";

const LESSON = "Pin the Redis client's reconnect backoff to a ceiling so a flapping primary cannot stall the queue workers.";
const TASK = { task: "tune the Redis client reconnect backoff for the queue workers" };

test("regression: harmful verdicts on a promoted lesson's project original sink the hive copy agents are shown", async () => {
  await withWorld(async ({ cairn }) => {
    const { id } = await cairn.add({ lesson: LESSON, category: "tooling" });
    const promoted = await cairn.promote({ id: id! }, "human:ann");
    assert.ok(promoted.id && promoted.id !== id, JSON.stringify(promoted));
    const shown = async () => (await cairn.inject(TASK, { recordShown: false })).entries.map((e) => e.id);
    assert.deepEqual(await shown(), [promoted.id], "precondition: one slot, the hive copy");
    let answer;
    for (let i = 0; i < 3; i++) answer = await cairn.feedback(id!, "harmful", undefined, "human:ann");
    assert.equal(answer!.id, promoted.id, "the verdict is answered with the lesson it landed on");
    assert.equal((await cairn.get(promoted.id!)).usage.harmful, 3, "the hive copy carries the verdicts");
    assert.deepEqual(await shown(), [], "three harmful verdicts keep it out of the block, as on any lesson");
    // A verdict on the copy itself is unchanged.
    assert.equal((await cairn.feedback(promoted.id!, "helpful")).id, promoted.id);
  });
});
