// Intent boosts (seed 003): what the agent says it is doing lifts lessons of the matching kind; a file's name says nothing of intent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { scoreCandidates } from "../../src/retrieval/score.js";
import { contextText, type RetrievalContext } from "../../src/retrieval/context.js";
import { rawEntry } from "./helpers.js";

const correction = rawEntry({ lesson: "Pagination cursors must encode the sort key, not the row offset, or pages skip rows.", kind: "correction" });

function intentOf(ctx: RetrievalContext): number {
  const [scored] = scoreCandidates([{ entry: correction, relevance: 1 }], ctx, contextText(ctx), new Date(), 90);
  return scored!.breakdown.intent ?? 0;
}

test("a task about a mistake lifts corrections (+15 %)", () => {
  assert.ok(intentOf({ task: "fix the broken pagination cursor" }) > 0);
  assert.ok(intentOf({ lastMessage: "that was wrong, the page skipped rows" }) > 0);
});

test("a file, agent or tool name is no intent: src/errors/ or an agent called fixer does not lift corrections", () => {
  assert.equal(intentOf({ task: "add cursor pagination to the orders list", files: ["src/errors/http-error.ts", "src/orders/list.ts"] }), 0);
  assert.equal(intentOf({ task: "add cursor pagination to the orders list", agent: "bug-fixer", tool: "fix_imports" }), 0);
  assert.equal(intentOf({ task: "add cursor pagination to the orders list", techStack: ["error-stack-parser"] }), 0);
});
