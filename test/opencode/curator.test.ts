// tool.execute.after curator: plan.md Lessons Learned and evidence become entries once; retractions quarantine; phase completion runs the lifecycle.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openCairn } from "../../src/engine.js";
import { loadPlugin, newProject, writePlan, PLAN, userMessage } from "./helpers.js";

const p = await loadPlugin({ orchestrators: ["architect"] });
after(() => p.close());
const afterTool = p.hook("tool.execute.after");
const cairn = await p.cairn();
const planFile = path.join(p.dir, ".swarm", "plan.md");

async function wrote(tool: string, args: Record<string, unknown>): Promise<void> {
  await afterTool({ tool, sessionID: "ses_1", callID: "c", args }, { title: "", output: "", metadata: {} });
}
async function live(): Promise<string[]> {
  return (await cairn.list({ statuses: ["candidate", "established", "promoted"], limit: 100 })).map((e) => e.lesson);
}

const L1 = "Run the migration dry-run against a copy of production before applying schema changes in db/migrations.";
const L2 = "The session middleware must run before the rate limiter in src/server.ts or anonymous requests bypass limits.";
const L3 = "Mock the clock in src/auth/refresh.test.ts; real timers made the refresh rotation test flaky.";

test("tools that touch no .swarm file do nothing (no state written)", async () => {
  await wrote("edit", { filePath: path.join(p.dir, "src", "a.ts"), oldString: "a", newString: "b" });
  await wrote("read", { filePath: planFile });
  // OpenCode versions without `args` on this hook must not break it.
  await afterTool({ tool: "bash", sessionID: "ses_1", callID: "c" } as never, { title: "", output: "", metadata: {} });
  assert.equal(fs.existsSync(path.join(p.dir, ".swarm", "cairn-curator.json")), false);
});

test("writing plan.md with a Lessons Learned section adds its bullets, tagged with the phase", async () => {
  writePlan(p.dir, `${PLAN}\n### Lessons Learned\n- ${L1}\n- ${L2}\n  (found while wiring the server)\n- [x] 2.9: a task checkbox is not a lesson\n`);
  await wrote("write", { filePath: planFile, content: "…" });
  const lessons = await live();
  assert.ok(lessons.includes(L1), lessons.join("\n"));
  assert.ok(lessons.some((l) => l.startsWith(L2.slice(0, 60))));
  assert.ok(!lessons.some((l) => l.includes("task checkbox")));
  const e = (await cairn.list({ limit: 100 })).find((x) => x.lesson === L1)!;
  assert.equal(e.provenance.derived_from.kind, "retrospective");
  assert.equal(e.provenance.created_by, "curator");
  assert.equal(e.lifecycle.confirmations[0]?.phase, "Phase 2: Session middleware");
});

test("an unchanged section is not processed again; an appended bullet is the only new work", async () => {
  const e1 = (await cairn.list({ limit: 100 })).find((x) => x.lesson === L1)!;
  const events = (await cairn.history(e1.id)).length;
  await wrote("edit", { filePath: ".swarm/plan.md", oldString: "x", newString: "y" });
  assert.equal((await cairn.history(e1.id)).length, events, "no reinforcement of an unchanged lesson");
  fs.appendFileSync(planFile, `- ${L3}\n`);
  await wrote("edit", { filePath: planFile, oldString: "x", newString: "y" });
  assert.ok((await live()).includes(L3));
  assert.equal((await cairn.history(e1.id)).length, events, "older bullets of a changed section are not re-added");
});

test("RETRACT: and BAD RULE: bullets quarantine the matching entry (by text or by handle)", async () => {
  const e3 = (await cairn.list({ limit: 100 })).find((x) => x.lesson === L3)!;
  const e1 = (await cairn.list({ limit: 100 })).find((x) => x.lesson === L1)!;
  fs.appendFileSync(planFile, `\n## Phase 3: Hardening [PENDING]\n- [ ] 3.1: Fuzz the parser\n\n### Lessons Learned\n- RETRACT: ${L3}\n- BAD RULE: ${e1.handle} was wrong for staging\n`);
  await wrote("apply_patch", { patchText: "*** Update File: .swarm/plan.md\n@@\n+…" });
  assert.equal((await cairn.get(e3.id)).lifecycle.status, "quarantined");
  assert.equal((await cairn.get(e1.id)).lifecycle.status, "quarantined");
  assert.match((await cairn.get(e3.id)).lifecycle.status_reason ?? "", /retracted in \.swarm\/plan\.md/);
});

