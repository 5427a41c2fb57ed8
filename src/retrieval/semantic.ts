// Vector candidates for recall, and their merge with the text index's candidates (each lesson once, with both signals).
import { isUnavailable } from "../errors.js";
import type { Services } from "../services.js";
import type { Entry } from "../core/entry.js";
import type { EntryFilter, SearchHit, Store, UnreadVectorHit, VectorHit, VectorSpace } from "../store/store.js";
import type { ScoreInput } from "./score.js";
import type { RetrievalMode } from "./recall.js";
import { RELATED_SIMILARITY, SEMANTIC_FLOOR } from "./weights.js";
import type { Calibration } from "../embed/calibration.js";

/** The context's vector, the space it belongs to and how that space's cosines read on the built-in model's scale. */
export interface QueryVector {
  space: VectorSpace;
  query: Float32Array;
  calibration: Calibration;
}

/**
 * The context embedded once per recall, for every tier. Only vectors of the query's space are
 * compared: the current model's, or the built-in model's while an endpoint is down (lessons written
 * meanwhile carry those).
 */
export async function queryVector(s: Services, text: string): Promise<QueryVector | undefined> {
  if (!s.embedding || !text.trim()) return undefined;
  const { space, vectors } = await s.embedding.embed([text]);
  const query = vectors[0];
  if (!query || !space.dimension) return undefined;
  // A model whose cosines cannot be read on the thresholds' scale would call every lesson related: words only, this turn.
  const calibration = await s.embedding.calibration(space);
  return calibration ? { space, query, calibration } : undefined;
}

/** A tier's vector hits: a lesson below RELATED_SIMILARITY that its words did not find comes back unread. */
export type TierVectorHits = ReadonlyArray<VectorHit | UnreadVectorHit>;

/**
 * The nearest lessons by meaning in one store, among those passing `filter` (applied before the
 * top-k). `known`: that store's text hits for the same filter, handed back rather than read again.
 * A lesson only the vectors find is a candidate from RELATED_SIMILARITY up (see blendCandidates), so
 * below it the store need not read the entry: its similarity still sets the tier's floor.
 * `onlyByMeaning`: how many of those lessons (the nearest) may be candidates at most; the others come
 * back unread, still setting the floor.
 */
export async function vectorCandidates(
  st: Store, q: QueryVector, filter: EntryFilter, k: number, known?: readonly Entry[], onlyByMeaning?: number,
): Promise<TierVectorHits> {
  try {
    const hits = await st.searchVectors(q.space, q.query, filter, k, {
      ...(known ? { known } : {}), entriesFrom: q.calibration.fromReference(RELATED_SIMILARITY), ...(onlyByMeaning !== undefined ? { readAtMost: onlyByMeaning } : {}),
    });
    // Every similarity from here on is on the built-in model's scale, where weights.ts sets its thresholds.
    return q.calibration.identity ? hits : hits.map((h) => ({ ...h, similarity: q.calibration.toReference(h.similarity) }));
  } catch (e) {
    // A store that cannot search vectors (a team hive that is down) still answers through its text index.
    if (isUnavailable(e)) return [];
    throw e;
  }
}

/**
 * One candidate per lesson, carrying its text relevance (0 when only the vectors found it) and its
 * similarity. A lesson only the text index found ranked below every vector candidate of its tier,
 * so it gets that tier's lowest similarity: a bound, not a guess above it.
 */
export function blendCandidates(lexical: readonly SearchHit[], semantic: readonly TierVectorHits[], mode: RetrievalMode): ScoreInput[] {
  const out = new Map<string, ScoreInput>();
  const floor = new Map<string, number>();
  for (const hits of semantic) {
    for (const h of hits) {
      // Below the floor a vector neighbour is unrelated: it is no candidate (an empty result beats it).
      if (h.similarity <= SEMANTIC_FLOOR) continue;
      const tier = h.entry ? h.entry.tier : h.tier;
      floor.set(tier, Math.min(floor.get(tier) ?? 1, h.similarity));
      // Unread: below RELATED_SIMILARITY and not found by words, so dropped below anyway.
      if (h.entry) out.set(`${tier}:${h.entry.id}`, { entry: h.entry, relevance: 0, similarity: h.similarity });
    }
  }
  if (mode === "semantic") return [...out.values()].filter((c) => (c.similarity ?? 0) >= RELATED_SIMILARITY);
  for (const h of lexical) {
    const key = `${h.entry.tier}:${h.entry.id}`;
    const seen = out.get(key);
    if (seen) seen.relevance = h.relevance;
    else {
      const bound = floor.get(h.entry.tier);
      out.set(key, { entry: h.entry, relevance: h.relevance, ...(bound !== undefined ? { similarity: bound, bound: true } : {}) });
    }
  }
  // A lesson only the vectors found must be about the work (an unrelated nearest neighbour is no answer);
  // a weak similarity still adds to a lesson the words found too.
  return [...out.values()].filter((c) => c.relevance > 0 || (c.similarity ?? 0) >= RELATED_SIMILARITY);
}
