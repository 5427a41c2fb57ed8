// A reason or note longer than Cairn keeps is refused with its limit named, never cut short without a word.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";
import { openEnv, tool } from "../governance/helpers.js";

const sb = sandbox();
after(() => sb.cleanup());

const LONG = "x".repeat(99_999) + "!";
const LESSON = "Set busy_timeout on every libsql connection before the first write; without it a locked database fails at once.";

/** One line on stderr naming the field and the limit, exit 2, and the lesson left as it was. */
async function refused(p: string, handle: string, limit: number, ...args: string[]): Promise<void> {
  const r = await sb.run(p, ...args);
  assert.equal(r.code, 2, `${args[0]}: ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 300)}`);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, r.stderr.slice(0, 600));
  assert.match(lines[0]!, new RegExp(`at most ${limit} characters`));
  assert.ok(r.stderr.length < 400, "the long text is not echoed back");
  const e = (await sb.json(p, "show", handle)).body.entry;
  assert.equal(e.lifecycle.status, "candidate", `${args[0]} changed nothing`);
}

test("cli: a 100,000-character quarantine, archive or removal reason, feedback note or rejection reason is refused naming the limit", async () => {
  const p = sb.project("long-reason");
  const added = await sb.json(p, "add", LESSON, "--category", "tooling");
  assert.equal(added.body.action, "added", added.stderr);
  const h = added.body.handle as string;
  await refused(p, h, 500, "quarantine", h, LONG);
  await refused(p, h, 500, "archive", h, LONG);
  await refused(p, h, 500, "remove", h, "--reason", LONG);
  await refused(p, h, 500, "feedback", h, "helpful", LONG);
  const shown = (await sb.json(p, "show", h)).body.entry;
  assert.equal(shown.usage.helpful, 0, "no feedback was recorded with a cut note");
  // A reason that fits is kept whole.
  const fits = "y".repeat(500);
  const q = await sb.json(p, "quarantine", h, fits);
  assert.equal(q.code, 0, q.stderr);
  assert.equal(q.body.lifecycle.status_reason, fits);
});

test("engine: a rejection reason past its limit is refused naming it, a draft left a draft", async () => {
  const env = await openEnv({ governance: { require_approval: { swarm: true, hive: true } } });
  try {
    const d = await env.agent.add({ lesson: LESSON, category: "tooling" });
    assert.equal(d.status, "draft", d.reason);
    await assert.rejects(env.human.reject(d.handle!, LONG), (e: Error & { code?: string }) => e.code === "INVALID_INPUT" && /at most 400 characters/.test(e.message));
    assert.equal((await env.human.get(d.handle!)).lifecycle.status, "draft");
    // The tools (MCP, the plugin) refuse it by the same limit, in their argument check.
    await assert.rejects(tool(env.human, "knowledge_quarantine", { id: d.handle!, reason: LONG }, "human:alice"), /reason.*500/s);
  } finally {
    await env.close();
  }
});

test("an agent's quarantine request keeps its whole reason (up to the 500-character limit) in the request the reviewer reads; a longer one is refused naming the limit", async () => {
  const env = await openEnv();
  try {
    const added = await env.human.add({ lesson: LESSON, category: "tooling" });
    await env.human.approve(added.handle!);
    // Words to the end, so a cut shows: the cause usually comes last.
    const reason = `${"the advice fails on libsql 0.4 when the pool opens two connections at once; ".repeat(6)}the cause: busy_timeout is per connection.`;
    assert.ok(reason.length > 200 && reason.length <= 500, String(reason.length));
    const asked = await tool(env.agent, "knowledge_quarantine", { id: added.handle!, reason }, "agent:coder");
    assert.equal(asked.data.action, "quarantine_requested", asked.text);
    const e = await env.human.get(added.handle!);
    assert.equal(e.lifecycle.status, "established");
    const requests = e.lifecycle.flags.filter((f) => f.startsWith("quarantine-requested:"));
    assert.equal(requests.length, 1);
    assert.ok(requests[0]!.endsWith(reason), `the whole reason is kept: ${requests[0]}`);
    const queue = await env.human.reviewQueue({ actor: "human:alice" });
    assert.ok(JSON.stringify(queue).includes("busy_timeout is per connection."), "the review queue shows the reason's end");
    await assert.rejects(env.agent.quarantine(added.handle!, `${reason}${"z".repeat(501 - reason.length)}`), (err: Error & { code?: string }) => err.code === "INVALID_INPUT" && /at most 500 characters/.test(err.message));
  } finally {
    await env.close();
  }
});
