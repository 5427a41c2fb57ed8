// Seed 003's UPDATE: a duplicate re-add merges the tags and reach it brings into the existing lesson, never its text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { APPROVAL_ON, openEnv } from "../governance/helpers.js";

const LESSON = "Run prisma generate after editing schema.prisma or the generated client is stale";

test("a re-added lesson's new tags and file globs are merged into the existing one, with an event; its text, and a stack it never had, stay", async () => {
  const env = await openEnv();
  try {
    const first = await env.agent.add({ lesson: LESSON, category: "tooling", tags: ["prisma"], applicability: { file_globs: ["prisma/**"] } });
    assert.equal(first.action, "added", first.reason);
    const again = await env.agent.add({
      lesson: LESSON, category: "tooling", why: "Stale client types break the CI build",
      tags: ["prisma", "codegen"], applicability: { file_globs: ["prisma/**", "packages/db/**"], tech_stack: ["node"] },
    });
    assert.equal(again.action, "reinforced", again.reason);
    assert.deepEqual(again.merged, { tags: ["codegen"], file_globs: ["packages/db/**"] });
    const e = await env.human.get(first.id!);
    assert.deepEqual(e.tags, ["prisma", "codegen"]);
    assert.deepEqual(e.applicability.file_globs, ["prisma/**", "packages/db/**"]);
    assert.deepEqual(e.applicability.tech_stack, [], "a lesson for every stack is not narrowed to the re-adder's");
    assert.equal(e.lesson, LESSON);
    assert.equal(e.why, undefined, "text fields are not merged");
    const note = again.issues.find((i) => i.code === "fields_not_merged");
    assert.ok(note, JSON.stringify(again.issues));
    assert.match(note.message, /why/);
    assert.match(note.message, /applicability/, "the stack it did not take is still named");
    assert.doesNotMatch(note.message, /tags/);
    const merged = (await env.human.history(first.id!)).filter((x) => x.type === "updated");
    assert.deepEqual(merged.map((x) => [x.actor, x.data.via, x.data.added]), [["agent:coder", "sighting", { tags: ["codegen"], file_globs: ["packages/db/**"] }]]);
    // Bringing nothing new writes nothing more.
    const same = await env.agent.add({ lesson: LESSON, category: "tooling", tags: ["codegen"] });
    assert.equal(same.merged, undefined);
    assert.equal((await env.human.history(first.id!)).filter((x) => x.type === "updated").length, 1);
  } finally {
    await env.close();
  }
});

test("an agent's re-add of a lesson a person approved merges nothing: the tags it brings wait for a person's edit, and the answer says so", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const first = await env.human.add({ lesson: LESSON, category: "tooling", tags: ["prisma"] });
    await env.human.approve(first.id!);
    const again = await env.agent.add({ lesson: LESSON, category: "tooling", tags: ["codegen"] });
    assert.equal(again.action, "reinforced", again.reason);
    assert.equal(again.merged, undefined);
    assert.deepEqual((await env.human.get(first.id!)).tags, ["prisma"]);
    const note = again.issues.find((i) => i.code === "fields_not_merged");
    assert.match(note?.message ?? "", /tags \(codegen\).*approved by a person/, JSON.stringify(again.issues));
    // A person's own re-add of it merges.
    const byPerson = await env.human.add({ lesson: LESSON, category: "tooling", tags: ["codegen"] });
    assert.deepEqual(byPerson.merged, { tags: ["codegen"] });
    assert.deepEqual((await env.human.get(first.id!)).tags, ["prisma", "codegen"]);
  } finally {
    await env.close();
  }
});
