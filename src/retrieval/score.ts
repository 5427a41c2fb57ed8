// Scoring of candidates: normalised relevance blended with priors and context boosts, plus MMR diversity.
import picomatch from "picomatch";
import { KIND_WEIGHTS, type Entry } from "../core/entry.js";
import { profileLesson, similarity } from "../quality/similarity.js";
import { decayedFeedback } from "../lifecycle/feedback.js";
import { stemmer } from "stemmer";
import { phaseTitle, weightedContextTerms, type RetrievalContext, type WeightedTerm } from "./context.js";
import {
  feedbackFactor,
  FOCUS_POOL, INTENT_BOOSTS, MMR_LAMBDA, NEAR_DUPLICATE_SIMILARITY, PHASE_CATEGORY_HINTS, SCORE_WEIGHTS, specificity, STATUS_PRIOR, type ScoreComponent,
} from "./weights.js";

export interface ScoredEntry {
  entry: Entry;
  score: number;
  /** Contribution of each component to `score`; intent and feedback are the deltas their factors made. */
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

/** The text `focus` reads: what a lesson says and what it applies to, capped so long memories cost no more than short ones. */
function focusText(e: Entry): string {
  const a = e.applicability;
  return [e.title ?? "", e.lesson.slice(0, FOCUS_TEXT_CHARS), e.tags.join(" "), a.triggers.join(" "), a.tech_stack.join(" "), a.file_globs.join(" ")]
    .join(" ")
    .toLowerCase();
}

const FOCUS_TEXT_CHARS = 600;

/** A term's stem: "cookies" → "cooki" finds "cookie"; short and non-alphabetic terms stay whole. */
function stemOf(term: string): string {
  return /^[a-z]+$/.test(term) && term.length > 3 ? stemmer(term) : term;
}

const WORD_SPLIT_RE = /[^\p{L}\p{N}]+/u;
// A word matches a stem it starts with, plus at most this many letters of suffix ("hang" → "hanging").
const MAX_SUFFIX = 4;

/** The text's words grouped by their first three letters, so each term looks at a handful of words. */
function wordIndex(text: string): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const w of text.split(WORD_SPLIT_RE)) {
    if (!w) continue;
    const key = w.slice(0, 3);
    const list = index.get(key);
    if (!list) index.set(key, [w]);
    else if (!list.includes(w)) list.push(w);
  }
  return index;
}

function holds(index: Map<string, string[]>, stem: string): boolean {
  const words = index.get(stem.slice(0, 3));
  if (!words) return false;
  if (stem.length < 3) return words.includes(stem);
  // Porter turns a final y into i ("retry" → "retri"), which no unstemmed word starts with.
  const alt = stem.endsWith("i") ? `${stem.slice(0, -1)}y` : undefined;
  return words.some((w) => (w.startsWith(stem) || (alt !== undefined && w.startsWith(alt))) && w.length - stem.length <= MAX_SUFFIX);
}

/**
 * For each entry in the pool, the weighted share of context terms it contains. A term's worth
 * is its field weight times its rarity within the pool, so a word every candidate shares
 * counts little and a task word counts more than a word of chatter.
 */
function focusScores(pool: readonly Entry[], terms: readonly WeightedTerm[]): Map<Entry, number> {
  const out = new Map<Entry, number>();
  if (pool.length === 0 || terms.length === 0) return out;
  const stems = terms.map((t) => stemOf(t.term));
  const hits = pool.map((e) => {
    const index = wordIndex(focusText(e));
    return stems.map((st) => holds(index, st));
  });
  const worth = terms.map((t, j) => {
    const df = hits.reduce((n, row) => n + (row[j] ? 1 : 0), 0);
    return df === 0 ? 0 : t.weight * Math.log(1 + pool.length / df);
  });
  const total = worth.reduce((a, w) => a + w, 0);
  pool.forEach((e, i) => out.set(e, total === 0 ? 0 : hits[i]!.reduce((a, hit, j) => a + (hit ? worth[j]! : 0), 0) / total));
  return out;
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
): ScoredEntry[] {
  const maxRel = Math.max(1e-9, ...hits.map((h) => h.relevance));
  const phaseText = `${phaseTitle(ctx.phase)} ${ctx.task ?? ""}`;
  const phaseCats = new Set(PHASE_CATEGORY_HINTS.filter((h) => h.pattern.test(phaseText)).flatMap((h) => h.categories));
  const intents = INTENT_BOOSTS.filter((b) => b.pattern.test(text));
  const stack = new Set((ctx.techStack ?? []).map((s) => s.toLowerCase()));
  const files = ctx.files ?? [];
  const W = SCORE_WEIGHTS;

  // Context signals first, so each can be scaled by how many candidates share it.
  const signals = hits.map(({ entry: e }) => ({
    files: filesMatch(e, files),
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
  const focus = focusScores(pool, weightedContextTerms(ctx));

  return hits.map(({ entry: e, relevance }, i) => {
    const sig = signals[i]!;
    const b: ScoredEntry["breakdown"] = {
      relevance: W.relevance.value * (relevance / maxRel),
      focus: W.focus.value * (focus.get(e) ?? 0),
      kind: W.kind.value * KIND_WEIGHTS[e.kind],
      confidence: W.confidence.value * e.lifecycle.confidence,
      status: W.status.value * (STATUS_PRIOR[e.lifecycle.status] ?? 0),
      files: sig.files ? W.files.value * spec.files : 0,
      stack: sig.stack === "match" ? W.stack.value * spec.stack : sig.stack === "other" ? -W.stack.value : 0,
      triggers: sig.triggers ? W.triggers.value * spec.triggers : 0,
      phase: sig.phase ? W.phase.value * spec.phase : 0,
      tier: W.tier.value * (e.tier === "swarm" ? 1 : 0),
    };
    let score = Object.values(b).reduce((a, v) => a + (v ?? 0), 0);
    const boost = intents.find((it) => it.kinds.includes(e.kind));
    if (boost) {
      b.intent = score * (boost.factor - 1);
      score *= boost.factor;
    }
    // Feedback multiplies (Memory Lane): added on top it could never move a lesson past its rivals.
    const factor = feedbackFactor(decayedFeedback(e, now, halfLifeDays).weight);
    if (factor !== 1) {
      b.feedback = score * (factor - 1);
      score *= factor;
    }
    return { entry: e, score, breakdown: b };
  });
}

/**
 * Maximal marginal relevance: picks `k` entries trading score (scaled to the best candidate, so
 * lambda means the same for every query) against similarity to those already picked. A
 * near-duplicate of a pick (similarity at or above `duplicate`) waits until nothing else is
 * left: a restatement adds nothing the agent has not just read.
 */
export function diversify(scored: readonly ScoredEntry[], k: number, lambda = MMR_LAMBDA, duplicate = NEAR_DUPLICATE_SIMILARITY): ScoredEntry[] {
  const pool = [...scored].sort((a, b) => b.score - a.score).slice(0, Math.max(k * 3, 15));
  const top = Math.max(1e-9, pool[0]?.score ?? 0);
  // Each lesson is profiled once; comparisons then reuse the profiles.
  const profiles = new Map(pool.map((p) => [p, profileLesson(p.entry.lesson)] as const));
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
