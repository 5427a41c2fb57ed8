// Feedback stamped in the future (a skewed clock, an imported file) must not freeze decay until that date comes.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { decayedFeedback } from "../../src/lifecycle/feedback.js";
import { DAY, T0, openWorld, withWorld } from "./helpers.js";
import { removeSandbox } from "../fixtures/workers/sandbox.js";

const LESSON = "Pin the Redis client's reconnect backoff to a ceiling so a flapping primary cannot stall the queue workers.";
const TASK = { task: "tune the Redis client reconnect backoff for the queue workers" };
const YEAR = 365 * DAY;

test("regression: a lesson imported with verdicts stamped years ahead has them decay from the import, not from that date", async () => {
  // The exporting machine's clock ran ten years ahead when its agents judged the lesson.
  const from = await openWorld();
  let file: string;
  try {
    from.clock.t = T0 + 10 * YEAR;
    const { id } = await from.cairn.add({ lesson: LESSON, category: "tooling" });
    for (let i = 0; i < 3; i++) await from.cairn.feedback(id!, "harmful");
    file = path.join(from.sb.root, "lessons.jsonl");
    await from.cairn.exportFile(file, { format: "cairn" });
  } finally {
    await from.cairn.close();
  }
  try {
    await withWorld(async ({ cairn, clock }) => {
      const report = await cairn.importFile(file);
      assert.equal(report.imported, 1, JSON.stringify(report));
      const [e] = await cairn.list({});
      assert.equal(e!.usage.harmful, 3);
      clock.t += YEAR;
      const d = decayedFeedback(await cairn.get(e!.id), new Date(clock.t), 90);
      assert.ok(d.harmful < 0.25, `a year after the import three verdicts still weigh ${d.harmful}`);
      assert.ok((await cairn.inject(TASK, { recordShown: false })).entries.some((x) => x.id === e!.id), "faded verdicts no longer keep it out");
    });
  } finally {
    removeSandbox(from.sb);
  }
});

test("regression: a revalidation stamped by a clock running ahead does not stop later verdicts from fading", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const { id } = await cairn.add({ lesson: LESSON, category: "tooling" });
    // A person restores it on a machine whose clock is three years ahead.
    clock.t = T0 + 3 * YEAR;
    await cairn.archive(id!, "parked");
    await cairn.restore(id!);
    // Back on a right clock, agents judge it.
    clock.t = T0;
    for (let i = 0; i < 3; i++) await cairn.feedback(id!, "harmful");
    clock.t = T0 + YEAR;
    const d = decayedFeedback(await cairn.get(id!), new Date(clock.t), 90);
    assert.ok(d.harmful < 0.25, `a year after three verdicts they still weigh ${d.harmful}`);
  });
});
