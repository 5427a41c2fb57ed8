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

/** The context window `model_limits` gives a model id (its `default` for the rest) — the same rule injection uses. */
export function contextLimit(config: Pick<CairnConfig, "model_limits">, model?: string): number {
  const limits = config.model_limits;
  return (model && limits[model]) || limits.default || 128000;
}

export function contextBudget(config: Pick<CairnConfig, "model_limits" | "context_budget">, tokensUsed: number, model?: string): ContextBudget {
  const limit = contextLimit(config, model);
  const used = Math.max(0, tokensUsed) / limit;
  const b = config.context_budget;
  const level: BudgetLevel = !b.enabled ? "ok" : used >= b.critical_threshold ? "critical" : used >= b.warn_threshold ? "warn" : "ok";
  const pct = Math.round(used * 100);
  const text =
    level === "critical"
      ? `[CONTEXT CRITICAL: ~${pct}% of the context window used. Offload details to .swarm/context.md and .swarm/plan.md immediately; keep replies short.]`
      : level === "warn"
        ? `[CONTEXT WARNING: ~${pct}% of the context window used. Consider summarizing decisions and progress to .swarm/context.md.]`
        : "";
  return { level, used, limit, text };
}
