// Recall: candidates from each tier's index (filtered in SQL), scored, diversified. Never reads every entry.
import { isDiscredited } from "../lifecycle/feedback.js";
import { isOriginFlagOf } from "../lifecycle/origin-superseded.js";
import { originalsOfRetiredCopies } from "../lifecycle/retired-copies.js";
import { LIVE_STATUSES, type Category, type Entry, type Status, type Tier } from "../core/entry.js";
import { spareDamagedTiers, tiersAsked, type Services } from "../services.js";
import type { EntryFilter, SearchHit, Store } from "../store/store.js";
import { buildContextQuery, contextText, type RetrievalContext } from "./context.js";
import { readPlanContext } from "./plan.js";
import { MMR_LAMBDA } from "./weights.js";
import { diversify, diversityPool, lessonProfiles, scoreCandidates, type ScoredEntry } from "./score.js";
import { mergeAcrossTiers } from "./merge.js";
import { blendCandidates, queryVector, vectorCandidates, type TierVectorHits } from "./semantic.js";
import { poolSmallTiers } from "./small-tier.js";
import { spellingCorrections } from "./spelling.js";
import { pairsSideBySide } from "./query-variants.js";
import { wordJoins } from "./word-joins.js";
import { lazyModule } from "../core/lazy.js";

/** File globs are matched by RE2 (a large module): loaded at the first context that names files, never by a bare query. */
const globsModule = lazyModule(() => import("../core/globs.js"));

export interface RecallOptions {
  tier?: Tier | "all";
  statuses?: readonly Status[];
  category?: Category;
  /** Scopes to include; defaults to config `knowledge.scope_filter` plus `stack:<x>` of the context's stack. */
  scopes?: readonly string[];
  limit?: number;
  /** Candidates fetched per tier before scoring. */
  candidates?: number;
  /** Skip MMR (the raw ranking), e.g. for `--explain` comparisons. */
  diverse?: boolean;
  /** Candidates by words, by meaning (vectors), or both; default config `embedding.retrieval`. */
  retrieval?: RetrievalMode;
  /** When the words find too little, search again with a rare word's slip mended (spelling.ts) and compounds written the other way (word-joins.ts); default true, injection passes false. */
  spelling?: boolean;
  /** Leave out lessons their verdicts discredit (lifecycle/feedback.ts isDiscredited); injection passes true. */
  withoutDiscredited?: boolean;
}

export type RetrievalMode = "lexical" | "semantic" | "hybrid";

export const DEFAULT_CANDIDATES = 40;

function scopesFor(s: Services, ctx: RetrievalContext, explicit?: readonly string[]): readonly string[] {
  if (explicit) return explicit;
  const stacks = (ctx.techStack ?? []).map((t) => `stack:${t.toLowerCase()}`);
  return [...new Set([...s.config.knowledge.scope_filter, ...stacks])];
}

/** A context that names no phase and no task takes both from the project's plan, when it has one. */
export function withPlan(s: Services, ctx: RetrievalContext): RetrievalContext {
  if (ctx.phase || ctx.task) return ctx;
  const plan = readPlanContext(s.project.dir, s.config.swarm_dir);
  if (!plan) return ctx;
  return { ...ctx, ...(plan.phase ? { phase: plan.phase } : {}), ...(plan.task ? { task: plan.task } : {}) };
}

/**
 * Each tier's search, a networked tier's (the team hive's) started first: its statement is then on the
 * wire before a local search (SQLite answers synchronously) takes the thread, so the two overlap instead
 * of adding up. Local tiers alone never yield the thread within a turn (regression 10.5).
 */
async function searchTiers<T>(stores: readonly Store[], search: (st: Store) => Promise<T>): Promise<T[]> {
  const remote = stores.find((st) => st.networked);
  if (!remote || stores.length < 2) return Promise.all(stores.map(search));
  const early = search(remote);
  early.catch(() => {});
  // One turn of the event loop: the request is written before the local search runs.
  await new Promise<void>((resolve) => setImmediate(resolve));
  return Promise.all(stores.map((st) => (st === remote ? early : search(st))));
}

/**
 * A promoted original still ranked on its own (its hive copy did not absorb it in the merge) whose hive
 * copy was quarantined, superseded or archived from another project is left out (lifecycle/retired-copies.ts,
 * the rule advisories and related knowledge keep too; a superseded one gives way to its replacement in the
 * hive). The hive is asked only when such an original is in the pool; if it cannot answer, nothing is hidden.
 */
