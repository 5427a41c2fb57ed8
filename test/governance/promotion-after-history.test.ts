// A lesson promoted after a long history (a thousand consultations first) is still known by what it went up as: read from its promoted_to column, not from the first events of its log.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import type { Services } from "../../src/services.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const LESSON = "Run eslint with --max-warnings 0 in CI so new warnings fail the build";
const TAG = "eslint-ci";
/** More events than any per-entry read of the log took (500 for a lesson's page, 1,000 for pairing and the retired-copy rule). */
const CONSULTATIONS = 1_100;

const servicesOf = (c: Cairn) => (c as unknown as { services: Services }).services;

/** Alpha's lesson is consulted many times, then promoted: into beta's hive lesson (`reinforce`) or as a copy of its own. */
async function withLongHistory(
  reinforce: boolean,
  fn: (x: { a: Cairn; b: Cairn; original: string; hive: string }) => Promise<void>,
): Promise<void> {
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env });
  try {
    let theirs: string | undefined;
    if (reinforce) {
      const t = await b.add({ lesson: LESSON, category: "tooling", tags: [TAG] });
      const up = await b.promote({ id: t.id! });
      assert.equal(up.action, "added", up.reason);
      await b.approve(up.id!, "human:bob");
      theirs = up.id!;
    }
    const mine = await a.add({ lesson: LESSON, category: "tooling", tags: [TAG] });
    const swarm = servicesOf(a).swarm;
    await swarm.writeBatch(async () => {
      for (let i = 0; i < CONSULTATIONS; i++) await swarm.recordUsage([mine.id!], "consulted", "agent:coder");
    });
    const up = await a.promote({ id: mine.id! });
    assert.equal(up.action, reinforce ? "reinforced" : "added", up.reason);
    if (theirs) assert.equal(up.id, theirs);
    assert.ok((await swarm.listEvents(mine.id!, 1_000_000)).length > CONSULTATIONS, "the promotion is past the first thousand events");
    await fn({ a, b, original: mine.id!, hive: up.id! });
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
}

test("regression: a lesson's page names the hive lesson it went up as when the promotion came after 500 other events", async () => {
  await withLongHistory(false, async ({ a, original, hive }) => {
    const detail = await a.lessonDetail(original);
    assert.equal(detail.lineage.promoted_to?.id, hive, `promoted_to: ${JSON.stringify(detail.lineage.promoted_to)}`);
  });
});

test("regression: related knowledge lists a reinforced pair once when the original's promotion came after a thousand events", async () => {
  await withLongHistory(true, async ({ a, original, hive }) => {
    const hits = await a.related({ tags: [TAG] });
    const ids = hits.map((h) => h.entry.id);
    assert.ok(ids.includes(hive), `the hive lesson is listed: ${ids.join(", ")}`);
    assert.ok(!ids.includes(original), `the original it stands for is not listed again: ${hits.map((h) => `${h.entry.handle} ${h.entry.tier}`).join(", ")}`);
  });
});

test("regression: recall leaves out an original whose hive lesson another project quarantined, when its promotion came after a thousand events", async () => {
  await withLongHistory(false, async ({ a, b, original, hive }) => {
    assert.ok((await a.recall("eslint max-warnings CI build")).some((h) => h.entry.id === hive), "before: the hive lesson is recalled");
    await b.quarantine(hive, "wrong for every linter setup we have", "human:bob");
    const ids = (await a.recall("eslint max-warnings CI build")).map((h) => h.entry.id);
    assert.ok(!ids.includes(hive));
    assert.ok(!ids.includes(original), `alpha's original no longer speaks once its hive lesson is quarantined: ${ids.join(", ")}`);
  });
});
