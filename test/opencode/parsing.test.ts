// The plugin's parsers: plan.md phases/tasks, Lessons Learned bullets, evidence lessons, touched paths, command args, token estimate.
import { test } from "node:test";
import assert from "node:assert/strict";
import { extractEvidenceLessons, extractLessonsLearned } from "../../src/learning/curate.js";
import { splitArgs } from "../../src/faces/opencode/commands.js";
import { touchedFiles } from "../../src/faces/opencode/curator.js";
import { estimateTokens } from "../../src/faces/opencode/inject.js";
import { parsePlan, phaseSummary } from "../../src/faces/opencode/plan.js";
import { assistantMessage, userMessage, PLAN } from "./helpers.js";

test("parsePlan: phases, statuses, checkbox tasks, the current phase from the header", () => {
  const plan = parsePlan(PLAN);
  assert.equal(plan.title, "Auth rewrite");
  assert.deepEqual(plan.phases.map((p) => [p.number, p.title, p.status, p.tasks.length]), [
    [1, "Phase 1: Token parsing", "complete", 2],
    [2, "Phase 2: Session middleware", "in_progress", 3],
  ]);
  assert.equal(plan.current?.number, 2);
  assert.deepEqual(plan.phases[1]!.tasks[1], { id: "2.2", text: "Check the session token before reading claims in src/auth/middleware.ts", done: false });
});

test("parsePlan: the seed's heading-style tasks with ✅, and no header → first unfinished phase", () => {
  const plan = parsePlan(`# v4.3\n\n## Phase 1: Hooks [COMPLETE]\n### 1.1: Fix default [SMALL] ✅\n### 1.2: Utilities [SMALL] ✅\n\n## Phase 2: Pruning\n### 2.1: Budget tracker [MEDIUM]\n### 2.2: Compaction [SMALL] ✅\n`);
  assert.equal(plan.phases[0]!.status, "complete");
  assert.deepEqual(plan.phases[0]!.tasks.map((t) => [t.id, t.text, t.done]), [["1.1", "Fix default", true], ["1.2", "Utilities", true]]);
  assert.equal(plan.current?.number, 2);
  assert.equal(phaseSummary(plan, 300), "Phase 2: Pruning — 1/2 tasks done; next: 2.1 Budget tracker");
  assert.equal(phaseSummary(plan, 20).length, 20);
  assert.equal(phaseSummary(parsePlan("no phases here"), 300), "");
});

test("extractLessonsLearned: bullets per section with their phase; continuation lines folded; checkboxes skipped", () => {
  const sections = extractLessonsLearned(`## Phase 1: A [COMPLETE]\n### Lessons Learned\n- first lesson about src/a.ts\n  continued here\n* second lesson\n- [x] 1.1 a task\n### Next\n- not a lesson\n## Phase 2: B\n#### lessons_learned\n1. numbered lesson\n`);
  assert.equal(sections.length, 2);
  assert.equal(sections[0]!.phase, "Phase 1: A");
  assert.deepEqual(sections[0]!.bullets, ["first lesson about src/a.ts continued here", "second lesson"]);
  assert.equal(sections[1]!.phase, "Phase 2: B");
  assert.deepEqual(sections[1]!.bullets, ["numbered lesson"]);
});

test("extractEvidenceLessons: strings and {lesson} objects at any depth", () => {
  assert.deepEqual(extractEvidenceLessons({ a: { lessons_learned: ["x", { lesson: "y" }, 3, " "] }, b: [{ lessons_learned: ["z"] }] }), ["x", "y", "z"]);
  assert.deepEqual(extractEvidenceLessons(null), []);
});

test("touchedFiles: cheap checks on write/edit/patch/bash arguments and phase_complete", () => {
  assert.deepEqual(touchedFiles("write", { filePath: "/p/.swarm/plan.md", content: "x" }, ".swarm"), { plan: true, evidence: [] });
  assert.deepEqual(touchedFiles("edit", { filePath: "/p/.swarm/evidence/1.2/e.json" }, ".swarm"), { plan: false, evidence: [".swarm/evidence/1.2/e.json"] });
  assert.equal(touchedFiles("edit", { filePath: "/p/src/a.ts" }, ".swarm"), undefined);
  assert.equal(touchedFiles("read", { filePath: "/p/.swarm/plan.md" }, ".swarm"), undefined);
  assert.equal(touchedFiles("write", { filePath: "/p/docs/a.md", content: "see .swarm/plan.md" }, ".swarm"), undefined, "content is not a path");
  assert.deepEqual(touchedFiles("apply_patch", { patchText: "*** Update File: .swarm/plan.md\n+x" }, ".swarm"), { plan: true, evidence: [] });
  assert.equal(touchedFiles("bash", { command: "npm test" }, ".swarm"), undefined);
  assert.deepEqual(touchedFiles("bash", { command: "echo x >> .swarm/plan.md" }, ".swarm"), { plan: true, evidence: [] });
  assert.deepEqual(touchedFiles("phase_complete", { phase: 2 }, ".swarm"), { plan: true, evidence: [], phaseComplete: 2 });
});

test("splitArgs: quotes group words", () => {
  assert.deepEqual(splitArgs(`knowledge add "two words" 'single q' “curly one” plain`), ["knowledge", "add", "two words", "single q", "curly one", "plain"]);
  assert.deepEqual(splitArgs(`add "say \\"hi\\""`), ["add", 'say "hi"']);
  assert.deepEqual(splitArgs("   "), []);
});

test("estimateTokens: the provider's count when larger, else about four chars per token", () => {
  assert.equal(estimateTokens([userMessage("u", "a", "x".repeat(400))]), 100);
  assert.equal(estimateTokens([userMessage("u", "a", "x".repeat(400)), assistantMessage("a", "u", 5000)]), 5000);
});
