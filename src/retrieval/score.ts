// Scoring of candidates: normalised relevance blended with priors and context boosts, plus MMR diversity.
import { KIND_WEIGHTS, type Entry } from "../core/entry.js";
import type { GlobMatcherFactory } from "../core/globs.js";
import { profileLesson, similarity, type LessonProfile } from "../quality/similarity.js";
import { decayedFeedback } from "../lifecycle/feedback.js";
import { encounterScore, type EncounterWeights } from "../lifecycle/confirm.js";
import { phaseTitle, weightedContextTerms, type RetrievalContext } from "./context.js";
import { FOCUS_TEXT_CHARS, focusScores } from "./focus.js";
import {
  ENCOUNTER_HALF, feedbackFactor,
  FOCUS_POOL, INTENT_BOOSTS, semanticStrength, MMR_LAMBDA, NEAR_DUPLICATE_SIMILARITY, PHASE_CATEGORY_HINTS, SCORE_WEIGHTS, specificity, STATUS_PRIOR, type ScoreComponent,
} from "./weights.js";

export interface ScoredEntry {
  entry: Entry;
  score: number;
  /** Contribution of each component to `score`; intent and feedback are the deltas their factors made. */
  breakdown: Partial<Record<ScoreComponent | "intent", number>>;
  /** The cosine behind `breakdown.semantic`, when the vector search found the lesson. */
  similarity?: number;
}

export interface ScoreInput {
  entry: Entry;
  relevance: number;
  /** Cosine similarity of the lesson's vector to the context's (on the built-in model's scale: embed/calibration.ts), when vectors were searched. */
  similarity?: number;
  /** `similarity` is only an upper bound (the text index found it; the vector top-k did not). */
  bound?: boolean;
}

/** `matcher`: core/globs.ts's anyGlobMatcher, loaded by the caller only when the context names files (it loads RE2). */
export function filesMatch(e: Entry, files: readonly string[], matcher: GlobMatcherFactory | undefined): boolean {
  const globs = e.applicability.file_globs;
  if (globs.length === 0 || files.length === 0 || !matcher) return false;
  const matches = matcher(globs, { nocase: true });
  return files.some((f) => matches(f.replace(/\\/g, "/")));
}

// A trigger counts only as a whole word or phrase: "alg" must not fire on "algorithm".
function triggerFound(trigger: string, text: string): boolean {
  const t = trigger.toLowerCase().trim();
  if (!t) return false;
  let at = text.indexOf(t);
  while (at >= 0) {
    const before = at === 0 ? "" : text[at - 1]!;
    const after = text[at + t.length] ?? "";
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    at = text.indexOf(t, at + 1);
  }
  return false;
}

type StackFit = "match" | "other" | "none";

function stackFit(e: Entry, stack: ReadonlySet<string>): StackFit {
  if (stack.size === 0) return "none";
  if ([...e.applicability.tech_stack, ...e.tags].some((t) => stack.has(t.toLowerCase()))) return "match";
  return e.applicability.tech_stack.length > 0 ? "other" : "none";
}