async function withoutRetiredOriginals(s: Services, scored: ScoredEntry[], pool: number): Promise<ScoredEntry[]> {
  if (!s.hive) return scored;
  const asked = new Set<string>();
  // What is left out lets the next results into the pool: those are asked about too, until none is left out.
  for (let kept = scored; ; ) {
    const alone = kept.slice(0, pool).filter((r) => r.entry.tier === "swarm" && r.entry.lifecycle.status === "promoted" && !asked.has(r.entry.id));
    if (!alone.length) return kept;
    for (const r of alone) asked.add(r.entry.id);
    const hidden = await originalsOfRetiredCopies(s, new Map(alone.map((r) => [r.entry.id, r.entry] as const)));
    if (!hidden.size) return kept;
    kept = kept.filter((r) => !(r.entry.tier === "swarm" && hidden.has(r.entry.id)));
  }
}

/**
 * The other way round: a hive lesson this project contributed whose original here a person superseded.
 * The hive copy stays for every other project (a project-only replacement must not take it from them;
 * the copy carries a flag for a person to decide for the hive), but here it would rank the replaced
 * text beside, or above, its replacement. Asked only for hive results promoted from this project
 * (a handful in a pool), each by its id; an original that cannot be read hides nothing.
 * A hive lesson this project's promotion only reinforced (another project contributed it) names no
 * original here; the supersede flagged it with this project's name, so only a result flagged by this project (never another's) sends this
 * project to the originals whose promoted_to names it (one indexed read): it is
 * left out while one of them is superseded and none is still promoted.
 */
async function withoutCopiesOfSupersededOriginals(s: Services, scored: ScoredEntry[], pool: number): Promise<ScoredEntry[]> {
  const hiveHits = scored.slice(0, pool).filter((r) => r.entry.tier === "hive").map((r) => r.entry);
  const mine = hiveHits.filter((e) => e.provenance.promoted_from?.project_id === s.project.id);
  const reinforced = hiveHits.filter((e) => e.provenance.promoted_from?.project_id !== s.project.id && e.lifecycle.flags.some((f) => isOriginFlagOf(f, s.project.name)));
  if (!mine.length && !reinforced.length) return scored;
  const hidden = new Set<string>();
  for (const copy of mine) {
    const original = await s.swarm.getEntry(copy.provenance.promoted_from!.entry_id).catch(() => undefined);
    if (original?.lifecycle.status === "superseded") hidden.add(copy.id);
  }
  if (reinforced.length) {
    const wanted = new Set(reinforced.map((e) => e.id));
    // By the indexed promoted_to column: only the originals that last went up as these, never every promotion.
    const lastWentUpAs = (await s.swarm.promotedOriginals([...wanted]).catch(() => undefined)) ?? new Map<string, string>();
    const originals = new Map<string, Status[]>();
    for (const [originalId, hiveId] of lastWentUpAs) {
      if (!wanted.has(hiveId)) continue;
      const original = await s.swarm.getEntry(originalId).catch(() => undefined);
      if (original) originals.set(hiveId, [...(originals.get(hiveId) ?? []), original.lifecycle.status]);
    }
    for (const [hiveId, statuses] of originals) if (statuses.includes("superseded") && !statuses.includes("promoted")) hidden.add(hiveId);
  }
  return hidden.size ? scored.filter((r) => !(r.entry.tier === "hive" && hidden.has(r.entry.id))) : scored;
}