test("evidence JSON: lessons_learned anywhere in the document become entries, once", async () => {
  const file = path.join(p.dir, ".swarm", "evidence", "2.2", "evidence.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lesson = "Validate the Authorization header format in src/auth/parse.ts before base64 decoding; malformed headers threw 500s.";
  fs.writeFileSync(file, JSON.stringify({ task: "2.2", entries: [{ type: "retrospective", lessons_learned: [lesson, { lesson: "   " }] }] }));
  await wrote("write", { filePath: file, content: "…" });
  const e = (await cairn.list({ limit: 200 })).find((x) => x.lesson === lesson);
  assert.ok(e);
  assert.equal(e!.provenance.derived_from.kind, "evidence");
  const events = (await cairn.history(e!.id)).length;
  await wrote("bash", { command: `cat > .swarm/evidence/2.2/evidence.json <<EOF\n{}\nEOF` });
  assert.equal((await cairn.history(e!.id)).length, events, "unchanged evidence is skipped");
});

async function outcomesRecorded(): Promise<number> {
  const { counts } = await cairn.queue("done");
  return Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
}

test("a task checked off in plan.md records an outcome for the lessons shown since the last one, once", async () => {
  await cairn.add({ lesson: "Check the session token before reading claims in src/auth/middleware.ts; a missing header crashed the claims parser." });
  const before = await outcomesRecorded();
  await p.hook("experimental.chat.messages.transform")({}, { messages: [userMessage("msg_t22", "architect", "check the session token before reading claims middleware")] });
  fs.writeFileSync(planFile, fs.readFileSync(planFile, "utf8").replace("- [ ] 2.2:", "- [x] 2.2:"));
  await wrote("edit", { filePath: planFile, oldString: "- [ ] 2.2:", newString: "- [x] 2.2:" });
  assert.equal(await outcomesRecorded(), before + 1, "one outcome for the finished task");
  await wrote("edit", { filePath: planFile, oldString: "x", newString: "x" });
  assert.equal(await outcomesRecorded(), before + 1, "an unchanged plan records nothing more");
});

test("a phase turning complete in plan.md runs the sweep once and records the outcome of what was shown", async () => {
  const probe = await cairn.add({ lesson: "Keep the session cookie SameSite=Lax in src/auth/cookies.ts; Strict broke the OAuth redirect back from the provider." });
  // The architect is shown lessons during phase 2 (recorded for the outcome at completion).
  await p.hook("experimental.chat.messages.transform")({}, { messages: [userMessage("msg_p2", "architect", "session cookie SameSite OAuth redirect auth cookies")] });
  const aliveBefore = (await cairn.get(probe.id!)).lifecycle.phases_alive;
  const text = fs.readFileSync(planFile, "utf8").replace("## Phase 2: Session middleware [IN PROGRESS]", "## Phase 2: Session middleware [COMPLETE]").replace("Phase: 2 |", "Phase: 3 |");
  fs.writeFileSync(planFile, text);
  await wrote("edit", { filePath: planFile, oldString: "IN PROGRESS", newString: "COMPLETE" });
  assert.equal((await cairn.get(probe.id!)).lifecycle.phases_alive, aliveBefore + 1, "the TTL sweep aged live entries");
  const q = await cairn.queue("done");
  const all = { ...q.counts };
  assert.ok(Object.values(all).reduce((a, b) => a + (b ?? 0), 0) >= 1, `an outcome was recorded: ${JSON.stringify(all)}`);
  await wrote("edit", { filePath: planFile, oldString: "a", newString: "b" });
  assert.equal((await cairn.get(probe.id!)).lifecycle.phases_alive, aliveBefore + 1, "never twice for one phase");
});

test("opencode-swarm's phase_complete tool completes the named phase, and its promotions reach the one hive other projects read (seed 000: no test of the hook-to-hive chain)", async () => {
  const probe = await cairn.add({ lesson: "Use crypto.timingSafeEqual in src/auth/compare.ts for token comparison; string equality leaks timing." });
  const fast = await cairn.add({ lesson: "Generate the OpenAPI client in the build step of packages/sdk instead of committing the generated files.", tags: ["hive-fast-track"] });
  const before = (await cairn.get(probe.id!)).lifecycle.phases_alive;
  await wrote("phase_complete", { phase: 3, summary: "hardening done" });
  assert.equal((await cairn.get(probe.id!)).lifecycle.phases_alive, before + 1);
  const log = fs.readFileSync(path.join(p.dir, ".swarm", "cairn-plugin.log"), "utf8");
  assert.match(log, /phase complete: Phase 3: Hardening/);

  assert.equal((await cairn.get(fast.id!)).lifecycle.status, "promoted", "the fast-track route ran on the plugin's phase completion");
  const other = await openCairn({ projectDir: newProject("reader") });
  try {
    const copies = (await other.list({ tier: "hive", limit: 100 })).filter((e) => e.provenance.promoted_from?.entry_id === fast.id);
    assert.deepEqual(copies.map((e) => e.lesson), [(await cairn.get(fast.id!)).lesson]);
    // The hive is shared by every test of this file: leave it as it was.
    await other.remove(copies[0]!.id, { force: true, actor: "human:test" });
  } finally {
    await other.close();
  }
});

test("curation can be switched off", async () => {
  const off = await loadPlugin({ curate: false });
  try {
    writePlan(off.dir, `${PLAN}\n### Lessons Learned\n- ${L1}\n`);
    await off.hook("tool.execute.after")({ tool: "write", sessionID: "s", callID: "c", args: { filePath: path.join(off.dir, ".swarm", "plan.md") } }, { title: "", output: "", metadata: {} });
    const c = await off.cairn();
    assert.equal((await c.list({ limit: 10 })).length, 0);
  } finally {
    await off.close();
  }
});