export function scoreCandidates(
  hits: readonly ScoreInput[],
  ctx: RetrievalContext,
  text: string,
  now: Date,
  halfLifeDays: number,
  encounterWeights: EncounterWeights = { same: 1, cross: 0.5 },
  opts: { lexical?: boolean; globs?: GlobMatcherFactory } = {},
): ScoredEntry[] {
  const lexical = opts.lexical ?? true;
  const maxRel = Math.max(1e-9, ...hits.map((h) => h.relevance));
  const phaseText = `${phaseTitle(ctx.phase)} ${ctx.task ?? ""}`;
  const phaseCats = new Set(PHASE_CATEGORY_HINTS.filter((h) => h.pattern.test(phaseText)).flatMap((h) => h.categories));
  // What the agent says it is doing, not what its files, agent or tools are called ("src/errors/", "bug-fixer").
  const said = [ctx.phase, ctx.task, ctx.lastMessage].filter(Boolean).join("\n");
  const intents = INTENT_BOOSTS.filter((b) => b.pattern.test(said));
  const stack = new Set((ctx.techStack ?? []).map((s) => s.toLowerCase()));
  const files = ctx.files ?? [];
  const W = SCORE_WEIGHTS;

  // Context signals first, so each can be scaled by how many candidates share it.
  const signals = hits.map(({ entry: e }) => ({
    files: filesMatch(e, files, opts.globs),
    triggers: e.applicability.triggers.some((t) => triggerFound(t, text)),
    stack: stackFit(e, stack),
    phase: phaseCats.has(e.category),
  }));
  const count = (f: (s: (typeof signals)[number]) => boolean) => signals.reduce((n, s) => n + (f(s) ? 1 : 0), 0);
  const spec = {
    files: specificity(count((s) => s.files)),
    triggers: specificity(count((s) => s.triggers)),
    stack: specificity(count((s) => s.stack === "match")),
    phase: specificity(count((s) => s.phase)),
  };

  const byRelevance = hits.map((h, i) => ({ h, i })).sort((a, b) => b.h.relevance - a.h.relevance);
  const pool = byRelevance.filter(({ i }, rank) => rank < FOCUS_POOL || signals[i]!.files || signals[i]!.triggers).map(({ h }) => h.entry);
  // Semantic-only recall judges by meaning alone: the word overlap of `focus` is a text signal.
  const focus = lexical ? focusScores(pool, weightedContextTerms(ctx)) : new Map<Entry, number>();

  return hits.map(({ entry: e, relevance, similarity, bound }, i) => {
    const sig = signals[i]!;
    const b: ScoredEntry["breakdown"] = {
      relevance: W.relevance.value * (relevance / maxRel),
      focus: W.focus.value * (focus.get(e) ?? 0),
      semantic: similarity === undefined ? 0 : W.semantic.value * semanticStrength(similarity),
      kind: W.kind.value * KIND_WEIGHTS[e.kind],
      confidence: W.confidence.value * e.lifecycle.confidence,
      status: W.status.value * (STATUS_PRIOR[e.lifecycle.status] ?? 0),
      files: sig.files ? W.files.value * spec.files : 0,
      stack: sig.stack === "match" ? W.stack.value * spec.stack : sig.stack === "other" ? -W.stack.value : 0,
      triggers: sig.triggers ? W.triggers.value * spec.triggers : 0,
      phase: sig.phase ? W.phase.value * spec.phase : 0,
      tier: W.tier.value * (e.tier === "swarm" ? 1 : 0),
      encounter: W.encounter.value * saturate(encounterScore(e, encounterWeights)),
    };
    // A component that is not a finite number (a legacy row's odd value) counts as nothing, so a score is always finite.
    // Summed in the components' order, in place: Object.entries/values made a dozen arrays per candidate per turn.
    let score = 0;
    for (const name in b) {
      const key = name as keyof typeof b;
      const v = b[key];
      if (Number.isFinite(v)) score += v!;
      else b[key] = 0;
    }
    const boost = intents.find((it) => it.kinds.includes(e.kind));
    if (boost) {
      b.intent = score * (boost.factor - 1);
      score *= boost.factor;
    }
    // Feedback multiplies (Memory Lane): added on top it could never move a lesson past its rivals.
    const raw = feedbackFactor(decayedFeedback(e, now, halfLifeDays).weight);
    const factor = Number.isFinite(raw) ? raw : 1;
    if (factor !== 1) {
      b.feedback = score * (factor - 1);
      score *= factor;
    }
    return { entry: e, score, breakdown: b, ...(similarity !== undefined && !bound ? { similarity } : {}) };
  });
}

/** 0 for nothing, half at ENCOUNTER_HALF, toward 1 for lessons met everywhere. */
function saturate(x: number): number {
  return x > 0 ? x / (x + ENCOUNTER_HALF) : 0;
}

/**
 * Maximal marginal relevance: picks `k` entries trading score (scaled to the best candidate, so
 * lambda means the same for every query) against similarity to those already picked. A
 * near-duplicate of a pick (similarity at or above `duplicate`) waits until nothing else is
 * left: a restatement adds nothing the agent has not just read.
 */
/** How many of the best candidates the diversity pass chooses from. */
export function diversityPool(k: number): number {
  return Math.max(k * 3, 15);
}

/**
 * Each lesson is profiled once per recall, on its opening (where a restatement shows; long memories
 * would cost far more to profile whole); the cross-tier merge and the diversity pass share the profiles.
 */
export function lessonProfiles(): (e: Entry) => LessonProfile {
  const byId = new Map<string, LessonProfile>();
  return (e) => {
    let p = byId.get(e.id);
    if (!p) byId.set(e.id, (p = profileLesson(e.lesson.slice(0, FOCUS_TEXT_CHARS))));
    return p;
  };
}

export function diversify(
  scored: readonly ScoredEntry[], k: number, lambda = MMR_LAMBDA, duplicate = NEAR_DUPLICATE_SIMILARITY, profileOf = lessonProfiles(),
): ScoredEntry[] {
  const pool = [...scored].sort((a, b) => b.score - a.score).slice(0, diversityPool(k));
  const top = Math.max(1e-9, pool[0]?.score ?? 0);
  const profiles = new Map(pool.map((p) => [p, profileOf(p.entry)] as const));
  const maxSim = new Map<ScoredEntry, number>(pool.map((p) => [p, 0]));
  const picked: ScoredEntry[] = [];
  while (picked.length < k && pool.length) {
    const fresh = pool.some((c) => maxSim.get(c)! < duplicate);
    let bestIdx = 0;
    let bestVal = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      const cand = pool[i]!;
      const sim = maxSim.get(cand)!;
      if (fresh && sim >= duplicate) continue;
      const val = lambda * (cand.score / top) - (1 - lambda) * sim;
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
