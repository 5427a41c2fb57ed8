// Re-adding the text of a lesson this project promoted: the sighting lands on its hive copy (what agents read), not on the project original.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openEnv } from "../governance/helpers.js";

const LESSON = "Run prisma migrate deploy before starting the api container; the app crashes on a missing column.";

test("a person re-adding a promoted lesson's text with new tags merges them into its hive copy (what agents read), not into the project original", async () => {
  const env = await openEnv();
  try {
    const added = await env.human.add({ lesson: LESSON, category: "tooling" });
    const promoted = await env.human.promote({ id: added.id! }, "human:alice");
    assert.ok(promoted.id, JSON.stringify(promoted));
    const again = await env.human.add({ lesson: LESSON, category: "tooling", tags: ["prisma", "deploy"] });
    assert.equal(again.action, "reinforced", JSON.stringify(again));
    assert.equal(again.id, promoted.id, `the sighting lands on the hive copy ${promoted.handle}, not on ${added.handle}`);
    assert.equal(again.tier, "hive");
    assert.deepEqual(again.merged?.tags, ["prisma", "deploy"]);
    const copy = await env.human.get(promoted.id!);
    assert.ok(["prisma", "deploy"].every((t) => copy.tags.includes(t)), JSON.stringify(copy.tags));
    assert.equal((await env.human.get(added.id!)).lifecycle.status, "promoted", "the original stays the record of the promotion");
  } finally {
    await env.close();
  }
});

test("an agent re-adding a promoted lesson's text changes neither the original nor its hive copy: what it brings waits for a person", async () => {
  const env = await openEnv();
  try {
    const added = await env.human.add({ lesson: LESSON, category: "tooling" });
    const promoted = await env.human.promote({ id: added.id! }, "human:alice");
    const again = await env.agent.add({ lesson: LESSON, category: "tooling", tags: ["prisma", "deploy"] });
    assert.equal(again.action, "reinforced", JSON.stringify(again));
    assert.equal(again.merged, undefined);
    assert.ok(again.issues?.some((i) => i.code === "fields_not_merged"), JSON.stringify(again.issues));
    assert.ok(!(await env.human.get(promoted.id!)).tags.includes("prisma"));
    assert.ok(!(await env.human.get(added.id!)).tags.includes("prisma"));
  } finally {
    await env.close();
  }
});
