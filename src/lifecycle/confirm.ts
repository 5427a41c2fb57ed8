// Confirmations: a lesson seen again is reinforced; enough distinct phases (or projects in the hive) establish it.
import type { Entry } from "../core/entry.js";
import type { Store } from "../store/store.js";

export interface Confirmation {
  phase?: string;
  project_id?: string;
  by: string;
}

/** Distinct phases for the swarm tier, distinct projects for the hive: what "seen in N places" means per tier. */
export function distinctConfirmations(e: Entry): number {
  const key = e.tier === "hive" ? "project_id" : "phase";
  return new Set(e.lifecycle.confirmations.map((c) => c[key]).filter(Boolean)).size;
}

export interface EncounterWeights {
  /** knowledge.same_project_weight: a sighting in the project the hive lesson came from. */
  same: number;
  /** knowledge.cross_project_weight: a sighting in any other project. */
  cross: number;
}

/**
 * The hive's encounter score (seed 001): every recorded sighting of a hive lesson (one per project
 * and phase) counts the same-project weight when it happened in the lesson's source project and
 * the cross-project weight elsewhere. Lowering the same-project weight keeps one noisy project from
 * lifting its own lessons over ones other projects keep meeting. Swarm entries have none (0).
 */
export function encounterScore(e: Entry, w: EncounterWeights): number {
  if (e.tier !== "hive") return 0;
  const source = e.provenance.source_project_id;
  let score = 0;
  for (const c of e.lifecycle.confirmations) score += c.project_id !== undefined && c.project_id === source ? w.same : w.cross;
  return score;
}

export function isNewConfirmation(e: Entry, c: Confirmation): boolean {
  return !e.lifecycle.confirmations.some(
    (x) => (x.phase ?? null) === (c.phase ?? null) && (x.project_id ?? null) === (c.project_id ?? null),
  );
}

/** Applies one confirmation to an entry (pure), promoting candidate → established at the threshold. */
export function applyConfirmation(e: Entry, c: Confirmation, at: string, threshold: number): Entry {
  if (isNewConfirmation(e, c)) {
    e.lifecycle.confirmations.push({
      at,
      by: c.by,
      ...(c.phase ? { phase: c.phase } : {}),
      ...(c.project_id ? { project_id: c.project_id } : {}),
    });
    // Each independent sighting adds a little confidence; never past 0.99 by repetition alone.
    e.lifecycle.confidence = Math.min(0.99, Math.round((e.lifecycle.confidence + 0.05) * 1000) / 1000);
  }
  if (e.lifecycle.status === "candidate" && distinctConfirmations(e) >= threshold) {
    e.lifecycle.status = "established";
  }
  return e;
}

/** `check` sees the current entry inside the write transaction and may throw to abort it. */
export async function confirmEntry(store: Store, id: string, c: Confirmation, threshold: number, at: string, check?: (current: Entry) => void): Promise<Entry> {
  return store.updateEntry(id, (e) => {
    check?.(e);
    return applyConfirmation(e, c, at, threshold);
  }, {
    type: "reinforced",
    actor: c.by,
    data: { phase: c.phase, project_id: c.project_id },
  });
}
