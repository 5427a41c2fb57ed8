// Issue 11 item 2: an add whose dedup neighbour is removed meanwhile is added, never lost and never an uncaught error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import { distinctLesson } from "../fixtures/workers/lessons.js";
import { makeSandbox, removeSandbox, runWorker } from "../fixtures/workers/sandbox.js";

/** The same observation reworded: above the dedup threshold, yet not the same text. */
export function nearDuplicate(lesson: string): string {
  return `Heads-up: ${lesson.replace(/\.$/, "")}, as seen again.`;
}

const ROUNDS = 30;
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

async function race(a: Cairn, b: Cairn, round: number): Promise<void> {
  const original = distinctLesson(7, round);
  const seeded = await a.add({ lesson: original, category: "debugging", phase: `seed-${round}` });
  assert.equal(seeded.action, "added", seeded.reason);
  const text = nearDuplicate(original);
  const [added, removed] = await Promise.allSettled([
    a.add({ lesson: text, category: "debugging", phase: `again-${round}` }),
    // Round r starts the remove r % 30 microtasks late, so the rounds sweep (twice) every point of the
    // add at which the removal can land — including between the add's dedup read and its write.
    ticks(round % 30).then(() => b.remove(seeded.handle!)),
  ]);
  assert.equal(added.status, "fulfilled", `round ${round}: the add failed: ${added.status === "rejected" ? String(added.reason) : ""}`);
  assert.equal(removed.status, "fulfilled", `round ${round}: the remove failed: ${removed.status === "rejected" ? String(removed.reason) : ""}`);
  const r = added.value;
  if (r.action === "added") {
    // The neighbour vanished before the add could merge into it: the lesson stands on its own.
    for (const reader of [a, b]) assert.equal((await reader.get(r.id!)).lesson, text);
    const hits = await b.recall(text, { tier: "swarm" });
    assert.ok(hits.some((h) => h.entry.id === r.id), `round ${round}: the added lesson is not recalled`);
  } else {
    // Merged first, removed after: the only order in which the remove may take the sighting with it.
    assert.equal(r.action, "reinforced", `round ${round}: ${r.action} ${r.reason ?? ""}`);
    assert.equal(r.id, seeded.id);
    const log = await b.history(seeded.id!).catch(() => []);
    const types = log.map((e) => e.type);
    if (types.length) assert.ok(types.indexOf("reinforced") < types.indexOf("removed"), `round ${round}: ${types.join(",")}`);
  }
}

test("regression 11.2: an add racing a remove of its near-duplicate is added (or merged before the removal), never NOT_FOUND", async () => {
  const sb = makeSandbox();
  const a = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "agent:a" });
  const b = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "agent:b" });
  try {
    const near = await a.add({ lesson: distinctLesson(7, 999), category: "debugging" });
    const again = await b.add({ lesson: nearDuplicate(distinctLesson(7, 999)), category: "debugging", phase: "check" });
    assert.equal(again.action, "reinforced", "the reworded lesson must be a near-duplicate for this test to mean anything");
    assert.equal(again.id, near.id);
    for (let round = 0; round < 2 * ROUNDS; round++) await race(a, b, round);
  } finally {
    await a.close();
    await b.close();
    removeSandbox(sb);
  }
});

test("regression 11.2: in separate processes, an add racing a remove of its near-duplicate never fails and is never lost", async () => {
  const sb = makeSandbox();
  const seeder = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "agent:seeder" });
  const adder = runWorker("race-worker.ts", [sb.projectDir, sb.hivePath, "agent:adder"], sb.env);
  const remover = runWorker("race-worker.ts", [sb.projectDir, sb.hivePath, "agent:remover"], sb.env);
  try {
    await Promise.all([adder.waitForLine(/^OPENED/), remover.waitForLine(/^OPENED/)]);
    const outcome = (w: typeof adder, n: number) => w.waitForLine(new RegExp(`^(DONE|FAILED) ${n} `));
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const original = distinctLesson(8, round);
      const seeded = await seeder.add({ lesson: original, category: "debugging", phase: `seed-${round}` });
      assert.equal(seeded.action, "added", seeded.reason);
      const text = nearDuplicate(original);
      // The remover is told first and the two processes race for the file lock from there.
      remover.send(`REMOVE ${round} ${seeded.handle}`);
      adder.send(`ADD ${round} ${JSON.stringify({ lesson: text, category: "debugging", phase: `again-${round}` })}`);
      const [added, removed] = await Promise.all([outcome(adder, round), outcome(remover, round)]);
      if (!added.startsWith("DONE") || !removed.startsWith("DONE")) { failures.push(`round ${round}: ${added} | ${removed}`); continue; }
      const r = JSON.parse(added.slice(added.indexOf("{"))) as { action: string; id: string };
      if (r.action === "added") assert.equal((await seeder.get(r.id)).lesson, text, `round ${round}`);
      else assert.equal(r.action, "reinforced", `round ${round}: ${added}`);
    }
    assert.deepEqual(failures, []);
    adder.send("QUIT");
    remover.send("QUIT");
    for (const w of [adder, remover]) assert.equal((await w.done).code, 0);
  } finally {
    adder.child.kill();
    remover.child.kill();
    await seeder.close();
    removeSandbox(sb);
  }
});
