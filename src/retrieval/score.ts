// Scoring of candidates: normalised relevance blended with priors and context boosts, plus MMR diversity.
import picomatch from "picomatch";
import { KIND_WEIGHTS, type Entry } from "../core/entry.js";
import { profileLesson, similarity } from "../quality/similarity.js";
import { decayedFeedback } from "../lifecycle/feedback.js";
import type { RetrievalContext } from "./context.js";
import { INTENT_BOOSTS, MMR_LAMBDA, PHASE_CATEGORY_HINTS, SCORE_WEIGHTS, STATUS_PRIOR, type ScoreComponent } from "./weights.js";

export interface ScoredEntry {
  entry: Entry;
  score: number;
  /** Weighted contribution of each component (sums to `score` before the intent factor). */
  breakdown: Partial<Record<ScoreComponent | "intent", number>>;
}

export interface ScoreInput {
  entry: Entry;
  relevance: number;
}

const globCache = new Map<string, (p: string) => boolean>();
function globMatcher(glob: string): (p: string) => boolean {
  let m = globCache.get(glob);
  if (!m) {
    m = picomatch(glob, { dot: true, nocase: true, matchBase: !glob.includes("/") });
    if (globCache.size > 2000) globCache.clear();
    globCache.set(glob, m);
  }
  return m;
}

export function filesMatch(e: Entry, files: readonly string[]): boolean {
  const globs = e.applicability.file_globs;
  if (globs.length === 0 || files.length === 0) return false;
  return globs.some((g) => files.some((f) => globMatcher(g)(f.replace(/\\/g, "/"))));
}

/** True when the entry declares agents/tools and the context's agent/tool is not among them. */
export function excludedByApplicability(e: Entry, ctx: RetrievalContext): boolean {
  const { agents, tools } = e.applicability;
  if (ctx.agent && agents.length && !agents.some((a) => a.toLowerCase() === ctx.agent!.toLowerCase())) return true;
  if (ctx.tool && tools.length && !tools.some((t) => t.toLowerCase() === ctx.tool!.toLowerCase())) return true;
  return false;
}

export function scoreCandidates(
  hits: readonly ScoreInput[],
  ctx: RetrievalContext,
  text: string,
  now: Date,
  halfLifeDays: number,
): ScoredEntry[] {
  const maxRel = Math.max(1e-9, ...hits.map((h) => h.relevance));
  const phaseText = `${ctx.phase ?? ""} ${ctx.task ?? ""}`;
  const phaseCats = new Set(PHASE_CATEGORY_HINTS.filter((h) => h.pattern.test(phaseText)).flatMap((h) => h.categories));
  const intents = INTENT_BOOSTS.filter((b) => b.pattern.test(text));
  const stack = new Set((ctx.techStack ?? []).map((s) => s.toLowerCase()));
  const W = SCORE_WEIGHTS;

  return hits.map(({ entry: e, relevance }) => {
    const b: ScoredEntry["breakdown"] = {
      relevance: W.relevance.value * (relevance / maxRel),
      kind: W.kind.value * KIND_WEIGHTS[e.kind],
      confidence: W.confidence.value * e.lifecycle.confidence,
      status: W.status.value * (STATUS_PRIOR[e.lifecycle.status] ?? 0),
      feedback: W.feedback.value * decayedFeedback(e, now, halfLifeDays).weight,
      files: W.files.value * (filesMatch(e, ctx.files ?? []) ? 1 : 0),
      stack:
        W.stack.value *
        (stack.size && [...e.applicability.tech_stack, ...e.tags].some((t) => stack.has(t.toLowerCase())) ? 1 : 0),
      triggers: W.triggers.value * (e.applicability.triggers.some((t) => text.includes(t.toLowerCase())) ? 1 : 0),
      phase: W.phase.value * (phaseCats.has(e.category) ? 1 : 0),
      tier: W.tier.value * (e.tier === "swarm" ? 1 : 0),
    };
    let score = Object.values(b).reduce((a, v) => a + (v ?? 0), 0);
    const boost = intents.find((i) => i.kinds.includes(e.kind));
    if (boost) {
      b.intent = score * (boost.factor - 1);
      score *= boost.factor;
    }
    return { entry: e, score, breakdown: b };
  });
}

/** Maximal marginal relevance: picks `k` entries trading score against similarity to those already picked. */
export function diversify(scored: readonly ScoredEntry[], k: number, lambda = MMR_LAMBDA): ScoredEntry[] {
  const pool = [...scored].sort((a, b) => b.score - a.score).slice(0, Math.max(k * 3, 15));
  // Each lesson is profiled once; comparisons then reuse the profiles.
  const profiles = new Map(pool.map((p) => [p, profileLesson(p.entry.lesson)] as const));
  const maxSim = new Map<ScoredEntry, number>(pool.map((p) => [p, 0]));
  const picked: ScoredEntry[] = [];
  while (picked.length < k && pool.length) {
    let bestIdx = 0;
    let bestVal = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      const cand = pool[i]!;
      const val = lambda * cand.score - (1 - lambda) * maxSim.get(cand)!;
      if (val > bestVal) {
        bestVal = val;
        bestIdx = i;
      }
    }
    const chosen = pool.splice(bestIdx, 1)[0]!;
    picked.push(chosen);
    const chosenProfile = profiles.get(chosen)!;
    // Only the newest pick can raise a candidate's max similarity: O(k·pool) comparisons in all.
    for (const cand of pool) maxSim.set(cand, Math.max(maxSim.get(cand)!, similarity(profiles.get(cand)!, chosenProfile)));
  }
  return picked;
}
