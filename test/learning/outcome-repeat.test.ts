// The same task reported twice without an id (a re-sent tool call, a retried request) counts once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BAD_RUN, GOOD_RUN, withWorld } from "./helpers.js";

const MIN = 60_000;
const LESSON = "Use the pnpm workspace filter flag to build only the changed packages in CI pipelines.";

test("regression: an outcome reported twice for the same task, without an id, lays its verdict once", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const { id } = await cairn.add({ lesson: LESSON, category: "tooling" });
    const report = { task: "Speed up the CI build", ...BAD_RUN, shown_entry_ids: [id!], reported_by: "mcp:claude-code", session_id: "s-1" };
    const first = await cairn.recordOutcome(report);
    clock.t += 2 * MIN;
    // The agent sends it again, in other words where words are free.
    const second = await cairn.recordOutcome({ ...report, task: "speed up the CI build ", summary: "tried again" });
    assert.equal(first.queued, true);
    assert.deepEqual(second, { id: first.id, queued: false }, "the repeat is the same report");
    await cairn.reflect();
    assert.equal((await cairn.get(id!)).usage.harmful, 1, "one failed task, one harmful verdict");
  });
});

test("reports that differ in what happened, who ran the task, or by more than the repeat window each count", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const { id } = await cairn.add({ lesson: LESSON, category: "tooling" });
    const base = { task: "Speed up the CI build", shown_entry_ids: [id!], reported_by: "mcp:claude-code", session_id: "s-1" };
    const ids = new Set<string>();
    const record = async (o: Parameters<typeof cairn.recordOutcome>[0]) => {
      const r = await cairn.recordOutcome(o);
      assert.equal(r.queued, true, `counted: ${JSON.stringify(o)}`);
      ids.add(r.id);
    };
    await record({ ...base, ...BAD_RUN });
    await record({ ...base, ...GOOD_RUN }); // the retry that worked
    await record({ ...base, ...BAD_RUN, session_id: "s-2" }); // another session's run of the task
    await record({ ...base, ...BAD_RUN, task: "Speed up the CI lint step" });
    clock.t += 3 * 60 * MIN;
    await record({ ...base, ...BAD_RUN }); // the same task run again hours later
    assert.equal(ids.size, 5);
    // An id given by the caller still decides alone.
    await record({ ...base, ...BAD_RUN, id: "run-42" });
    assert.deepEqual(await cairn.recordOutcome({ ...base, ...BAD_RUN, id: "run-42" }), { id: "run-42", queued: false });
  });
});
