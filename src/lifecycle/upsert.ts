// The upsert policy: for a new lesson, which existing entry it duplicates or contradicts, and what to do.
import type { Entry, Status } from "../core/entry.js";
import { fingerprintLesson } from "../core/ids.js";
import { queryTerms } from "../core/text.js";
import { compareLessons, profileLesson } from "../quality/similarity.js";
import type { Store } from "../store/store.js";

/** Statuses a new lesson may merge into or supersede; retired entries do not absorb new sightings. */
export const MERGEABLE: readonly Status[] = ["draft", "candidate", "established", "promoted"];
const CANDIDATES = 12;
/** Below the dedup threshold but at least this similar (and not a clear contradiction): ambiguous. */
export const AMBIGUOUS_SIMILARITY = 0.45;

export interface Neighbourhood {
  duplicate?: { entry: Entry; similarity: number };
  /** An exact match that was quarantined or superseded: re-learning it is refused. */
  retired?: Entry;
  contradicts: Entry[];
  /** The most similar live entry that is neither duplicate nor contradiction. */
  nearest?: { entry: Entry; similarity: number };
}

/** Exact text first (indexed fingerprint), then near neighbours from the full-text index — never a scan. */
export async function findNeighbours(store: Store, lesson: string, threshold: number): Promise<Neighbourhood> {
  const exact = await store.findByFingerprint(fingerprintLesson(lesson));
  const live = exact.find((e) => MERGEABLE.includes(e.lifecycle.status));
  if (live) return { duplicate: { entry: live, similarity: 1 }, contradicts: [] };
  const retired = exact.find((e) => e.lifecycle.status === "quarantined" || e.lifecycle.status === "superseded");
  if (retired) return { retired, contradicts: [] };

  const hits = await store.searchEntries(queryTerms(lesson, 24), { statuses: MERGEABLE }, CANDIDATES);
  const n: Neighbourhood = { contradicts: [] };
  const profile = profileLesson(lesson);
  for (const h of hits) {
    const cmp = compareLessons(profile, h.entry.lesson, threshold);
    if (cmp.duplicate) {
      if (!n.duplicate || cmp.similarity > n.duplicate.similarity) n.duplicate = { entry: h.entry, similarity: cmp.similarity };
    } else if (cmp.contradiction) n.contradicts.push(h.entry);
    else if (!n.nearest || cmp.similarity > n.nearest.similarity) n.nearest = { entry: h.entry, similarity: cmp.similarity };
  }
  return n;
}

export type UpsertDecision =
  | { op: "reinforce"; target: Entry; similarity: number }
  | { op: "supersede"; target: Entry }
  | { op: "flag"; targets: Entry[] }
  | { op: "add" }
  | { op: "refuse"; target: Entry };

/** Entries people vouched for are never retired by a machine-made contradiction; they are flagged instead. */
export function isProtected(e: Entry): boolean {
  return e.lifecycle.status === "promoted" || Boolean(e.provenance.approved_at);
}

/**
 * Deterministic rules: duplicate → reinforce (a NOOP when the sighting adds nothing new);
 * contradiction with one unprotected entry on the same subject → supersede it (kept, linked,
 * never deleted); contradiction with a protected or several entries → add with a flag.
 */
export function decideUpsert(n: Neighbourhood): UpsertDecision {
  if (n.retired) return { op: "refuse", target: n.retired };
  if (n.duplicate) return { op: "reinforce", target: n.duplicate.entry, similarity: n.duplicate.similarity };
  if (n.contradicts.length === 1 && !isProtected(n.contradicts[0]!)) return { op: "supersede", target: n.contradicts[0]! };
  if (n.contradicts.length) return { op: "flag", targets: n.contradicts };
  return { op: "add" };
}

export function isAmbiguous(n: Neighbourhood): boolean {
  return !n.retired && !n.duplicate && n.contradicts.length === 0 && (n.nearest?.similarity ?? 0) >= AMBIGUOUS_SIMILARITY;
}
