// Recall looks up the originals that last went up as a reinforced hive lesson by key (promoted_to), not by reading every promotion of the project.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import type { Services } from "../../src/services.js";
import type { SqliteStore } from "../../src/store/sqlite-store.js";
import { distinctLesson } from "../fixtures/workers/lessons.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const LESSON = "Run eslint with --max-warnings 0 in CI so new warnings fail the build";
const NEWER = "Run eslint with --max-warnings 0 and --cache in CI so new warnings fail the build fast";
const TASK = "eslint max-warnings CI build";

const driverOf = (c: Cairn) => ((c as unknown as { services: Services }).services.swarm as SqliteStore).driver;

async function measuredRecall(a: Cairn): Promise<{ ids: string[]; rows: number }> {
  const d = driverOf(a);
  const before = d.rowsRead;
  const hits = await a.recall(TASK);
  return { ids: hits.map((h) => h.entry.id), rows: d.rowsRead - before };
}

test("regression: recall with a reinforced hive lesson whose original was superseded reads no more rows after unrelated promotions", async () => {
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env });
  try {
    // beta contributed the hive lesson; alpha's promotion of the same lesson reinforced it; alpha then superseded its original.
    const theirs = await b.add({ lesson: LESSON, category: "tooling" });
    const up = await b.promote({ id: theirs.id! });
    const mine = await a.add({ lesson: LESSON, category: "tooling" });
    assert.equal((await a.promote({ id: mine.id! })).action, "reinforced");
    const { replacement } = await a.supersede(mine.id!, { lesson: NEWER, category: "tooling" }, "human:alice");
    const small = await measuredRecall(a);
    assert.ok(!small.ids.includes(up.id!), "precondition: the hive lesson is left out of alpha's recall");
    assert.ok(small.ids.includes(replacement.id));

    // Lessons that share no word with the query: only the promotions they make are new.
    const unrelated = Array.from({ length: 200 }, (_, i) => distinctLesson(i % 7, i)).filter((l) => !/eslint|warning|\bci\b|build|fail|run/i.test(l)).slice(0, 30);
    assert.equal(unrelated.length, 30);
    for (const lesson of unrelated) {
      const r = await a.add({ lesson, category: "debugging" });
      assert.equal(r.action, "added", r.reason);
      await a.promote({ id: r.id! }, "human:lead");
    }
    const big = await measuredRecall(a);
    assert.deepEqual(big.ids, small.ids, "the same answer");
    assert.ok(big.rows <= small.rows, `rows read by one recall grew with unrelated promotions: ${small.rows} → ${big.rows}`);
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
});
