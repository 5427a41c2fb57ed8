// The upsert policy: given a new lesson's neighbours (neighbours.ts), what to do with it.
import type { Entry } from "../core/entry.js";
import type { Neighbourhood } from "./neighbours.js";

/** Below the dedup threshold but at least this similar (and not a clear contradiction): ambiguous. */
export const AMBIGUOUS_SIMILARITY = 0.45;

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
 * reversed advice against one unprotected entry on the same subject → supersede it (kept,
 * linked, never deleted); a value-only conflict, a protected entry or several → add with a flag.
 */
export function decideUpsert(n: Neighbourhood): UpsertDecision {
  if (n.retired) return { op: "refuse", target: n.retired };
  if (n.duplicate) return { op: "reinforce", target: n.duplicate.entry, similarity: n.duplicate.similarity };
  // Only reversed advice retires the old lesson by itself; "another value" may be another component, so a person decides.
  if (n.contradicts.length === 1 && n.reverses.length === 1 && !isProtected(n.reverses[0]!)) return { op: "supersede", target: n.reverses[0]! };
  if (n.contradicts.length) return { op: "flag", targets: n.contradicts };
  return { op: "add" };
}

export function isAmbiguous(n: Neighbourhood): boolean {
  return !n.retired && !n.duplicate && n.contradicts.length === 0 && (n.nearest?.similarity ?? 0) >= AMBIGUOUS_SIMILARITY;
}