/** Ranked entries for a context (or a plain query as `{ task: query }`). */
export async function recallForContext(s: Services, given: RetrievalContext, opts: RecallOptions = {}): Promise<ScoredEntry[]> {
  const limit = opts.limit ?? 10;
  const ctx = withPlan(s, given);
  const terms = buildContextQuery(ctx);
  if (terms.length === 0 || limit <= 0) return [];
  // One lower-cased join of the context, for the query vector, the word-join fallback's pairs and scoring.
  const text = contextText(ctx);
  const filter: EntryFilter = {
    statuses: opts.statuses ?? LIVE_STATUSES,
    scopes: scopesFor(s, ctx, opts.scopes),
    ...(opts.category ? { categories: [opts.category] } : {}),
    // Who an entry is for is decided in SQL, so excluded entries never take a candidate slot.
    ...(ctx.agent ? { agent: ctx.agent } : {}),
    ...(ctx.tool ? { tool: ctx.tool } : {}),
    project: { id: s.project.id, name: s.project.name },
  };
  const tier = opts.tier ?? "all";
  const stores = tiersAsked(s, tier);
  const spared = spareDamagedTiers(stores);
  const perTier = opts.candidates ?? DEFAULT_CANDIDATES;
  const mode = opts.retrieval ?? s.config.embedding.retrieval;
  const vector = mode === "lexical" ? Promise.resolve(undefined) : queryVector(s, text);
  // Awaited by each tier's search below; with no tier to search, its failure is nobody's to report.
  vector.catch(() => {});
  const byWords = (st: Store, words = terms): Promise<SearchHit[]> =>
    mode === "semantic" ? Promise.resolve([]) : st.searchEntries(words, filter, perTier).catch((e: unknown) => spared(st, e, []));
  // In hybrid recall a lesson no word of the context found places on meaning and priors alone: a
  // tier's nearest `limit` such lessons are as many as the answer could hold. Reading them all (up to
  // `perTier`) was most of the vector path's cost at 10k entries; on the retrieval eval hybrid recall@5
  // and MRR@10 are the same with 8, 12, 20 or every one of them read.
  const onlyByMeaning = mode === "hybrid" ? limit : undefined;
  const byMeaning = async (st: Store, known?: readonly Entry[]): Promise<TierVectorHits> => {
    const q = await vector;
    return q ? vectorCandidates(st, q, filter, perTier, known, onlyByMeaning) : [];
  };
  const found = await searchTiers(stores, async (st) => {
    // A networked tier's two searches each wait on the wire: they overlap rather than run in turn.
    if (st.networked) return Promise.all([byWords(st), byMeaning(st)]);
    // A local tier answers at once: its text search first, so a lesson both searches find is read once.
    const words = await byWords(st);
    return [words, await byMeaning(st, words.map((h) => h.entry))] as const;
  });
  let lexical = found.map(([words]) => words);
  let searched = terms;
  // Fewer lessons than the answer holds: perhaps a slip in a rare word ("kuberentes"), or a compound the
  // lessons write otherwise ("precommit" for "pre-commit"). Only then is the index asked for the other
  // spellings, so a search that found enough pays nothing for it.
  if (opts.spelling !== false && mode !== "semantic" && lexical.reduce((n, hits) => n + hits.length, 0) < limit) {
    // A slip is mended first: any word splits somewhere into two short words the lessons hold ("reids": "re ids").
    const fixes = await spellingCorrections(stores, terms);
    const fix = (t: string) => fixes.get(t) ?? t;
    const sideBySide = new Set([...pairsSideBySide(text)].map((pair) => pair.split(" ").map(fix).join(" ")));
    const joins = await wordJoins(stores, terms.map(fix), sideBySide);
    if (fixes.size > 0 || joins.split.size > 0 || joins.joined.length > 0) {
      searched = [...terms.map((t) => fixes.get(t) ?? joins.split.get(t) ?? t), ...joins.joined];
      lexical = await Promise.all(stores.map((st) => byWords(st, searched)));
    }
  }
  const semantic = mode === "lexical" ? [] : found.map(([, meaning]) => meaning);
  // A tier of a few lessons has no word statistics of its own worth the name (see small-tier.ts). A phrase
  // (another way to write a word of the query, "web hook"; a split word, "pre commit") is scored as its words,
  // which a large team hive, counting only what its search asked, may not know: those are optional.
  const phraseWords = new Set(searched.filter((t) => t.includes(" ")).flatMap((t) => t.split(" ")));
  const optionalWords = new Set([...phraseWords].filter((w) => !searched.includes(w)));
  const pooled = mode === "semantic" ? lexical : await poolSmallTiers(stores.map((store, i) => ({ store, hits: lexical[i] ?? [] })), searched.flatMap((t) => t.split(" ")), optionalWords);
  const hits = blendCandidates(pooled.flat(), semantic, mode);
  const dedup = s.config.knowledge.dedup_threshold;
  // A promoted lesson lives in both tiers: one slot for it, before ranking or diversity sees it (issue 11 item 3).
  const profileOf = lessonProfiles();
  const k = s.config.knowledge;
  const encounter = { same: k.same_project_weight, cross: k.cross_project_weight };
  const merged = mergeAcrossTiers(
    scoreCandidates(hits, ctx, text, s.now(), k.feedback_half_life_days, encounter, {
      lexical: mode !== "semantic",
      ...(ctx.files?.length ? { globs: (await globsModule()).anyGlobMatcher } : {}),
    }),
    dedup, diversityPool(limit), profileOf,
  );
  // After the merge, which gives a promoted lesson's two rows one slot (its hive copy's, which carries the
  // verdicts): leaving out a discredited copy before it would let its project original take the slot.
  const credited = opts.withoutDiscredited ? merged.filter((r) => !isDiscredited(r.entry, s.now(), k.feedback_half_life_days)) : merged;
  const scored = await withoutCopiesOfSupersededOriginals(s, await withoutRetiredOriginals(s, credited, diversityPool(limit)), diversityPool(limit));
  if (opts.diverse === false) return scored.slice(0, limit);
  // Restatements give way at the same similarity at which a write would have merged them.
  return diversify(scored, limit, MMR_LAMBDA, dedup, profileOf);
}
