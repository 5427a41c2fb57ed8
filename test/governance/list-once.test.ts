// A lesson promoted to the hive is listed once (its hive copy, naming the project original) by every face's list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openEnv, tool } from "./helpers.js";

const LESSON = "Run prisma migrate deploy before starting the api container; the app crashes on a missing column.";

test("knowledge_query and the web's browse list a promoted lesson once, as its hive copy naming the project original", async () => {
  const env = await openEnv();
  try {
    const added = await env.human.add({ lesson: LESSON, category: "tooling" });
    const promoted = await env.human.promote({ id: added.id! }, "human:alice");
    assert.ok(promoted.id, JSON.stringify(promoted));

    const q = await tool(env.agent, "knowledge_query", {});
    const listed = (q.data as { entries: Array<{ id: string; promoted_from?: { handle: string } }> }).entries;
    assert.deepEqual(listed.map((e) => e.id), [promoted.id], q.text);
    assert.equal(listed[0]!.promoted_from?.handle, added.handle);
    assert.match(q.text, new RegExp(`promoted from this project's ${added.handle}`));

    const page = await env.human.browse({});
    assert.deepEqual(page.entries.map((e) => e.id), [promoted.id]);
    assert.equal(page.promoted_from?.[promoted.id!]?.handle, added.handle);
    // The project tier alone still lists the original: its hive copy is not on that page.
    assert.deepEqual((await env.human.browse({ tier: "swarm" })).entries.map((e) => e.id), [added.id]);
  } finally {
    await env.close();
  }
});

test("after a promotion, browse's total counts the lesson once and every page is full, with no original on a later page", async () => {
  const env = await openEnv();
  try {
    const added = await env.human.add({ lesson: LESSON, category: "tooling" });
    const promoted = await env.human.promote({ id: added.id! }, "human:alice");
    const more = [];
    for (const text of ["Pin the node version in .nvmrc so CI and laptops build with the same runtime.", "Close the redis pool in test teardown or the runner hangs after the last suite."]) {
      more.push(await env.human.add({ lesson: text, category: "tooling" }));
    }
    const first = await env.human.browse({});
    assert.equal(first.total, 3, "three lessons shown, three counted");
    assert.equal(first.entries.length, 3);
    for (const desc of [true, false]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await env.human.browse({ limit: 1, sort: "created", desc, ...(cursor ? { cursor } : {}) });
        assert.equal(page.total, 3);
        seen.push(...page.entries.map((e) => e.id));
        if (!page.next) break;
        assert.equal(page.entries.length, 1, "a page before the last is full");
        cursor = page.next;
      }
      assert.deepEqual([...seen].sort(), [promoted.id!, ...more.map((m) => m.id!)].sort(), `desc=${desc}`);
    }
    // Words that match the lesson: counted once as well.
    assert.equal((await env.human.browse({ text: "prisma migrate" })).total, 1);
    // The project tier alone still counts and shows the original.
    assert.equal((await env.human.browse({ tier: "swarm" })).total, 3);
  } finally {
    await env.close();
  }
});

test("listLessons gives `limit` lessons when there are that many, a promoted original not taking a place", async () => {
  const env = await openEnv();
  try {
    const added = await env.human.add({ lesson: LESSON, category: "tooling" });
    const promoted = await env.human.promote({ id: added.id! }, "human:alice");
    const more = [];
    for (const text of ["Pin the node version in .nvmrc so CI and laptops build with the same runtime.", "Close the redis pool in test teardown or the runner hangs after the last suite."]) {
      more.push(await env.human.add({ lesson: text, category: "tooling" }));
    }
    for (const order of ["newest", "oldest", "confidence"] as const) {
      for (let limit = 1; limit <= 3; limit++) {
        const listed = await env.human.listLessons({ limit, order });
        assert.equal(listed.length, limit, `${order} --limit ${limit}: ${listed.map((l) => l.entry.handle).join(",")}`);
        assert.ok(!listed.some((l) => l.entry.id === added.id), `${order} --limit ${limit}: the original is not listed beside its copy`);
      }
      const all = await env.human.listLessons({ limit: 10, order });
      assert.deepEqual(all.map((l) => l.entry.id).sort(), [promoted.id!, ...more.map((m) => m.id!)].sort());
      assert.equal(all.find((l) => l.entry.id === promoted.id)?.promoted_from?.handle, added.handle);
    }
  } finally {
    await env.close();
  }
});
