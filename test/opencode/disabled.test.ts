// knowledge.enabled = false is a master switch: tools answer "disabled", nothing is written, no instruction is added.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { ToolContext } from "@opencode-ai/plugin";
import { openCairn } from "../../src/engine.js";
import { ALL_TOOLS, callTool } from "../../src/tools/index.js";
import { loadPlugin, newProject, PLAN, writePlan } from "./helpers.js";

const OFF = { knowledge: { enabled: false } };
const p = await loadPlugin({ orchestrators: ["architect"], ...OFF });
after(() => p.close());

const LESSON = "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login.";

function ctx(agent = "coder"): ToolContext {
  return {
    sessionID: "ses_off", messageID: "msg_off", agent, directory: p.dir, worktree: p.dir,
    abort: new AbortController().signal, metadata() {}, ask: async () => {},
  };
}

async function entries(): Promise<number> {
  // A separate engine with knowledge on: it sees whatever the plugin wrote.
  const c = await p.cairn();
  return (await c.stats()).tiers.reduce((n, t) => n + t.total, 0);
}

test("regression 11.5: knowledge_add through the plugin answers that knowledge is disabled and writes nothing", async () => {
  const r = (await p.hooks.tool!.knowledge_add!.execute({ lesson: LESSON, category: "security" } as never, ctx())) as { output: string; metadata: Record<string, unknown> };
  assert.match(r.output, /disabled/i);
  assert.equal(r.metadata.action, "disabled");
  assert.equal(r.metadata.changed, false);
  for (const name of ["knowledge_recall", "knowledge_outcome"]) {
    const args = name === "knowledge_recall" ? { query: "session token" } : { task: "fix login", success: true, evaluation: "Always reset the auth fixtures before the login e2e suite." };
    const out = (await p.hooks.tool![name]!.execute(args as never, ctx())) as { output: string };
    assert.match(out.output, /disabled/i, name);
  }
  assert.equal(await entries(), 0);
});

test("regression 11.5: the system prompt hook adds nothing (no instruction to use the knowledge tools), nor does compaction", async () => {
  writePlan(p.dir, PLAN);
  const out = { system: ["You are opencode."] };
  await p.hook("experimental.chat.system.transform")({ sessionID: "ses_off", model: {} as never }, out);
  assert.deepEqual(out.system, ["You are opencode."]);
  const compact = { context: [] as string[] };
  await p.hook("experimental.session.compacting")({ sessionID: "ses_off" } as never, compact as never);
  assert.deepEqual(compact.context, []);
});

test("regression 11.5: curating plan.md Lessons Learned writes nothing", async () => {
  const file = writePlan(p.dir, `${PLAN}\n### Lessons Learned\n- Run the migration dry-run against a copy of production before applying schema changes in db/migrations.\n`);
  await p.hook("tool.execute.after")({ tool: "write", sessionID: "ses_off", callID: "c1", args: { filePath: file } }, { title: "", output: "", metadata: {} });
  const out = { parts: [] as unknown[] };
  await p.hook("command.execute.before")({ command: "swarm", sessionID: "ses_off", arguments: "curate" }, out as never);
  assert.equal(await entries(), 0);
  assert.equal(path.basename(file), "plan.md");
});

test("regression 11.5: the engine refuses every write with DISABLED whoever calls, and every shared tool answers disabled", async () => {
  const dir = newProject("off");
  const c = await openCairn({ projectDir: dir, config: OFF, actor: "human:ann" });
  try {
    const disabled = (e: Error & { code?: string }) => e.code === "DISABLED" && /knowledge\.enabled/.test(e.message);
    await assert.rejects(c.add({ lesson: LESSON }), disabled);
    await assert.rejects(c.add({ lesson: LESSON }, { actor: "curator" }), disabled);
    await assert.rejects(c.recordOutcome({ task: "fix login", success: true, evaluation: "Always reset the auth fixtures before the login e2e suite." }), disabled);
    await assert.rejects(c.promote({ lesson: { lesson: LESSON } }), disabled);
    for (const def of ALL_TOOLS) {
      const r = await callTool(def, def.name === "knowledge_add" ? { lesson: LESSON } : {}, { cairn: c, actor: "mcp:claude-code" }).catch((e: Error) => ({ text: e.message, data: {} }));
      assert.match(r.text, /disabled/i, def.name);
    }
    assert.equal((await c.stats()).tiers.reduce((n, t) => n + t.total, 0), 0);
  } finally {
    await c.close();
  }
});

