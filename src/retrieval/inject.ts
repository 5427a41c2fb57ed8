// Injection: the block for a new agent turn — context query, budget regime, render, count as shown.
import type { Tier } from "../core/entry.js";
import { storeFor, type Services } from "../services.js";
import type { RetrievalContext } from "./context.js";
import { contextLimit } from "./context-budget.js";
import { recallForContext, withPlan } from "./recall.js";
import { contentStems, isRelated } from "./relatedness.js";
import { budgetFor, INJECTION_SENTINEL, isDirective, renderBlock, type BudgetRegime } from "./render.js";

export interface InjectResult {
  /** The block to insert, or "" when nothing fits or the regime is skip. */
  text: string;
  regime: BudgetRegime;
  /** Share of the model's context window still free, 0..1. */
  headroom: number;
  entries: Array<{ id: string; handle: string; tier: Tier }>;
}

export interface InjectOptions {
  actor?: string;
  /** The session the turn belongs to (an MCP session, an OpenCode session): recorded with `shown`, so an outcome of that session takes what it was shown. */
  sessionId?: string;
  /** Text already in the conversation; a block carrying the sentinel is never injected twice. */
  existingText?: string;
  /** Count the rendered entries as shown (default true). */
  recordShown?: boolean;
  /** Only entries that render as directives (for delegated agents: what to do, not background). */
  directivesOnly?: boolean;
}

export function modelLimit(s: Services, model?: string, reported?: number): number {
  return contextLimit(s.config, model, reported);
}

export async function injectForContext(s: Services, given: RetrievalContext, opts: InjectOptions = {}): Promise<InjectResult> {
  const limit = modelLimit(s, given.model, given.contextWindow);
  // Rounded so 20% headroom is 0.2, not 0.19999…, and lands in the regime the docs name.
  const headroom = Math.round(Math.max(0, 1 - (given.tokensUsed ?? 0) / limit) * 1e9) / 1e9;
  const k = s.config.knowledge;
  const budget = budgetFor(headroom, k.max_inject_count, k.inject_char_budget);
  const empty = { text: "", regime: budget.regime, headroom, entries: [] };
  if (!k.enabled || budget.regime === "skip" || opts.existingText?.includes(INJECTION_SENTINEL)) return empty;

  // The plan's phase and task, when the context names neither: relatedness is judged on them too.
  const ctx = withPlan(s, given);
  // Directives are a minority: rank a wider pool so the filter still fills the budget.
  // No guessed spellings: a context's word one edit from a lesson's ("bread", "break") is usually a word of its own,
  // and an injected lesson the agent did not ask for costs its budget. A lesson its verdicts call wrong is not handed out.
  const ranked = await recallForContext(s, ctx, {
    limit: opts.directivesOnly ? budget.maxEntries * 4 : budget.maxEntries, spelling: false, withoutDiscredited: true,
  });
  const stems = contentStems(ctx);
  const chosen = ranked
    .filter((r) => isRelated(r, stems))
    .map((r) => r.entry)
    .filter((e) => !opts.directivesOnly || isDirective(e));
  const block = renderBlock(chosen, budget, k.max_lesson_display_chars);
  if (!block.text) return empty;

  if (opts.recordShown !== false) {
    for (const tier of ["swarm", "hive"] as const) {
      const ids = block.entries.filter((e) => e.tier === tier).map((e) => e.id);
      if (ids.length) await storeFor(s, tier).recordUsage(ids, "shown", opts.actor ?? "cairn:inject", {
          agent: ctx.agent, project_id: s.project.id, ...(opts.sessionId ? { session: opts.sessionId.slice(0, 200) } : {}),
        });
    }
  }
  return {
    text: block.text,
    regime: budget.regime,
    headroom,
    entries: block.entries.map((e) => ({ id: e.id, handle: e.handle, tier: e.tier })),
  };
}
