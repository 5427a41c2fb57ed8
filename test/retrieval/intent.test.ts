// Intent boosts (seed 003): what the agent says it is doing lifts lessons of the matching kind; a file's name says nothing of intent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { scoreCandidates } from "../../src/retrieval/score.js";
import { contextText, type RetrievalContext } from "../../src/retrieval/context.js";
import type { Entry } from "../../src/core/entry.js";
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

function intentFor(kind: Entry["kind"], ctx: RetrievalContext): number {
  const e = rawEntry({ lesson: "Pagination cursors must encode the sort key, not the row offset, or pages skip rows.", kind });
  const [scored] = scoreCandidates([{ entry: e, relevance: 1 }], ctx, contextText(ctx), new Date(), 90);
  return (scored!.breakdown.intent ?? 0) / (scored!.score - (scored!.breakdown.intent ?? 0));
}

// Memory Lane's keywords ("mistake", "decided", "pattern", "learned") as people write them: plurals and other forms.
const SAID: ReadonlyArray<{ task: string; kinds: ReadonlyArray<Entry["kind"]> }> = [
  { task: "avoid the mistakes we made in the cursor pagination", kinds: ["correction", "gap"] },
  { task: "fixing the bugs in cursor pagination", kinds: ["correction", "gap"] },
  { task: "the pagination endpoint fails with errors on page 2", kinds: ["correction", "gap"] },
  { task: "which decisions did we take on cursor pagination", kinds: ["decision"] },
  { task: "the team decides how cursor pagination works", kinds: ["decision"] },
  { task: "which patterns and conventions apply to cursor pagination", kinds: ["pattern", "commitment"] },
  { task: "what the team prefers for cursor pagination", kinds: ["pattern", "commitment"] },
  { task: "insights and discoveries from the cursor pagination rewrite", kinds: ["learning", "insight"] },
];

test("each intent lifts exactly its kinds by 15 %, whatever form its keyword takes (mistakes, fixing, decisions, patterns, insights)", () => {
  const kinds: ReadonlyArray<Entry["kind"]> = ["correction", "gap", "decision", "pattern", "commitment", "learning", "insight", "workflow_note"];
  for (const { task, kinds: lifted } of SAID) {
    for (const kind of kinds) {
      const got = intentFor(kind, { task });
      if (lifted.includes(kind)) assert.ok(Math.abs(got - 0.15) < 1e-9, `"${task}" lifts ${kind} by 15 % (got ${got})`);
      else assert.equal(got, 0, `"${task}" does not lift ${kind}`);
    }
  }
  assert.equal(intentFor("correction", { task: "add fixtures and a prefix to the cursor pagination" }), 0, "fixtures, prefix: no fix");
});
