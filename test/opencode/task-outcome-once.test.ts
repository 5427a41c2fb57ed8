// One plan task, one outcome: the plugin's automatic outcome of a checked-off task and the agent's own knowledge_outcome report of it count once.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { ToolContext } from "@opencode-ai/plugin";
import { loadPlugin, PLAN, userMessage, writePlan, type Loaded } from "./helpers.js";

const LESSON = "Check the session token before reading claims in src/auth/middleware.ts; a missing header crashed the claims parser.";
const opened: Loaded[] = [];
after(async () => {
  for (const p of opened) await p.close();
});

/** A plugin on a fresh project whose plan has task 2.2 open, and a lesson shown to the architect (session ses_1) during it. */
async function world() {
  const p = await loadPlugin({ orchestrators: ["architect"] });
  opened.push(p);
  writePlan(p.dir, PLAN);
  const planFile = path.join(p.dir, ".swarm", "plan.md");
  const afterTool = p.hook("tool.execute.after");
  const wrote = () => afterTool({ tool: "edit", sessionID: "ses_1", callID: "c", args: { filePath: planFile, oldString: "a", newString: "b" } }, { title: "", output: "", metadata: {} });
  // The plugin first reads the plan as it is: what is already done is history.
  await wrote();
  const cairn = await p.cairn();
  const { id } = await cairn.add({ lesson: LESSON });
  await p.hook("experimental.chat.messages.transform")({}, { messages: [userMessage("msg_1", "architect", "check the session token before reading claims in the auth middleware")] });
  // The inject's `shown` count is written after the turn (deferred): on a loaded machine it landed after the outcomes
  // were processed, which then found nothing shown (harmful 0, a CI run). Wait for it, as a later turn would (bounded).
  for (let i = 0; i < 500 && (await cairn.get(id!)).usage.shown < 1; i++) await new Promise((r) => setTimeout(r, 20));
  const checkOff = async (task: string) => {
    fs.writeFileSync(planFile, fs.readFileSync(planFile, "utf8").replace(`- [ ] ${task}:`, `- [x] ${task}:`));
    await wrote();
  };
  const report = async (args: Record<string, unknown>) => {
    const ctx: ToolContext = { sessionID: "ses_1", messageID: "msg_2", agent: "architect", directory: p.dir, worktree: p.dir, abort: new AbortController().signal, metadata() {}, ask: async () => {} };
    await p.hooks.tool!.knowledge_outcome!.execute(args as never, ctx);
  };
  /**
   * Every queued outcome processed: the plugin's engine reflects in the background too, and the outcome it holds is
   * not this engine's to wait for (a CI run read the lesson while the agent's report was still being processed).
   */
  const reflectAll = async () => {
    for (let i = 0; i < 500; i++) {
      await cairn.reflect();
      const { counts } = await cairn.queue();
      if (!counts.pending && !counts.processing) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail("the reflection queue did not drain");
  };
  return { p, cairn, id: id!, checkOff, report, reflectAll };
}

test("regression: the agent reports its task failed, then the plan checks it off: the lesson takes the one verdict of the agent's report, not also the plugin's success", async () => {
  const { cairn, id, checkOff, report, reflectAll } = await world();
  await report({ task: "Check the session token before reading claims", success: false, error_count: 4, retry_count: 2, duration_ms: 40 * 60_000 });
  await checkOff("2.2");
  await reflectAll();
  const e = await cairn.get(id);
  assert.ok(e.usage.shown >= 1, "precondition: the lesson was shown to the architect");
  assert.equal(e.usage.harmful, 1, `the agent's report: one harmful verdict (harmful ${e.usage.harmful})`);
  assert.equal(e.usage.helpful, 0, `the same task's automatic outcome counted too (helpful ${e.usage.helpful})`);
});

test("regression: the plan checks a task off, then the agent reports it: one helpful verdict, not two", async () => {
  const { cairn, id, checkOff, report, reflectAll } = await world();
  await checkOff("2.2");
  await report({ task: "2.2: Check the session token before reading claims in src/auth/middleware.ts", success: true, duration_ms: 60_000 });
  await reflectAll();
  const e = await cairn.get(id);
  assert.equal(e.usage.helpful, 1, `one task, one helpful verdict (helpful ${e.usage.helpful})`);
});

test("two different tasks still count on their own: a report of another task does not take the checked-off task's verdict away", async () => {
  const { cairn, id, checkOff, report, reflectAll } = await world();
  await report({ task: "Add refresh rotation", success: true, duration_ms: 60_000 });
  await checkOff("2.2");
  await reflectAll();
  const e = await cairn.get(id);
  assert.equal(e.usage.helpful, 2, `two tasks, two verdicts (helpful ${e.usage.helpful})`);
});
