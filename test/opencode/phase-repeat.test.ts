// The plugin and the CLI share one guard against sweeping a phase twice; a later plan's phase of the same title still ages.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadPlugin, writePlan } from "./helpers.js";

const p = await loadPlugin();
after(() => p.close());
const cairn = await p.cairn();
const planFile = path.join(p.dir, ".swarm", "plan.md");

const plan = (one: string, two: string) => `# Auth rewrite
Swarm: test
Phase: 1 | Updated: 2026-01-01

## Phase 1: Token parsing [${one}]
- [ ] 1.1: Parse JWT headers

## Phase 2: Session middleware [${two}]
- [ ] 2.1: Add the middleware skeleton
`;

async function planWritten(text: string): Promise<void> {
  writePlan(p.dir, text);
  await p.hook("tool.execute.after")({ tool: "write", sessionID: "ses_1", callID: "c", args: { filePath: planFile } }, { title: "", output: "", metadata: {} });
}

test("a phase completed in plan.md, then by phase_complete and `cairn sweep` alike, ages once; the next plan's Phase 1 ages again", async () => {
  await planWritten(plan("IN PROGRESS", "PENDING"));
  const probe = await cairn.add({ lesson: "Keep the session cookie SameSite=Lax in src/auth/cookies.ts; Strict broke the OAuth redirect back from the provider." });
  const alive = async () => (await cairn.get(probe.id!)).lifecycle.phases_alive;

  await planWritten(plan("COMPLETE", "IN PROGRESS"));
  assert.equal(await alive(), 1);
  await p.hook("tool.execute.after")({ tool: "phase_complete", sessionID: "ses_1", callID: "c", args: { phase: 1 } }, { title: "", output: "", metadata: {} });
  assert.equal(await alive(), 1, "phase_complete after the plan said complete: the same phase");
  const cli = await cairn.sweep({ phase: "Phase 1: Token parsing" });
  assert.ok(cli.every((r) => r.skipped), JSON.stringify(cli));
  assert.equal(await alive(), 1, "the CLI meets the plugin's sweep of the same phase");

  await planWritten(plan("COMPLETE", "COMPLETE"));
  assert.equal(await alive(), 2);
  // A new plan reuses the titles: its Phase 1 is a new phase of work and ages the project again.
  await planWritten(plan("IN PROGRESS", "PENDING"));
  await planWritten(plan("COMPLETE", "IN PROGRESS"));
  assert.equal(await alive(), 3, "a later plan's Phase 1 is not stopped by the title seen before");
});
