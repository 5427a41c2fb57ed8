// knowledge_outcome: report how a task went; Cairn learns from it in the background (feedback + extracted lessons).
import { z } from "zod";
import { OUTCOME_MAX_COUNT, OUTCOME_MAX_DURATION_MS, OUTCOME_MAX_FILES, OUTCOME_MAX_PATH_CHARS } from "../../learning/outcome.js";
import { defineTool } from "./shared.js";

export const knowledgeOutcome = defineTool({
  name: "knowledge_outcome",
  description:
    "Report the outcome of a task you finished, so Cairn can learn from it without you waiting: lessons shown " +
    "during a task that went well rank higher, lessons shown during failures sink, and sentences in `evaluation` " +
    "such as \"always run X before Y\", \"discovered that…\" or \"fixed by…\" become candidate lessons (gated and " +
    "deduplicated like any add). Call it once per task, at the end. " +
    "Returns the outcome's id, and whether it was queued or had already been recorded.",
  args: {
    // The engine's own limits, so the schema a client reads says what the engine takes.
    task: z.string().min(1).max(500).regex(/\S/, "The task is blank: say in one line what the task was.").describe("What the task was, in one line."),
    success: z.boolean().describe("Did the task succeed?"),
    duration_ms: z.number().min(0).max(OUTCOME_MAX_DURATION_MS).optional().describe("How long it took, in milliseconds (at most a week)."),
    error_count: z.number().int().min(0).max(OUTCOME_MAX_COUNT).optional().describe("Errors hit along the way (failed builds, tests, commands)."),
    retry_count: z.number().int().min(0).max(OUTCOME_MAX_COUNT).optional().describe("How many times you retried."),
    files_touched: z
      .array(z.string().max(OUTCOME_MAX_PATH_CHARS).regex(/\S/, "A touched path is blank: give each path relative to the project."))
      .max(OUTCOME_MAX_FILES)
      .optional()
      .describe("Paths edited, relative to the project."),
    summary: z.string().max(4000).optional().describe("What was done."),
    evaluation: z.string().max(4000).optional().describe("What you learned: what went wrong, what fixed it, what to always/never do."),
    shown_entry_ids: z.array(z.string().max(200)).max(200).optional().describe("Ids of the lessons you were shown for this task, if you know them."),
    id: z.string().max(120).optional().describe("A stable id for this outcome; reporting the same id twice records it once. Without one, the same task reported again within an hour with the same result also counts once."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(a, ctx) {
    const agent = ctx.actor.startsWith("agent:") ? ctx.actor.slice("agent:".length) : undefined;
    // Who and where: an outcome naming no lessons takes only what this caller (this session) was shown.
    const taskId = ctx.taskIdOf?.(a.task);
    const r = await ctx.cairn.recordOutcome({
      ...a,
      ...(agent ? { agent } : {}),
      reported_by: ctx.actor.slice(0, 120),
      ...(ctx.sessionId ? { session_id: ctx.sessionId.slice(0, 200) } : {}),
      ...(taskId ? { task_id: taskId } : {}),
    });
    return {
      text: r.queued ? `outcome ${r.id} recorded; Cairn will learn from it in the background` : `outcome ${r.id} was already recorded`,
      data: { action: "outcome", id: r.id, queued: r.queued, changed: false },
    };
  },
});