test("with knowledge off, an agent's import, sweep and review change nothing; a person's review and import stay open, machine curation does not", async () => {
  const dir = newProject("off-review");
  const on = await openCairn({ projectDir: dir, actor: "human:ann" });
  let ids: string[];
  try {
    for (const lesson of [LESSON, "Run prisma generate after editing schema.prisma; the client kept stale types in CI.", "TODO: move the retry settings of src/net/client.ts into config.ts"]) {
      await on.add({ lesson, ...(lesson.startsWith("TODO") ? { category: "todo" } : {}) });
    }
    ids = (await on.list({ tier: "swarm" })).map((e) => e.handle);
  } finally {
    await on.close();
  }
  const file = path.join(dir, "knowledge.jsonl");
  (await import("node:fs")).writeFileSync(file, JSON.stringify({ id: "k2", tier: "swarm", lesson: "Rotate the staging database credentials every quarter through the vault job.", category: "security", status: "candidate" }) + "\n");
  const disabled = (e: Error & { code?: string }) => e.code === "DISABLED";
  const agent = await openCairn({ projectDir: dir, config: OFF, actor: "agent:coder" });
  try {
    const before = JSON.stringify(await agent.list({ tier: "swarm" }));
    await assert.rejects(agent.importFile(file), disabled, "import");
    await assert.rejects(agent.sweep(), disabled, "sweep");
    await assert.rejects(agent.completePhase("9"), disabled, "completePhase");
    await assert.rejects(agent.promoteDue(), disabled, "promoteDue");
    await assert.rejects(agent.remove(ids[0]!), disabled, "remove");
    await assert.rejects(agent.archive(ids[1]!), disabled, "archive");
    await assert.rejects(agent.quarantine(ids[1]!, "spam"), disabled, "quarantine");
    await assert.rejects(agent.edit(ids[1]!, { lesson: "Run prisma generate after every schema.prisma edit; stale client types broke CI." }), disabled, "edit");
    assert.equal(JSON.stringify(await agent.list({ tier: "swarm" })), before, "nothing changed");
  } finally {
    await agent.close();
  }
  const person = await openCairn({ projectDir: dir, config: OFF, actor: "human:ann" });
  try {
    await assert.rejects(person.sweep(), disabled, "machine curation is off for everyone");
    assert.equal((await person.archive(ids[1]!, "outdated")).lifecycle.status, "archived");
    assert.equal((await person.importFile(file)).imported, 1);
  } finally {
    await person.close();
  }
});

test("with knowledge off, outcomes recorded before stay queued: reflect refuses (DISABLED) and writes no lesson or feedback; back on, they are applied", async () => {
  const dir = newProject("off-reflect");
  const NO_BACKGROUND = { learning: { reflect_in_background: false } };
  const on = await openCairn({ projectDir: dir, config: NO_BACKGROUND });
  let shown: string;
  try {
    shown = (await on.add({ lesson: LESSON })).id!;
    await on.inject({ task: "fix the null session token crash in src/auth/middleware.ts" });
    await on.recordOutcome({ task: "fix the null session token crash on /login", success: true, shown_entry_ids: [shown], evaluation: "Always clear the redis session cache before running the checkout e2e suite." });
  } finally {
    await on.close();
  }
  const off = await openCairn({ projectDir: dir, config: { ...OFF, ...NO_BACKGROUND }, actor: "human:ann" });
  try {
    const before = JSON.stringify(await off.list({ tier: "swarm" }));
    await assert.rejects(off.reflect(), (e: Error & { code?: string }) => e.code === "DISABLED", "machine learning from outcomes is off for everyone");
    assert.equal(JSON.stringify(await off.list({ tier: "swarm" })), before, "no lesson extracted, no feedback applied");
    assert.equal((await off.queue("pending")).counts.pending, 1, "the outcome waits, not lost");
  } finally {
    await off.close();
  }
  const back = await openCairn({ projectDir: dir, config: NO_BACKGROUND });
  try {
    const r = await back.reflect();
    assert.deepEqual([r.processed, r.lessons_added], [1, 1]);
    assert.equal((await back.get(shown)).usage.helpful, 1);
  } finally {
    await back.close();
  }
});
