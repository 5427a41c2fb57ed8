// Feedback on a lesson (applied, ignored, violated, helpful, harmful): decayed aggregation and escalation.
import { PRIORITIES, type Entry, type Priority, type Verdict } from "../core/entry.js";
import { VERDICTS } from "../core/enums.js";
import type { Services } from "../services.js";
import { CairnError } from "../errors.js";
import { assertFits, REASON_MAX } from "../core/free-text.js";
import { orQueue, teamHive } from "../hive/outbox.js";
import { hiveCopyOf, locate, type Located } from "./status.js";

export { VERDICTS, type Verdict } from "../core/enums.js";

const DAY_MS = 86_400_000;
/** Weight never falls below this, so one bad week cannot bury a lesson for good (Memory Lane floor). */
export const FEEDBACK_FLOOR = 0.1;
/** Every this many violations of a directive raise its priority one level. */
export const VIOLATIONS_PER_ESCALATION = 3;

/** An unreadable date (a row stored before dates were validated) counts as no date: no decay, never NaN. */
export function decayFactor(fromIso: string | undefined, now: Date, halfLifeDays: number): number {
  const from = fromIso ? Date.parse(fromIso) : NaN;
  if (!Number.isFinite(from)) return 1;
  const ageDays = Math.max(0, now.getTime() - from) / DAY_MS;
  const f = Math.pow(0.5, ageDays / halfLifeDays);
  return Number.isFinite(f) ? f : 1;
}

/**
 * Decayed sums are kept to a thousandth: a verdict a moment after another has decayed it by a few
 * parts in a billion, and people (cairn show, knowledge_feedback) read these sums as counts —
 * "helpful 1.9999999302930704" for two helpful verdicts. A thousandth is far below what moves a
 * ranking, and a whole day of decay (0.8 %) still shows.
 */
export const roundSum = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * The clock restarts at the last feedback or the last revalidation, whichever is later (and readable).
 * Verdicts with neither (a hand-made or older export, a row whose stamp was unreadable) count from the
 * lesson's creation, the earliest they can have been given: with no clock they never faded, and a few
 * harmful votes silenced a lesson for good.
 */
function clockStart(e: Entry): string | undefined {
  const readable = [e.usage.last_feedback_at, e.lifecycle.revalidated_at].filter((d): d is string => !!d && Number.isFinite(Date.parse(d)));
  const latest = readable.sort((x, y) => Date.parse(y) - Date.parse(x))[0];
  return latest ?? (e.usage.helpful || e.usage.harmful ? e.created_at : undefined);
}

/**
 * The feedback clocks (last verdict, last revalidation) pulled back to `at` where they are later:
 * a stamp in the future (a clock running ahead, an imported file) counted as no age at all until
 * that date came, so verdicts kept their whole weight for years. They count as made at `at`, the
 * first moment this store knows of them. Returns the entry itself (mutated) — callers copy first
 * when they must.
 */
export function feedbackClocksUpTo(e: Entry, at: Date): Entry {
  const limit = at.getTime();
  if (e.usage.last_feedback_at && Date.parse(e.usage.last_feedback_at) > limit) e.usage.last_feedback_at = at.toISOString();
  if (e.lifecycle.revalidated_at && Date.parse(e.lifecycle.revalidated_at) > limit) e.lifecycle.revalidated_at = at.toISOString();
  return e;
}

/** True when a feedback clock of `e` is later than `at` (feedbackClocksUpTo would change it). */
export function feedbackClockAhead(e: Entry, at: Date): boolean {
  const limit = at.getTime();
  return [e.usage.last_feedback_at, e.lifecycle.revalidated_at].some((d) => d !== undefined && Date.parse(d) > limit);
}

/**
 * Verdicts are weighed against this many neutral ones: with few (or faded) verdicts the weight stays
 * near neutral, so as old verdicts decay a lesson's standing drifts back toward 0.5 instead of
 * keeping the ratio of its verdicts forever.
 */
export const NEUTRAL_PRIOR_VOTES = 1;

/**
 * Helpful and harmful sums decayed to `now` (`0.5 ^ (age / half_life)`), and the ranking weight
 * `max(floor, (helpful + prior / 2) / (helpful + harmful + prior))`: 0.5 with no feedback, moving
 * toward the verdicts' ratio as they accumulate and back toward 0.5 as they fade.
 */
