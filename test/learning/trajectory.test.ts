// Acceptance: 50 scripted tasks over a 2,000-lesson store — a lesson followed by failures leaves the injected top 5, one followed by success enters it.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { Cairn, RetrievalContext } from "../../src/index.js";
import { decayedFeedback, FEEDBACK_FLOOR } from "../../src/lifecycle/feedback.js";
import { SCORE_WEIGHTS } from "../../src/retrieval/weights.js";
import { writeCorpus } from "./fixtures/corpus.js";
import { BAD_RUN, GOOD_RUN, openWorld } from "./helpers.js";
import { removeSandbox } from "../fixtures/workers/sandbox.js";

const TOP = 5;
const TASKS = 50;

// One subject (schema migrations), eight lessons a team would plausibly have written about it.
const BAD = "Run database migrations automatically at application startup so every deploy applies pending schema changes without a manual step.";
const GOOD = "Set a short lock_timeout at the top of each schema migration so a blocked ALTER TABLE fails fast instead of queueing behind long transactions.";
const SUBJECT = [
  { lesson: BAD, category: "tooling", kind: "decision" },
  { lesson: "Write every database migration with an explicit down step and test the rollback in CI before merging.", category: "testing", kind: "commitment" },
  { lesson: "Add new columns as nullable in one migration and backfill them in a batch job before adding the NOT NULL constraint.", category: "architecture", kind: "pattern" },
  { lesson: "Create indexes on large tables with CREATE INDEX CONCURRENTLY in a migration of its own, outside a transaction.", category: "performance", kind: "correction" },
  { lesson: "Never edit a migration file that already ran in production; add a new migration that changes the schema instead.", category: "process", kind: "commitment" },
  { lesson: GOOD, category: "debugging", kind: "correction" },
  { lesson: "Name migration files with a UTC timestamp prefix so migrations from two branches never collide on a sequence number.", category: "process", kind: "decision" },
  { lesson: "Review the SQL a migration generates against a copy of the production schema before the deploy window.", category: "process", kind: "learning" },
] as const;

/** The context whose injected top 5 the acceptance is about; ranks below are always measured in it. */
const CONTEXT: RetrievalContext = {
  task: "Write a database migration that adds a status column to the orders table",
  files: ["db/migrations/20260110_add_order_status.sql"],
  techStack: ["postgres"],
};
// The team's tickets on the subject rotate, so every lesson gets shown somewhere and judged by outcomes.
const TICKETS: readonly RetrievalContext[] = [
  CONTEXT,
  {
    task: "Fix the schema migration that hung on ALTER TABLE while waiting for a lock held by a long transaction",
    files: ["db/migrations/20260111_orders_status_lock.sql"],
    techStack: ["postgres"],
  },
  CONTEXT,
  { task: "Deploy the pending schema migrations to production", files: ["db/migrations/20260112_invoice_totals.sql"], techStack: ["postgres"] },
];

async function rankOf(cairn: Cairn, id: string): Promise<number | undefined> {
  const hits = await cairn.recall(CONTEXT, { limit: 10 });
  const i = hits.findIndex((h) => h.entry.id === id);
  return i < 0 ? undefined : i + 1;
}

