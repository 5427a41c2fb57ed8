// A promotion that reinforced a hive lesson another project contributed pairs this project's original with that lesson, as a copy it created would be.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const LESSON = "Run eslint with --max-warnings 0 in CI so new warnings fail the build";
const NEWER = "Run eslint with --max-warnings 0 and --cache in CI so new warnings fail the build fast";
const TASK = { task: "eslint max-warnings CI build" };

/** beta contributed the hive lesson; alpha's promotion of the same lesson reinforced it (no copy of its own). */
async function withPair(fn: (x: { a: Cairn; b: Cairn; original: string; hive: string; betaOriginal: string }) => Promise<void>): Promise<void> {
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env });
  try {
    const theirs = await b.add({ lesson: LESSON, category: "tooling" });
    const up = await b.promote({ id: theirs.id! });
    assert.equal(up.action, "added", up.reason);
    const mine = await a.add({ lesson: LESSON, category: "tooling" });
    const again = await a.promote({ id: mine.id! });
    assert.equal(again.action, "reinforced", "alpha's promotion merged into beta's hive lesson");
    assert.equal(again.id, up.id);
    await fn({ a, b, original: mine.id!, hive: up.id!, betaOriginal: theirs.id! });
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
}

const ids = (hits: Array<{ entry: { id: string } }>) => hits.map((h) => h.entry.id);

test("engine: a reinforced pair is listed once, and quarantining alpha's original quarantines the hive lesson (as its own copy would be) — neither injected anywhere; restoring the original brings both back", async () => {
  await withPair(async ({ a, b, original, hive }) => {
    const listed = await a.listLessons({});
    assert.equal(listed.filter((l) => l.entry.id === original || l.entry.id === hive).length, 1, JSON.stringify(listed.map((l) => l.entry.handle)));
    const q = await a.quarantine(original, "wrong for our linter setup", "human:alice");
    assert.equal(q.lifecycle.status, "quarantined");
    assert.equal((await a.get(hive)).lifecycle.status, "quarantined");
    assert.ok(!(await a.inject(TASK, { recordShown: false })).entries.some((e) => e.id === hive || e.id === original));
    assert.ok(!(await b.inject(TASK, { recordShown: false })).entries.some((e) => e.id === hive));
    const r = await a.restore(original, "human:alice");
    assert.equal(r.lifecycle.status, "promoted");
    assert.notEqual((await a.get(hive)).lifecycle.status, "quarantined");
  });
});

test("engine: superseding alpha's reinforced original leaves the hive lesson out of alpha's recall and inject (flagged for a person), and keeps it for beta", async () => {
  await withPair(async ({ a, b, original, hive }) => {
    const { replacement } = await a.supersede(original, { lesson: NEWER, category: "tooling" }, "human:alice");
    const hits = await a.recall(TASK.task);
    assert.ok(!ids(hits).includes(hive), hits.map((h) => `${h.entry.handle} ${h.entry.lesson}`).join("\n"));
    assert.ok(ids(hits).includes(replacement.id));
    assert.ok(!(await a.inject(TASK, { recordShown: false })).entries.some((e) => e.id === hive));
    assert.ok(ids(await b.recall(TASK.task)).includes(hive), "beta still recalls the hive lesson");
    assert.ok((await a.get(hive)).lifecycle.flags.some((f) => f.includes("origin project alpha")));
    await a.restore(original, "human:alice");
    assert.ok(ids(await a.recall(TASK.task)).includes(hive), "restored, alpha recalls the hive lesson again");
  });
});

test("engine: the hive lesson quarantined from beta takes alpha's reinforced original out of alpha's recall; restored, the lesson is back", async () => {
  await withPair(async ({ a, b, original, hive }) => {
    await b.quarantine(hive, "wrong for every linter setup", "human:bob");
    const hits = await a.recall(TASK.task);
    assert.ok(!ids(hits).includes(original), hits.map((h) => `${h.entry.handle} ${h.entry.lesson}`).join("\n"));
    assert.ok(!(await a.inject(TASK, { recordShown: false })).entries.some((e) => e.id === original || e.id === hive));
    await b.restore(hive, "human:bob");
    assert.ok((await a.inject(TASK, { recordShown: false })).entries.some((e) => e.id === hive));
  });
});

test("engine: beta superseding and restoring its own original leaves alpha's origin-superseded flag on the hive lesson, which stays out of alpha's recall", async () => {
  await withPair(async ({ a, b, original, hive, betaOriginal }) => {
    await a.supersede(original, { lesson: NEWER, category: "tooling" }, "human:alice");
    const betaNewer = "Run eslint with --max-warnings 0 and --format compact in CI so new warnings fail the build readably";
    await b.supersede(betaOriginal, { lesson: betaNewer, category: "tooling" }, "human:bob");
    await b.restore(betaOriginal, "human:bob");
    const flags = (await a.get(hive)).lifecycle.flags;
    assert.ok(flags.some((f) => f.includes("origin project alpha")), `alpha's flag stays: ${flags.join("; ")}`);
    assert.ok(!flags.some((f) => f.includes("origin project beta")), `beta's restore took its own flag back: ${flags.join("; ")}`);
    assert.ok(!ids(await a.recall(TASK.task)).includes(hive), "still superseded in alpha");
  });
});

test("engine: an agent archiving alpha's reinforced original retires the original only — beta contributed the hive lesson, which beta still injects; a person archiving it retires both", async () => {
  await withPair(async ({ a, b, original, hive }) => {
    const byAgent = await a.archive(original, "not our linter any more", "agent:coder");
    assert.equal(byAgent.lifecycle.status, "archived");
    assert.equal(byAgent.also, undefined, "no hive lesson went with it");
    assert.notEqual((await b.get(hive)).lifecycle.status, "archived");
    assert.ok((await b.inject(TASK, { recordShown: false })).entries.some((e) => e.id === hive), "beta still injects its lesson");

    await a.restore(original, "human:alice");
    const byPerson = await a.archive(original, "wrong for every project", "human:alice");
    assert.equal(byPerson.lifecycle.status, "archived");
    assert.equal((await b.get(hive)).lifecycle.status, "archived");
  });
});
