// A person's decisions are a person's to undo: agents (through the shared tools or the engine) may only ask.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/tools/index.js";
import { APPROVAL_ON, AUTH_LESSON, AUTH_STRUCTURED, openEnv, tool, type Env } from "./helpers.js";

const CACHE_LESSON = "Invalidate the Redis product cache in services/catalog after a price import, or shoppers see yesterday's prices for an hour.";

/** A draft an agent wrote, approved by human:ann: the decision the tests try to undo. */
async function approvedLesson(env: Env, lesson: string | typeof AUTH_STRUCTURED = AUTH_LESSON): Promise<string> {
  const r = await env.agent.add(typeof lesson === "string" ? { lesson } : lesson);
  assert.equal(r.status, "draft");
  const a = await env.human.approve(r.id!, "human:ann");
  assert.equal(a.entry.provenance.approved_by, "human:ann");
  return r.id!;
}

const forbidden = (e: Error & { code?: string }) => {
  assert.equal(e.code, "FORBIDDEN", e.message);
  assert.match(e.message, /only a person/i);
  return true;
};

test("regression 11.9: no tool accepts force from an agent", () => {
  for (const def of ALL_TOOLS) assert.ok(!("force" in def.args), `${def.name} takes force`);
});

test("regression 11.9: an agent cannot remove, archive or quarantine a lesson a person approved, through the tools", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const id = await approvedLesson(env);
    // No tool takes force: naming it is refused as an argument the tool does not take (the lesson stays, checked below).
    await assert.rejects(tool(env.agent, "knowledge_remove", { id, force: true, reason: "outdated" }), (e: Error & { code?: string }) => {
      assert.equal(e.code, "INVALID_INPUT", e.message);
      assert.match(e.message, /Unknown argument "force"/);
      return true;
    });
    await assert.rejects(tool(env.agent, "knowledge_remove", { id, reason: "outdated" }), forbidden);
    await assert.rejects(tool(env.agent, "knowledge_remove", { id }, "mcp:claude-code"), forbidden);
    await assert.rejects(tool(env.agent, "knowledge_archive", { id, reason: "outdated" }), forbidden);

    const q = await tool(env.agent, "knowledge_quarantine", { id, reason: "looks wrong since the auth rewrite" });
    assert.equal(q.data.action, "quarantine_requested");
    assert.match(q.text, /a person/);
    const after = await env.human.get(id);
    assert.equal(after.lifecycle.status, "established", "the lesson stays in use");
    assert.equal(after.provenance.approved_by, "human:ann");
    assert.ok(after.lifecycle.flags.some((f) => f.startsWith("quarantine-requested:agent:coder: looks wrong")), after.lifecycle.flags.join(" | "));
    const history = await env.human.history(id);
    assert.ok(history.some((e) => e.type === "quarantine_requested" && e.actor === "agent:coder"));
    // Asking again restates the reason: one standing request per actor.
    await tool(env.agent, "knowledge_quarantine", { id, reason: "still wrong after the auth rewrite" });
    const again = (await env.human.get(id)).lifecycle.flags.filter((f) => f.startsWith("quarantine-requested:agent:coder:"));
    assert.deepEqual(again.length, 1, again.join(" | "));
    assert.match(again[0]!, /still wrong/);
    // Still recalled for agents: a request is not a decision.
    assert.ok((await env.agent.recall("session token null check auth middleware")).some((h) => h.entry.id === id));
  } finally {
    await env.close();
  }
});

test("regression 11.9: the engine holds the same line for any non-human actor (remove with force, archive, supersede)", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const id = await approvedLesson(env);
    await assert.rejects(env.agent.remove(id, { force: true }), forbidden);
    await assert.rejects(env.agent.archive(id, "outdated"), forbidden);
    const other = await env.human.add({ lesson: CACHE_LESSON });
    await assert.rejects(env.agent.supersede(id, other.id!), forbidden);
    // A replacement lesson from an agent is a proposal: it waits, and the approved one stays.
    const proposal = await env.agent.supersede(id, { lesson: "In src/auth/middleware.ts reject a request without a session token with 401 before any claim is read." });
    assert.equal(proposal.old.lifecycle.status, "established");
    assert.equal(proposal.replacement.lifecycle.status, "draft");
    assert.equal((await env.human.get(id)).lifecycle.status, "established");
  } finally {
    await env.close();
  }
});

