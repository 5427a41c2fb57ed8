// Upkeep waits for the calls in flight: at once when none is, after the last answers, and no longer than MAX_DEFER_MS when calls overlap without a gap.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { asCall, betweenCalls, MAX_DEFER_MS } from "../../src/store/between-calls.js";

const turn = () => new Promise((r) => setImmediate(r));

function pendingCall(): { done: Promise<void>; answer: () => void } {
  let answer!: () => void;
  const done = asCall(() => new Promise<void>((resolve) => (answer = resolve)));
  return { done, answer };
}

test("upkeep runs at once between calls, and after the last of overlapping calls has answered", async () => {
  const ran: string[] = [];
  betweenCalls(() => ran.push("idle"));
  assert.deepEqual(ran, ["idle"]);

  const a = pendingCall();
  const b = pendingCall();
  betweenCalls(() => ran.push("checkpoint"));
  a.answer();
  await a.done;
  await turn();
  assert.deepEqual(ran, ["idle"], "another call is still waiting on the network");
  b.answer();
  await b.done;
  assert.deepEqual(ran, ["idle"], "not before the caller has its answer");
  await turn();
  assert.deepEqual(ran, ["idle", "checkpoint"]);
});

test("upkeep deferred past MAX_DEFER_MS runs when a call ends even if others overlap it", async () => {
  mock.timers.enable({ apis: ["Date"], now: 1_000_000 });
  try {
    const ran: string[] = [];
    const a = pendingCall();
    betweenCalls(() => ran.push("checkpoint"));
    const b = pendingCall();
    mock.timers.tick(MAX_DEFER_MS + 1);
    a.answer();
    await a.done;
    await turn();
    assert.deepEqual(ran, ["checkpoint"], "calls that never leave a gap do not starve it");
    b.answer();
    await b.done;
  } finally {
    mock.timers.reset();
  }
});
