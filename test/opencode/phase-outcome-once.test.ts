// A lesson shown during a plan task takes that task's outcome once: the phase's completion must not credit it again.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { loadPlugin, PLAN, userMessage, writePlan } from "./helpers.js";

const p = await loadPlugin({ orchestrators: ["architect"] });
after(() => p.close());

test("regression: a lesson shown during a task that was checked off is credited once, not again when its phase completes", async () => {
  writePlan(p.dir, PLAN);
  const afterTool = p.hook("tool.execute.after");
  const planFile = path.join(p.dir, ".swarm", "plan.md");
  const wrote = (oldString: string, newString: string) =>
    afterTool({ tool: "edit", sessionID: "ses_1", callID: "c", args: { filePath: planFile, oldString, newString } }, { title: "", output: "", metadata: {} });
  const edit = (from: string, to: string) => fs.writeFileSync(planFile, fs.readFileSync(planFile, "utf8").replace(from, to));
  // The plugin first reads the plan as it is: what is already done is history.
  await wrote("x", "x");
  const cairn = await p.cairn();
  const { id } = await cairn.add({ lesson: "Check the session token before reading claims in src/auth/middleware.ts; a missing header crashed the claims parser." });
  await p.hook("experimental.chat.messages.transform")({}, { messages: [userMessage("msg_1", "architect", "check the session token before reading claims in the auth middleware")] });
  // Task 2.2 is checked off: its outcome (success) credits the lesson shown during it.
  edit("- [ ] 2.2:", "- [x] 2.2:");
  await wrote("- [ ] 2.2:", "- [x] 2.2:");
  // Then the last task and the phase complete in one edit; nothing new was shown meanwhile.
  edit("- [ ] 2.3:", "- [x] 2.3:");
  edit("## Phase 2: Session middleware [IN PROGRESS]", "## Phase 2: Session middleware [COMPLETE]");
  await wrote("IN PROGRESS", "COMPLETE");
  await cairn.reflect();
  const e = await cairn.get(id!);
  assert.ok(e.usage.shown >= 1, "precondition: the lesson was shown to the architect");
  assert.equal(e.usage.helpful, 1, `one finished task it was shown in, one helpful verdict (helpful ${e.usage.helpful})`);
});
