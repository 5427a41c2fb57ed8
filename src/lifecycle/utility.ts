// Derived utility of an entry from its usage signals (what ranking, eviction and reviews read).
import type { Entry } from "../core/entry.js";

/**
 * Share of good outcomes among all outcomes, violations and harm counting 1.5×. Unknown (null)
 * until the entry has any signal: an unused lesson is not a bad lesson.
 */
export function utilityOf(e: Pick<Entry, "usage">): number | null {
  const u = e.usage;
  const good = u.applied + u.helpful + u.prevented;
  const bad = u.ignored + u.violated * 1.5 + u.harmful * 1.5;
  if (good + bad === 0) return null;
  return good / (good + bad);
}
