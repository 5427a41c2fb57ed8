// Background reflection must never hold up the agent: a turn arriving while it drains a backlog is answered before the backlog is done.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Cairn, OutcomeInput } from "../../src/index.js";
import { removeSandbox } from "../fixtures/workers/sandbox.js";
import { openWorld } from "./helpers.js";

const N = 12;

const outcome = (i: number): OutcomeInput => ({
  id: `o-${i}`,
  task: `render report batch ${i}`,
  success: true,
  error_count: 1,
  evaluation: `Discovered that report batch ${i} needs the worker heap raised because parser stage ${i} allocates large buffers.`,
  files_touched: [`src/reports/batch${i}.ts`],
});

/** Resolves on the first event-loop turn at which at least one outcome is done (polling takes turns too). */
function firstDone(cairn: Cairn): Promise<number> {
  return new Promise((resolve, reject) => {
    const poll = () =>
      cairn.queue("done", 0).then((q) => (q.counts.done ?? 0) >= 1 ? resolve(q.counts.done!) : setImmediate(poll), reject);
    setImmediate(poll);
  });
}

test("regression: an injection asked for while background reflection drains a backlog is answered before the drain ends", async () => {
  // A backlog: outcomes recorded while nothing reflected on them (reflection in the foreground only).
  const first = await openWorld();
  await first.cairn.add({ lesson: "Set NODE_OPTIONS=--max-old-space-size for the PDF worker pool; the parser allocates large buffers.", category: "performance" });
  for (let i = 0; i < N; i++) await first.cairn.recordOutcome(outcome(i));
  await first.cairn.close();
  const w = await openWorld({ learning: { reflect_in_background: true } }, first.sb);
  try {
    // One more outcome starts the background drain of all of them.
    await w.cairn.recordOutcome(outcome(N));
    // The host's next event (a new user turn) arrives as soon as the loop turns with the drain under way.
    const doneBefore = await firstDone(w.cairn);
    await w.cairn.inject({ task: "raise the PDF worker pool heap" }, { recordShown: false });
    const q = await w.cairn.queue("pending", 0);
    const left = (q.counts.pending ?? 0) + (q.counts.processing ?? 0);
    assert.ok(left > 0, `the turn waited for all ${N + 1} outcomes to be reflected on (${doneBefore} done when the loop first turned)`);
    await w.cairn.reflect();
    assert.equal((await w.cairn.queue("done", 0)).counts.done, N + 1, "and every outcome is still processed");
  } finally {
    await w.cairn.close();
    removeSandbox(w.sb);
  }
});
