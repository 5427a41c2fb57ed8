// The one retired-copy rule: promoted originals whose hive lesson another project retired no longer speak here.
import { answerWithin } from "../core/answer-within.js";
import type { Entry, Status } from "../core/entry.js";
import type { Services } from "../services.js";
import { archivedForLackOfUse } from "./unused-archive.js";

/** Statuses in which a hive lesson no longer speaks for the originals promoted into it. */
export const RETIRED_COPY_STATUSES: readonly Status[] = ["quarantined", "superseded", "archived"];

/**
 * Of promoted originals of this project, those whose hive lesson (the one their last promotion went up as) is
 * retired: quarantined, superseded or archived. Retiring it from the promoting project retires the original
 * too (lifecycle/status.ts); from another project this project's database is out of reach, so the original
 * stays `promoted` here, and left alone it would go on advising (and being recalled with) the very text a
 * person replaced or hid from every agent. Recall, advisories and related knowledge leave it out by this rule.
 *
 * `originals` maps an original's id to the hive lesson it went up as when the caller already knows it, else to
 * the entry itself: what those went up as is read in one go from their promoted_to column, by key (not from
 * their event logs, where a promotion after a long history of consultations was past the part read).
 * A lesson the sweep archived for lack of use is no verdict on it: told apart by the reason the sweep writes on
 * the entry, it leaves the original in. One indexed read of the hive by id, only when such originals are given;
 * a networked hive gets a search's wait (hive_postgres.read_timeout_ms), no longer, and a hive that cannot
 * answer in it hides nothing.
 */
export async function originalsOfRetiredCopies(s: Services, originals: ReadonlyMap<string, string | Entry>): Promise<Set<string>> {
  const hidden = new Set<string>();
  const hive = s.hive;
  if (!hive || originals.size === 0) return hidden;
  const promotedTo = new Map<string, string>();
  try {
    const unknown: string[] = [];
    for (const [id, to] of originals) {
      if (typeof to === "string") promotedTo.set(id, to);
      else unknown.push(id);
    }
    for (const [id, hiveId] of await s.swarm.promotedTo(unknown)) promotedTo.set(id, hiveId);
  } catch {
    return hidden;
  }
  if (promotedTo.size === 0) return hidden;
  const ids = [...new Set(promotedTo.values())];
  const ask = hive.listEntries({ ids, statuses: RETIRED_COPY_STATUSES }, { limit: ids.length });
  let retired: Entry[] | undefined;
  try {
    // A team hive's list has only its statement timeout: on the hot path it gets the search's wait, no longer.
    retired = hive.networked ? (await answerWithin(ask, s.config.hive_postgres.read_timeout_ms))?.value : await ask;
  } catch {
    return hidden;
  }
  const gone = new Set((retired ?? []).filter((h) => !archivedForLackOfUse(h)).map((h) => h.id));
  for (const [original, hiveId] of promotedTo) if (gone.has(hiveId)) hidden.add(original);
  return hidden;
}
