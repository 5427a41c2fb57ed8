// knowledge_context: the injection block for a described context, for clients that have no hook to inject with.
import { z } from "zod";
import { CairnError } from "../../errors.js";
import type { RetrievalContext } from "../../retrieval/context.js";
import type { BudgetRegime } from "../../retrieval/render.js";
import { defineTool } from "./shared.js";

export const knowledgeContext = defineTool({
  name: "knowledge_context",
  description:
    "Get the few lessons that matter for what you are doing now, as a ready-to-read block sized to your remaining context. " +
    "Call it at the start of a task or phase, describing it with task, files, phase and the user's last message. " +
    "The lessons are counted as shown, so report back with knowledge_feedback when one helped or was wrong. " +
    "Returns the block (or, when it is empty, why: nothing applies, or the context is nearly full) and the handle, id and tier of each lesson in it.",
  args: {
    task: z.string().max(4000).optional().describe("The current task: title and short description."),
    phase: z.string().max(200).optional().describe('The current phase, e.g. "Phase 2: auth middleware".'),
    last_message: z.string().max(4000).optional().describe("The user's last message."),
    files: z.array(z.string().min(1).max(500)).max(100).optional().describe("Files being read or edited, relative to the project root."),
    agent: z.string().max(60).optional().describe('Your role, e.g. "coder", "reviewer", "architect".'),
    tool: z.string().max(60).optional().describe("The tool you are about to use, if any."),
    tech_stack: z.array(z.string().min(1).max(60)).max(30).optional().describe('Technologies in play, e.g. ["typescript", "postgres"].'),
    tokens_used: z.number().int().min(0).optional().describe("Tokens used by the conversation so far; a fuller context gets a shorter block."),
    model: z.string().max(120).optional().describe("Your model id, to size the block to its context window."),
    context_window: z.number().int().min(1_000).max(100_000_000).optional().describe("Your context window in tokens, when you know it (the project's model_limits override it for the models they name)."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(a, ctx) {
    const rc: RetrievalContext = {
      task: a.task,
      phase: a.phase,
      lastMessage: a.last_message,
      files: a.files,
      agent: a.agent,
      tool: a.tool,
      techStack: a.tech_stack,
      tokensUsed: a.tokens_used,
      model: a.model,
      contextWindow: a.context_window,
    };
    if (!a.task && !a.phase && !a.last_message && !a.files?.length && !a.tech_stack?.length) {
      throw new CairnError("INVALID_INPUT", "Describe the context: pass at least one of task, phase, last_message, files or tech_stack.");
    }
    const r = await ctx.cairn.inject(rc, { recordShown: true, actor: ctx.actor, ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}) });
    const text = r.text || emptyBlockReason(r.regime, ctx.cairn.config.knowledge.max_inject_count);
    return {
      text,
      data: { block: r.text, regime: r.regime, headroom: Number(r.headroom.toFixed(3)), entries: r.entries, changed: false },
    };
  },
});

/** Why the block is empty, in words an agent can act on: a full context, lessons turned off, or nothing that applies. */
function emptyBlockReason(regime: BudgetRegime, maxInjectCount: number): string {
  if (regime === "skip") return "No lessons: the context is nearly full.";
  if (maxInjectCount === 0) return "No lessons: this project has lesson injection turned off (knowledge.max_inject_count is 0).";
  return "No recorded lessons apply to this context.";
}
