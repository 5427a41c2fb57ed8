// Scoring of candidates: normalised relevance blended with priors and context boosts, plus MMR diversity.
import picomatch from "picomatch";
import { KIND_WEIGHTS, type Entry } from "../core/entry.js";
import { similarity } from "../quality/similarity.js";
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

const DAY_MS = 86_400_000;

/** Net feedback in [0,1] (0.5 neutral), faded by `0.5 ^ (age_days / half_life)` since the last verdict. */
export function feedbackScore(e: Entry, now: Date, halfLifeDays: number): number {
  const { helpful, harmful, last_feedback_at } = e.usage;
  if (helpful + harmful === 0) return 0.5;
  const age = last_feedback_at ? Math.max(0, now.getTime() - Date.parse(last_feedback_at)) / DAY_MS : 0;
  const decay = Math.pow(0.5, age / halfLifeDays);
  const net = (helpful - harmful) / (helpful + harmful);
  return 0.5 + 0.5 * net * decay;
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
      feedback: W.feedback.value * feedbackScore(e, now, halfLifeDays),
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
  const pool = [...scored].sort((a, b) => b.score - a.score).slice(0, Math.max(k * 4, 20));
  const picked: ScoredEntry[] = [];
  while (picked.length < k && pool.length) {
    let bestIdx = 0;
    let bestVal = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      const cand = pool[i]!;
      const maxSim = picked.reduce((m, p) => Math.max(m, similarity(cand.entry.lesson, p.entry.lesson)), 0);
      const val = lambda * cand.score - (1 - lambda) * maxSim;
      if (val > bestVal) {
        bestVal = val;
        bestIdx = i;
      }
    }
    picked.push(pool.splice(bestIdx, 1)[0]!);
  }
  return picked;
}