export function decayedFeedback(e: Entry, now: Date, halfLifeDays: number): { helpful: number; harmful: number; weight: number } {
  const f = decayFactor(clockStart(e), now, halfLifeDays);
  const helpful = e.usage.helpful * f;
  const harmful = e.usage.harmful * f;
  const weight = (helpful + NEUTRAL_PRIOR_VOTES / 2) / (helpful + harmful + NEUTRAL_PRIOR_VOTES);
  return { helpful, harmful, weight: Math.max(FEEDBACK_FLOOR, weight) };
}

/**
 * Decayed harmful verdicts at which a lesson they outweigh (SILENCING_RATIO to one helpful) is no
 * longer injected: about three recent ones (three verdicts stay above it for ~3 weeks at a 90-day
 * half-life, twenty for ~9 months). The 0.1 floor alone only multiplied its score by 0.6, so a lesson
 * every verdict called wrong was still handed to the agent whenever it was the best match.
 */
export const SILENCING_HARMFUL = 2.5;
export const SILENCING_RATIO = 3;

/**
 * Judged harmful, recently and far more than helpful: injection leaves it out (an explicit recall
 * still lists it, ranked low, for a person to review). As the verdicts fade it may be shown again.
 * Never a lesson a person approved.
 */
export function isDiscredited(e: Entry, now: Date, halfLifeDays: number): boolean {
  // A lesson a person approved is a person's decision: verdicts lower it, but only a person retires it
  // (agents that a rule stops are the ones that call it harmful).
  if (e.provenance.approved_at) return false;
  const d = decayedFeedback(e, now, halfLifeDays);
  return d.harmful >= SILENCING_HARMFUL && d.harmful >= SILENCING_RATIO * d.helpful;
}

/** Net feedback is negative: it blocks age-based promotion. */
export function hasNegativeFeedback(e: Entry, now: Date, halfLifeDays: number): boolean {
  const d = decayedFeedback(e, now, halfLifeDays);
  return d.harmful > d.helpful || e.usage.violated > e.usage.applied;
}

/**
 * How much of a task's verdict each lesson shown in it takes, from their feedback weights. A failed
 * task is laid on the lessons already known to precede failures (suspicion: 1 − weight), a successful
 * one credited to those known to precede successes (the weight), each relative to the likeliest, which
 * takes a whole verdict. Lessons with no record yet, or equal records, each take a whole verdict; a
 * lesson with a good record shown beside a known bad one takes a fraction of the blame for the failure
 * the bad one keeps causing (before, every lesson shown took the whole blame, and a good lesson shown
 * beside a bad one sank with it).
 */
export function verdictShares(weights: readonly number[], verdict: "helpful" | "harmful"): number[] {
  const fit = weights.map((w) => (verdict === "harmful" ? 1 - w : w));
  const top = Math.max(...fit);
  // Weights lie in [FEEDBACK_FLOOR, 1): both fits stay above 0, so `top` does too; the guard is for an empty or odd input.
  return fit.map((f) => (top > 0 ? f / top : 1));
}

/**
 * Decays the helpful and harmful sums to `at` and restarts the clock there (pure): what a revalidation
 * does, so neither a verdict's age nor its weight is lost or revived when the clock restarts.
 */
export function settleFeedback(e: Entry, at: Date, halfLifeDays: number): Entry {
  feedbackClocksUpTo(e, at);
  const f = decayFactor(clockStart(e), at, halfLifeDays);
  e.usage.helpful = roundSum(e.usage.helpful * f);
  e.usage.harmful = roundSum(e.usage.harmful * f);
  e.lifecycle.revalidated_at = at.toISOString();
  return e;
}

/**
 * Adds one verdict to an entry (pure). Helpful/harmful sums are decayed to `at` before adding. `now` is
 * the present, when the verdict was given earlier (an outbox replay): clocks are pulled back only from
 * past the present, never from between the verdict and now; a verdict older than the clock is added
 * decayed to it, and the clock keeps its later time.
 */