// The diagnostics print the rank trajectory of both lessons, task by task.
test(
  "trajectory: over 50 tasks, a lesson followed by failures drops out of the top 5 and one followed by success rises into it",
  async (t) => {
    const w = await openWorld();
    const { cairn, clock } = w;
    try {
      const file = path.join(w.sb.root, "memories.jsonl");
      writeCorpus(file, 2000);
      const imported = await cairn.importFile(file, { trusted: true });
      assert.equal(imported.imported, 2000, "2,000 distinct lessons in the store");
      const ids: string[] = [];
      for (const l of SUBJECT) {
        const r = await cairn.add(l);
        assert.equal(r.action, "added", `${l.lesson}: ${r.reason}`);
        ids.push(r.id!);
      }
      const [bad, good] = [ids[0]!, ids[5]!];
      const handle = async (id: string) => (await cairn.get(id)).handle;
      t.diagnostic(`L_bad ${await handle(bad)}: ${BAD}`);
      t.diagnostic(`L_good ${await handle(good)}: ${GOOD}`);

      const badStart = await rankOf(cairn, bad);
      const goodStart = await rankOf(cairn, good);
      assert.ok(badStart !== undefined && badStart <= TOP, `precondition: L_bad starts in the top ${TOP} (rank ${badStart})`);
      assert.ok(goodStart !== undefined && goodStart > TOP && goodStart <= 10, `precondition: L_good starts at rank 6–10 (rank ${goodStart})`);

      const fmt = (r: number | undefined) => (r === undefined ? ">10" : String(r)).padStart(3);
      for (let i = 1; i <= TASKS; i++) {
        const ctx = TICKETS[(i - 1) % TICKETS.length]!;
        const injected = await cairn.inject({ ...ctx });
        const shown = injected.entries.map((e) => e.id);
        // The script: the bad lesson, when followed, fails the task; otherwise the task goes well.
        const run = shown.includes(bad) ? BAD_RUN : GOOD_RUN;
        await cairn.recordOutcome({ task: `Migration ticket #${i}: ${ctx.task}`, ...run, files_touched: ctx.files, shown_entry_ids: shown });
        const report = await cairn.reflect();
        assert.equal(report.processed, 1);
        clock.t += 2 * 3_600_000;
        t.diagnostic(
          `task ${String(i).padStart(2)} ticket ${(i - 1) % TICKETS.length} ${run.success ? "success" : "FAILURE"} | rank L_bad ${fmt(await rankOf(cairn, bad))} L_good ${fmt(await rankOf(cairn, good))} | shown ${injected.entries.map((e) => e.handle).join(",")}`,
        );
      }

      const finalTop = (await cairn.inject({ ...CONTEXT }, { recordShown: false })).entries.map((e) => e.id);
      // The numbers behind the outcome: what feedback can still change against the gap to the top 5.
      const hits = await cairn.recall(CONTEXT, { limit: 10, diverse: false });
      const fifth = hits[TOP - 1]!.score;
      for (const [name, id] of [["L_bad", bad], ["L_good", good]] as const) {
        const e = await cairn.get(id);
        const hit = (await cairn.recall(CONTEXT, { limit: 200, diverse: false })).find((h) => h.entry.id === id)!;
        const base = hit.score - hit.breakdown.feedback!;
        const weight = decayedFeedback(e, new Date(clock.t), cairn.config.knowledge.feedback_half_life_days).weight;
        t.diagnostic(
          `${name}: score ${hit.score.toFixed(3)} = ${base.toFixed(3)} without feedback + feedback part ${hit.breakdown.feedback!.toFixed(3)}, weight ${weight.toFixed(2)}, helpful ${e.usage.helpful.toFixed(2)}, harmful ${e.usage.harmful.toFixed(2)}, shown ${e.usage.shown}; 5th place ${fifth.toFixed(3)}; feedback range ${(SCORE_WEIGHTS.feedback.value * FEEDBACK_FLOOR).toFixed(3)}–${SCORE_WEIGHTS.feedback.value.toFixed(3)} so reachable ${(base + SCORE_WEIGHTS.feedback.value * FEEDBACK_FLOOR).toFixed(3)}–${(base + SCORE_WEIGHTS.feedback.value).toFixed(3)}`,
        );
      }

      assert.ok(!finalTop.includes(bad), "L_bad is no longer injected");
      assert.ok(finalTop.includes(good), "L_good is injected");
      const badEnd = await rankOf(cairn, bad);
      assert.ok(badEnd === undefined || badEnd > TOP, `L_bad ends outside the top ${TOP} (rank ${badEnd})`);
      assert.ok((await rankOf(cairn, good))! <= TOP, "L_good ends inside the top 5");
    } finally {
      await cairn.close();
      removeSandbox(w.sb);
    }
  },
);
