// A task outcome and its implicit score (Memory Lane weights: success 0.4, duration, errors, retries 0.2 each).
import { z } from "zod";
import { hasVisibleText, INVISIBLE_REMOVED } from "../quality/sanitize.js";

/** The longest task an outcome may report: a week, in milliseconds. */
export const OUTCOME_MAX_DURATION_MS = 7 * 86_400_000;
/** The most errors or retries an outcome may report. */
export const OUTCOME_MAX_COUNT = 100_000;
/** The most paths an outcome may name as touched, and the longest path. */
export const OUTCOME_MAX_FILES = 500;
export const OUTCOME_MAX_PATH_CHARS = 400;

const OUTCOME_ID = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,119}$/, "ids hold letters, digits and - _ . : only");

export const OutcomeSchema = z.object({
  /** Idempotency key: recording the same outcome twice enqueues it once. */
  id: OUTCOME_ID.optional(),
  /**
   * The task it is an outcome of, when a host knows (the OpenCode plugin: a plan task). Outcomes of one task —
   * the plugin's automatic one and the agent's own report — lay one verdict on each lesson shown: the first processed.
   */
  task_id: OUTCOME_ID.optional(),
  // Worded here, so a blank task is told as that, not as "too short (at least 1 characters)".
  task: z.string().trim().min(1, "is blank: say in one line what the task was").max(500).refine(hasVisibleText, `is empty ${INVISIBLE_REMOVED}: say in one line what the task was`),
  success: z.boolean(),
  duration_ms: z.number().min(0).max(OUTCOME_MAX_DURATION_MS).optional(),
  error_count: z.number().int().min(0).max(OUTCOME_MAX_COUNT).default(0),
  retry_count: z.number().int().min(0).max(OUTCOME_MAX_COUNT).default(0),
  files_touched: z
    .array(
      z
        .string()
        .trim()
        .min(1, "is blank: give the path relative to the project")
        .max(OUTCOME_MAX_PATH_CHARS)
        .refine(hasVisibleText, `is empty ${INVISIBLE_REMOVED}: give the path relative to the project`),
    )
    .max(OUTCOME_MAX_FILES)
    .default([]),
  summary: z.string().max(4000).optional(),
  evaluation: z.string().max(4000).optional(),
  /** Entries shown to the agent during the task; defaults to those shown, or consulted by an advisory check, during its duration. */
  shown_entry_ids: z.array(z.string().max(200)).max(200).optional(),
  phase: z.string().max(120).optional(),
  agent: z.string().max(120).optional(),
  /** Who reported it (agent:…, mcp:<client>): without shown ids it takes only what that actor was shown. */
  reported_by: z.string().max(120).optional(),
  /** The session the task ran in (an MCP or OpenCode session): without shown ids it takes what that session was shown. */
  session_id: z.string().max(200).optional(),
});
export type Outcome = z.output<typeof OutcomeSchema>;
export type OutcomeInput = z.input<typeof OutcomeSchema>;

export type ImplicitVerdict = "helpful" | "neutral" | "harmful";

export interface ImplicitScore {
  score: number;
  verdict: ImplicitVerdict;
  signals: { success: number; duration: number; errors: number; retries: number };
}

const MIN = 60_000;

/** Under 5 min fast, 5–30 min medium, over 30 min slow; unknown duration counts as medium. */
function durationSignal(ms: number | undefined): number {
  if (ms === undefined) return 0.6;
  if (ms < 5 * MIN) return 1;
  if (ms <= 30 * MIN) return 0.6;
  return 0.2;
}

export function implicitScore(o: Pick<Outcome, "success" | "duration_ms" | "error_count" | "retry_count">): ImplicitScore {
  const signals = {
    success: o.success ? 1 : 0,
    duration: durationSignal(o.duration_ms),
    errors: o.error_count === 0 ? 1 : o.error_count <= 2 ? 0.6 : 0.2,
    retries: o.retry_count === 0 ? 1 : o.retry_count === 1 ? 0.7 : 0.3,
  };
  const score = signals.success * 0.4 + signals.duration * 0.2 + signals.errors * 0.2 + signals.retries * 0.2;
  const rounded = Math.round(score * 1000) / 1000;
  const verdict: ImplicitVerdict = rounded >= 0.7 ? "helpful" : rounded <= 0.4 ? "harmful" : "neutral";
  return { score: rounded, verdict, signals };
}
