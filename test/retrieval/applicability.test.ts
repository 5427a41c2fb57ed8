// Who an entry is for (agents, tools, projects) is decided in SQL: excluded entries never take a candidate slot.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withWorld } from "./helpers.js";

test("entries for other agents or tools are filtered by the query, so the right ones still fill the slots", async () => {
  await withWorld(async ({ cairn }) => {
    const forCoder = await cairn.add({
      lesson: "Run the Prisma migration dry-run against the staging copy before touching prisma/schema.prisma in production.",
      applicability: { agents: ["Coder"], tools: ["bash"] },
    });
    // More for the reviewer than the candidate pool holds: if they took slots, the coder's lesson would be crowded out.
    for (let i = 0; i < 60; i++) {
      const r = await cairn.add({
        lesson: `Reviewer note ${i}: check that prisma migration ${i} in prisma/schema.prisma keeps column ${i * 7} nullable during rollout.`,
        applicability: { agents: ["reviewer"] },
      });
      assert.equal(r.action, "added", r.reason);
    }
    const ids = async (agent: string, tool?: string) =>
      (await cairn.recall({ task: "prisma migration dry-run schema.prisma staging", agent, ...(tool ? { tool } : {}) }, { limit: 10 })).map((h) => h.entry.id);
    assert.ok((await ids("coder")).includes(forCoder.id!), "agent names match case-insensitively");
    assert.ok((await ids("coder", "bash")).includes(forCoder.id!));
    assert.ok(!(await ids("coder", "edit")).includes(forCoder.id!), "limited to bash");
    assert.ok(!(await ids("architect")).includes(forCoder.id!), "not for the architect");
    const reviewer = await cairn.recall({ task: "prisma migration dry-run schema.prisma staging", agent: "reviewer" }, { limit: 10 });
    assert.equal(reviewer.length, 10);
    assert.ok(reviewer.every((h) => h.entry.applicability.agents.includes("reviewer")));
  });
});
