// Context-budget warnings (seed 002 §2.1): how full the model's window is, and the line an orchestrator reads past a threshold.
import type { CairnConfig } from "../config.js";

export type BudgetLevel = "ok" | "warn" | "critical";

export interface ContextBudget {
  level: BudgetLevel;
  /** Share of the window in use, 0..1 (may pass 1 when the estimate overshoots). */
  used: number;
  limit: number;
  /** The line for the system prompt, "" at level ok or when switched off. */
  text: string;
}

/**
 * A model's context window — the same rule injection uses: what `model_limits` gives its id, else what
 * its host reports (`reported`: OpenCode's model.limit.context), else `model_limits.default`.
 */
export function contextLimit(config: Pick<CairnConfig, "model_limits">, model?: string, reported?: number): number {
  const limits = config.model_limits;
  const known = reported !== undefined && Number.isFinite(reported) && reported > 0 ? reported : undefined;
  return (model && limits[model]) || known || limits.default || 128000;
}

export function contextBudget(config: Pick<CairnConfig, "model_limits" | "context_budget">, tokensUsed: number, model?: string, reported?: number): ContextBudget {
  const limit = contextLimit(config, model, reported);
  const used = Math.max(0, tokensUsed) / limit;
  const b = config.context_budget;
  const level: BudgetLevel = !b.enabled ? "ok" : used > b.critical_threshold ? "critical" : used > b.warn_threshold ? "warn" : "ok";
  const pct = Math.round(used * 100);
  const text =
    level === "critical"
      ? `[CONTEXT CRITICAL: ~${pct}% of the context window used. Offload details to .swarm/context.md and .swarm/plan.md immediately; keep replies short.]`
      : level === "warn"
        ? `[CONTEXT WARNING: ~${pct}% of the context window used. Consider summarizing decisions and progress to .swarm/context.md.]`
        : "";
  return { level, used, limit, text };
}