test("regression 11.9: without approval required, an approved lesson is still out of an agent's reach (its replacement waits)", async () => {
  const env = await openEnv();
  try {
    const r = await env.human.add({ lesson: AUTH_LESSON });
    await env.human.approve(r.id!, "human:ann");
    await assert.rejects(tool(env.agent, "knowledge_archive", { id: r.id }), forbidden);
    const proposal = await env.agent.supersede(r.id!, { lesson: "In src/auth/middleware.ts reject a request without a session token with 401 before any claim is read." });
    assert.equal(proposal.old.lifecycle.status, "established", "an agent's candidate does not retire a person's decision");
    // Unapproved lessons stay the agents' to tidy.
    const mine = await tool(env.agent, "knowledge_add", { lesson: CACHE_LESSON });
    assert.equal((await tool(env.agent, "knowledge_archive", { id: mine.data.id })).data.action, "archived");
  } finally {
    await env.close();
  }
});

test("regression 11.9: a quarantine request shows in the person's review queue; the person confirms or dismisses it", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const a = await approvedLesson(env);
    const b = await approvedLesson(env, CACHE_LESSON);
    await tool(env.agent, "knowledge_quarantine", { id: a, reason: "contradicts the new auth design" });
    await tool(env.agent, "knowledge_quarantine", { id: b, reason: "the cache moved to services/pricing" }, "mcp:claude-code");
    const queue = await env.human.reviewQueue();
    assert.equal(queue.counts.quarantine_requests, 2);
    const item = queue.items.find((i) => i.entry.id === a);
    assert.deepEqual(item?.reasons.map((r) => r.kind), ["quarantine_request"]);

    // Confirm: a person quarantines it, which answers the request.
    const q = await env.human.quarantine(a, "confirmed: contradicts the new auth design");
    assert.equal(q.lifecycle.status, "quarantined");
    assert.deepEqual(q.lifecycle.flags.filter((f) => f.startsWith("quarantine-requested:")), []);
    // Dismiss: approving again keeps it and clears the request.
    const kept = await env.human.approve(b);
    assert.equal(kept.entry.lifecycle.status, "established");
    assert.deepEqual(kept.entry.lifecycle.flags.filter((f) => f.startsWith("quarantine-requested:")), []);
    assert.equal((await env.human.reviewQueue()).counts.quarantine_requests, 0);
    // People keep every power they had.
    await env.human.archive(b, "pricing moved");
    assert.equal((await env.human.remove(b, { force: true })).id, b);
  } finally {
    await env.close();
  }
});

test("regression 11.9: `cairn guardrail` (proposeGuardrail) is a person's act, refused to an agent", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const id = await approvedLesson(env, AUTH_STRUCTURED);
    await assert.rejects(env.agent.proposeGuardrail(id), (e: Error & { code?: string }) => e.code === "FORBIDDEN");
    await assert.rejects(env.agent.proposeGuardrail(id, { force: true }), (e: Error & { code?: string }) => e.code === "FORBIDDEN");
    const p = await env.human.proposeGuardrail(id);
    assert.equal(p.entry.id, id);
  } finally {
    await env.close();
  }
});

test("regression: a lesson a person quarantined does not exist for an agent's writes either: feedback, archive, quarantine, remove and restore find no entry, and no answer carries its text", async () => {
  const env = await openEnv();
  try {
    const r = await env.agent.add({ lesson: CACHE_LESSON });
    const id = r.id!;
    await env.human.quarantine(id, "the price import moved to a queue");
    const notFound = (e: Error & { code?: string }) => {
      assert.equal(e.code, "NOT_FOUND", `${e.code}: ${e.message}`);
      assert.doesNotMatch(e.message, /Redis|quarantin/i, "the refusal tells nothing of the lesson");
      return true;
    };
    await assert.rejects(tool(env.agent, "knowledge_feedback", { id, verdict: "helpful" }), notFound);
    await assert.rejects(tool(env.agent, "knowledge_archive", { id, reason: "outdated" }), notFound);
    await assert.rejects(tool(env.agent, "knowledge_quarantine", { id, reason: "still wrong" }), notFound);
    await assert.rejects(tool(env.agent, "knowledge_remove", { id, reason: "outdated" }), notFound);
    await assert.rejects(env.agent.restore(id), notFound);
    const still = await env.human.get(id);
    assert.equal(still.lifecycle.status, "quarantined", "the person's quarantine stands");
    assert.equal(still.usage.helpful, 0, "no agent's verdict counted on a lesson it cannot see");
    // What an agent quarantined, it (or another agent) may still undo: the person's decision alone is hidden.
    const own = (await env.agent.add({ lesson: AUTH_LESSON })).id!;
    await env.agent.quarantine(own, "checking the claim");
    assert.equal((await env.agent.restore(own)).lifecycle.status !== "quarantined", true);
  } finally {
    await env.close();
  }
});
