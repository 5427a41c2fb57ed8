// Which promoted project originals a listing of both tiers leaves out, because their hive copy is listed in their place.
import { lastPromotionHiveId } from "../core/entry-links.js";
import type { Entry } from "../core/entry.js";
import { tierReadFailed, type Services } from "../services.js";
import type { EntryFilter } from "../store/store.js";

/** Promoted originals read per listing at most: each is a lesson this project handed to the hive, so they are few. */
const MAX_ORIGINALS = 5_000;
/** `promoted` events read at once: a promotion each, and a few re-promotions. */
const MAX_PROMOTED_EVENTS = 20_000;

/** By project original id: the hive copy that stands for it in a listing. */
export type StandIns = Map<string, { original: Entry; copyId: string }>;

/**
 * The project originals (status promoted) matching a listing's filter and words whose hive copy matches
 * them too. Decided for the whole listing, not per page, so the count, the page cut and the cursor all
 * leave out the same rows: the copy stands for both wherever it falls. Reads only promoted originals,
 * their `promoted` events and one indexed read of their copies; empty when there is no hive, or the
 * filter's statuses leave out `promoted`. A hive that cannot answer throws (the caller spares it).
 */
export async function standIns(s: Services, filter: EntryFilter, text?: string): Promise<StandIns> {
  const found: StandIns = new Map();
  if (!s.hive || (filter.statuses && !filter.statuses.includes("promoted"))) return found;
  const originalsFilter: EntryFilter = { ...filter, statuses: ["promoted"] };
  // A damaged tier hides nothing here: the listing's own read says so and answers from the other.
  let originals = await s.swarm.listEntries(originalsFilter, { limit: MAX_ORIGINALS }).catch((e: unknown) => tierReadFailed(s, s.swarm, e, [] as Entry[]));
  if (!originals.length) return found;
  if (text) {
    const byWords = await s.swarm.pageEntries({ filter: { ...originalsFilter, ids: originals.map((e) => e.id) }, text, sort: "created", desc: true, limit: originals.length });
    const matched = new Set(byWords.map((r) => r.entry.id));
    originals = originals.filter((e) => matched.has(e.id));
  }
  // The project's `promoted` events in one indexed read (oldest first, so a re-promotion's later event wins);
  // a read cut off at its limit could miss an original's latest event, so then each original is asked on its own.
  const promotedTo = new Map<string, string>();
  const events = await s.swarm.listEventsByType("promoted", "", MAX_PROMOTED_EVENTS);
  if (events.length < MAX_PROMOTED_EVENTS) {
    for (const ev of events) if (typeof ev.data.hive_id === "string") promotedTo.set(ev.entry_id, ev.data.hive_id);
  }
  const copyOf = new Map<string, Entry>();
  for (const e of originals) {
    const id = promotedTo.get(e.id) ?? (await lastPromotedTo(s, e));
    if (id) copyOf.set(id, e);
  }
  if (!copyOf.size) return found;
  const copyFilter: EntryFilter = { ...filter, ids: [...copyOf.keys()] };
  const hive = s.hive;
  const copies = await (text
    ? hive.pageEntries({ filter: copyFilter, text, sort: "created", desc: true, limit: copyOf.size }).then((rows) => rows.map((r) => r.entry))
    : hive.listEntries(copyFilter, { limit: copyOf.size })
  ).catch((e: unknown) => tierReadFailed(s, hive, e, [] as Entry[]));
  for (const copy of copies) {
    // Two originals promoted into one hive lesson: the last read stands for it (as the map keeps one per copy), the other stays listed.
    const original = copyOf.get(copy.id);
    if (original) found.set(original.id, { original, copyId: copy.id });
  }
  return found;
}

/** The hive lesson an original last went up as (a promotion that reinforced an existing hive lesson leaves no lineage on it, only this event). */
async function lastPromotedTo(s: Services, e: Entry): Promise<string | undefined> {
  return lastPromotionHiveId(await s.swarm.listEvents(e.id, 1000).catch(() => []));
}

/** By hive id: the original each listed copy stands for (what the faces print as "promoted from this project's S-n"). */
export function promotedFromOf(found: StandIns, listed: readonly Entry[]): Record<string, { id: string; handle: string }> {
  const byCopy = new Map([...found.values()].map((x) => [x.copyId, x.original] as const));
  return Object.fromEntries(listed.flatMap((e) => {
    const o = e.tier === "hive" ? byCopy.get(e.id) : undefined;
    return o ? [[e.id, { id: o.id, handle: o.handle }] as const] : [];
  }));
}
