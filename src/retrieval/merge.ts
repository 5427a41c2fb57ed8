// One lesson, one slot: swarm and hive candidates merged by lineage (promoted_from) and by near-duplicate text.
import { compareLessons, similarity } from "../quality/similarity.js";
import { lessonProfiles, type ScoredEntry } from "./score.js";

/**
 * Where a project entry and a hive entry are the same lesson, the hive copy is kept: after a
 * promotion the project copy is only its record of origin (status "promoted"), while the hive copy
 * passed the stricter hive gate and is where every project's confirmations and feedback accrue.
 * It takes the better score of the two, so merging never pushes the lesson down the ranking.
 * Same-tier restatements are left to the diversity pass (a write would already have merged them).
 * Only the best `pool` results are compared — that is all the diversity pass looks at — so the
 * cost stays bounded by the pool, never by the candidate count.
 */
export function mergeAcrossTiers(scored: readonly ScoredEntry[], threshold: number, pool: number, profileOf = lessonProfiles()): ScoredEntry[] {
  const sorted = [...scored].sort((a, b) => b.score - a.score);
  const head = sorted.slice(0, pool);
  const hive = head.filter((r) => r.entry.tier === "hive");
  if (hive.length === 0 || hive.length === head.length) return sorted;
  // Swarm entry ids are UUIDs, so the id alone names the promoted original, whatever the project.
  const promotedAs = new Map<string, ScoredEntry>();
  for (const h of hive) {
    const from = h.entry.provenance.promoted_from?.entry_id;
    if (from) promotedAs.set(from, h);
  }
  const profile = (r: ScoredEntry) => profileOf(r.entry);
  const sameLesson = (a: ScoredEntry, b: ScoredEntry): boolean =>
    // The cheap similarity first; the full comparison (values, polarity, named things) only for close pairs.
    similarity(profile(a), profile(b)) >= threshold && compareLessons(profile(a), profile(b), threshold).duplicate;

  const merged: ScoredEntry[] = [];
  const placed = new Set<string>();
  for (const r of head) {
    if (r.entry.tier === "hive") {
      if (!placed.has(r.entry.id)) merged.push(r);
      placed.add(r.entry.id);
      continue;
    }
    const copy = promotedAs.get(r.entry.id) ?? hive.find((h) => sameLesson(r, h));
    if (!copy) merged.push(r);
    else if (!placed.has(copy.entry.id)) {
      // Sorted best first, so this slot is at least as good as the hive copy's own.
      merged.push({ ...copy, score: Math.max(copy.score, r.score) });
      placed.add(copy.entry.id);
    }
  }
  return [...merged, ...sorted.slice(pool)];
}
