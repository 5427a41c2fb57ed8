// Edit and restore refuse a live twin of the lesson they bring live; two processes racing must not both pass the check and both write.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { distinctLesson } from "../fixtures/workers/lessons.js";
import { makeSandbox, removeSandbox, runWorker } from "../fixtures/workers/sandbox.js";

const ROUNDS = 12;

test("two processes editing two lessons to the same new wording at once: one is saved, the other refused as a near-duplicate", { timeout: 300_000 }, async () => {
  const sb = makeSandbox();
  const seeder = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:seed" });
  const a = runWorker("race-worker.ts", [sb.projectDir, sb.hivePath, "human:a"], sb.env);
  const b = runWorker("race-worker.ts", [sb.projectDir, sb.hivePath, "human:b"], sb.env);
  try {
    await Promise.all([a.waitForLine(/^OPENED/), b.waitForLine(/^OPENED/)]);
    const outcome = (w: typeof a, n: number) => w.waitForLine(new RegExp(`^(DONE|FAILED) ${n} `));
    const doubled: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const one = await seeder.add({ lesson: distinctLesson(11, round), category: "debugging", phase: `one-${round}` });
      const two = await seeder.add({ lesson: distinctLesson(12, round), category: "debugging", phase: `two-${round}` });
      assert.equal(one.action, "added", one.reason);
      assert.equal(two.action, "added", two.reason);
      const wording = distinctLesson(13, round);
      a.send(`EDIT ${round} ${one.id} ${wording}`);
      b.send(`EDIT ${round} ${two.id} ${wording}`);
      const lines = await Promise.all([outcome(a, round), outcome(b, round)]);
      for (const l of lines) if (l.startsWith("FAILED")) assert.match(l, /REJECTED .*repeats/, `round ${round}: a refusal names the twin: ${l}`);
      const live = [(await seeder.get(one.id!)), (await seeder.get(two.id!))].filter((e) => e.lesson === wording);
      if (live.length > 1) doubled.push(`round ${round}: ${lines.join(" | ")}`);
      assert.ok(live.length >= 1, `round ${round}: one of the edits is saved (${lines.join(" | ")})`);
    }
    assert.deepEqual(doubled, [], "never two live lessons with the same wording");
  } finally {
    a.send("QUIT");
    b.send("QUIT");
    await Promise.all([a.done, b.done]);
    await seeder.close();
    removeSandbox(sb);
  }
});

test("two processes restoring two retired copies of one lesson at once: one comes back, the other is refused as a live twin", { timeout: 300_000 }, async () => {
  const sb = makeSandbox();
  const seeder = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:seed" });
  const a = runWorker("race-worker.ts", [sb.projectDir, sb.hivePath, "human:a"], sb.env);
  const b = runWorker("race-worker.ts", [sb.projectDir, sb.hivePath, "human:b"], sb.env);
  try {
    await Promise.all([a.waitForLine(/^OPENED/), b.waitForLine(/^OPENED/)]);
    const outcome = (w: typeof a, n: number) => w.waitForLine(new RegExp(`^(DONE|FAILED) ${n} `));
    const doubled: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const lesson = distinctLesson(14, round);
      const one = await seeder.add({ lesson, category: "debugging", phase: `one-${round}` });
      await seeder.archive(one.id!, "retired for the race", "human:seed");
      // With the first retired, the same lesson is written again (as a person's add after an archive does), then retired too.
      const two = await seeder.add({ lesson, category: "debugging", phase: `two-${round}` });
      assert.equal(two.action, "added", `round ${round}: the second copy is its own entry (${two.action} ${two.reason ?? ""})`);
      assert.notEqual(two.id, one.id);
      await seeder.archive(two.id!, "retired for the race", "human:seed");
      a.send(`RESTORE ${round} ${one.id}`);
      b.send(`RESTORE ${round} ${two.id}`);
      const lines = await Promise.all([outcome(a, round), outcome(b, round)]);
      for (const l of lines) if (l.startsWith("FAILED")) assert.match(l, /REJECTED .*says the same and is live/, `round ${round}: a refusal names the twin: ${l}`);
      const live = [await seeder.get(one.id!), await seeder.get(two.id!)].filter((e) => e.lifecycle.status !== "archived");
      if (live.length > 1) doubled.push(`round ${round}: ${lines.join(" | ")}`);
      assert.ok(live.length >= 1, `round ${round}: one of the restores is saved (${lines.join(" | ")})`);
    }
    assert.deepEqual(doubled, [], "never two live copies of one lesson");
  } finally {
    a.send("QUIT");
    b.send("QUIT");
    await Promise.all([a.done, b.done]);
    await seeder.close();
    removeSandbox(sb);
  }
});
