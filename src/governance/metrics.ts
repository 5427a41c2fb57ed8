// The Knowledge Objects document's success metrics, computed from counters and events (never by reading every entry).
import { originalsOfRetiredCopies } from "../lifecycle/retired-copies.js";
import { openTiers, type Services } from "../services.js";
import { promotedPairs } from "./promoted-pairs.js";
import { ADVISORY_STATUSES } from "./rules.js";

export interface GovernanceMetrics {
  lessons: number;
  resolved_tasks: number;
  /** Target 0.3–0.7: not every fix is insightful. */
  lessons_per_resolved_task: number | null;
  approvals: number;
  rejections: number;
  /** Target > 80 %. */
  approval_rate: number | null;
  drafts_pending: number;
  vetted_lessons: number;
  consultations: number;
  /** Target > 2. */
  mean_consultations_per_lesson: number | null;
  /** Target > 0. */
  prevented_total: number;
  /** Target < 5 minutes. */
  median_time_to_approve_ms: number | null;
}

export const METRIC_TARGETS = {
  lessons_per_resolved_task: "0.3–0.7",
  approval_rate: "> 80%",
  mean_consultations_per_lesson: "> 2",
  prevented_total: "> 0",
  median_time_to_approve_ms: "< 5 min",
} as const;

const EPOCH = "1970-01-01T00:00:00.000Z";
const MAX_EVENTS = 100_000;

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const v = [...xs].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/**
 * Project originals counted among the vetted lessons that are no lesson of their own: those whose vetted hive
 * copy stands for them — a promoted lesson is one lesson, consulted as its copy (as advisories and related
 * knowledge treat it), not a second, never-consulted one; every original promoted into it, the ones that
 * reinforced it too — and those whose hive lesson another project retired, which advise no more
 * (lifecycle/retired-copies.ts, the rule advisories keep). Subtracted from both tiers' vetted count (stats and
 * the dashboard).
 */
export async function vettedOriginalsWithCopies(s: Services): Promise<number> {
  const paired = await promotedPairs(s, { statuses: [...ADVISORY_STATUSES] });
  if (!s.hive) return paired.size;
  // The vetted originals that went up (their promoted_to column, not every promotion in the event log); those of a retired hive lesson are counted.
  const wentUp = await s.swarm.listPromotions({ statuses: ADVISORY_STATUSES });
  const unpaired = new Map(wentUp.filter((o) => !paired.has(o.id)).map((o) => [o.id, o.promoted_to] as const));
  return paired.size + (await originalsOfRetiredCopies(s, unpaired)).size;
}

/** Lessons per task count this project's tier only (outcomes are recorded per project); the rest spans both tiers. */
export async function governanceMetrics(s: Services): Promise<GovernanceMetrics> {
  const bySource = await s.swarm.usageBySource();
  const lessons = bySource.filter((b) => b.source !== "import").reduce((a, b) => a + b.entries, 0);
  const resolved = await s.swarm.countOutcomes({ success: true });
  let approvals = 0;
  let rejections = 0;
  let drafts = 0;
  let vetted = 0;
  let consultations = 0;
  let prevented = 0;
  const waits: number[] = [];
  for (const store of openTiers(s)) {
    const approved = await store.listEventsByType("approved", EPOCH, MAX_EVENTS);
    approvals += approved.length;
    for (const e of approved) if (typeof e.data.waited_ms === "number") waits.push(e.data.waited_ms);
    rejections += (await store.listEventsByType("archived", EPOCH, MAX_EVENTS)).filter((e) => e.data.review === "rejected").length;
    drafts += await store.countEntries({ statuses: ["draft"] });
    const v = await store.sumUsage({ statuses: ADVISORY_STATUSES });
    vetted += v.entries;
    consultations += v.consulted;
    prevented += (await store.sumUsage()).prevented;
  }
  vetted -= await vettedOriginalsWithCopies(s);
  return {
    lessons,
    resolved_tasks: resolved,
    lessons_per_resolved_task: ratio(lessons, resolved),
    approvals,
    rejections,
    approval_rate: ratio(approvals, approvals + rejections),
    drafts_pending: drafts,
    vetted_lessons: vetted,
    consultations,
    mean_consultations_per_lesson: ratio(consultations, vetted),
    prevented_total: prevented,
    median_time_to_approve_ms: median(waits),
  };
}
