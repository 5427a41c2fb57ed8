// The plugin's parsers (the plan's are in test/retrieval/plan.test.ts): Lessons Learned bullets, evidence lessons, touched paths, command args, token estimate.
import { test } from "node:test";
import assert from "node:assert/strict";
import { extractEvidenceLessons, extractLessonsLearned } from "../../src/learning/curate.js";
import { splitArgs } from "../../src/faces/opencode/commands.js";
import { touchedFiles } from "../../src/faces/opencode/curator.js";
import { estimateTokens } from "../../src/faces/opencode/inject.js";
import { assistantMessage, userMessage } from "./helpers.js";

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