export function applyVerdict(e: Entry, verdict: Verdict, at: Date, halfLifeDays: number, weight = 1, now = at): Entry {
  if (verdict === "helpful" || verdict === "harmful") {
    feedbackClocksUpTo(e, now);
    const start = clockStart(e);
    if (start && Date.parse(start) > at.getTime()) {
      // Given before the sums' clock (a verdict replayed late from the outbox, after later ones): the clock
      // stays where the later verdicts set it, and this one joins the sums decayed from when it was given.
      const g = decayFactor(at.toISOString(), new Date(start), halfLifeDays) * weight;
      e.usage.helpful = roundSum(e.usage.helpful + (verdict === "helpful" ? g : 0));
      e.usage.harmful = roundSum(e.usage.harmful + (verdict === "harmful" ? g : 0));
      return e;
    }
    const f = decayFactor(start, at, halfLifeDays);
    e.usage.helpful = roundSum(e.usage.helpful * f + (verdict === "helpful" ? weight : 0));
    e.usage.harmful = roundSum(e.usage.harmful * f + (verdict === "harmful" ? weight : 0));
    e.usage.last_feedback_at = at.toISOString();
    return e;
  }
  e.usage[verdict] += 1;
  if (verdict === "violated" && e.usage.violated % VIOLATIONS_PER_ESCALATION === 0) {
    const next = PRIORITIES[Math.min(PRIORITIES.indexOf(e.directive.priority) + 1, PRIORITIES.length - 1)] as Priority;
    if (next !== e.directive.priority) {
      e.lifecycle.flags.push(`escalated:${e.directive.priority}->${next}@${at.toISOString()}`);
      e.directive.priority = next;
    }
  }
  return e;
}

/**
 * Feedback on a team-hive entry while the hive is unreachable is queued in the outbox and answered
 * with the entry as last seen, the verdict applied; it reaches the hive exactly once on replay.
 */
export async function recordFeedback(s: Services, ref: string, verdict: Verdict, actor: string, note?: string): Promise<Entry> {
  // The faces check this; a library caller (plain JS, a value read from a file) reached applyVerdict with
  // "HELPFUL" or "shown": answered as recorded, it counted a showing, or nothing, and left a feedback event.
  if (!(VERDICTS as readonly unknown[]).includes(verdict)) {
    throw new CairnError("INVALID_INPUT", `Unknown verdict ${JSON.stringify(String(verdict)).slice(0, 60)}: give applied, ignored, violated, helpful or harmful.`);
  }
  assertFits("note", note, REASON_MAX);
  const at = s.now();
  return orQueue(
    s,
    () => ({ op: "feedback", payload: { ref, verdict, actor, at: at.toISOString(), ...(note ? { note } : {}) } }),
    () => applyFeedbackNow(s, ref, verdict, actor, note),
    () => {
      const seen = teamHive(s)?.cache.entry(ref);
      if (!seen) throw new CairnError("UNAVAILABLE", `The team hive is unreachable; your "${verdict}" on ${ref} is saved in the outbox and applied when it is back.`);
      return applyVerdict(seen, verdict, at, s.config.knowledge.feedback_half_life_days);
    },
  );
}

/**
 * Where a verdict on `loc` lands: a project original promoted to the hive hands it to its hive copy,
 * which is what agents are shown and what ranks (a lesson held by both tiers takes one slot, the
 * copy's); on the original it moved nothing an agent sees. The original stays where the hive cannot
 * say (no copy any more, or unreachable), as before.
 */
export async function feedbackTarget(s: Services, loc: Located): Promise<Located> {
  if (loc.entry.tier !== "swarm" || loc.entry.lifecycle.status !== "promoted" || !s.hive) return loc;
  const copy = await hiveCopyOf(s, loc.entry);
  return copy ? { entry: copy, store: s.hive } : loc;
}

async function applyFeedbackNow(s: Services, ref: string, verdict: Verdict, actor: string, note?: string): Promise<Entry> {
  const loc = await feedbackTarget(s, await locate(s, ref));
  const before = loc.entry.directive.priority;
  const updated = await loc.store.updateEntry(
    loc.entry.id,
    (e) => applyVerdict(e, verdict, s.now(), s.config.knowledge.feedback_half_life_days),
    // project_id: which project applied it (the dashboard's map of who uses which hive lessons).
    { type: verdict === "applied" ? "applied" : "feedback", actor, data: { verdict, project_id: s.project.id, ...(note ? { note } : {}) } },
  );
  if (updated.directive.priority !== before) {
    await loc.store.appendEvent(updated.id, { type: "updated", actor: "cairn:escalation", data: { priority: { from: before, to: updated.directive.priority } } });
  }
  return updated;
}
