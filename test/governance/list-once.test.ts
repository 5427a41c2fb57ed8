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
