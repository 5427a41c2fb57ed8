// Which promoted project originals have their hive copy in a listing or a count of both tiers (which then leaves them out).
import { pairPromoted, promotedOriginOf } from "../core/entry-links.js";
import type { Entry } from "../core/entry.js";
import { openTiers, spareDamagedTiers, type Services } from "../services.js";
import type { EntryFilter, Promotion } from "../store/store.js";

/** Ids asked of a store at once: promoted originals and their copies are read in chunks, however many there are. */
const CHUNK = 5_000;

/** A hive copy standing for a project original in a listing, and how the original is named beside it. */
export interface StandIn {
  original: { id: string; handle: string };
  copyId: string;
}

/** By project original id: the hive copy that stands for it in a listing. */
export type StandIns = Map<string, StandIn>;

/**
 * The project originals (status promoted) matching a listing's filter and words whose hive copy matches
 * them too, every one of them: several originals promoted into one hive lesson (the later ones reinforcing
 * it) each have it as their copy. Decided for the whole listing, not per page, so the count, the page cut and
 * the cursor all leave out the same rows. Reads only promoted originals' id, handle and promoted_to (all of them,
 * no entry JSON) and indexed reads of their copies by id; empty when there is no hive, or the filter's
 * statuses leave out `promoted`. A hive that cannot answer throws (the caller spares it).
 */
export async function promotedPairs(s: Services, filter: EntryFilter, text?: string): Promise<StandIns> {
  const found: StandIns = new Map();
  if (!s.hive || (filter.statuses && !filter.statuses.includes("promoted"))) return found;
  const originalsFilter: EntryFilter = { ...filter, statuses: ["promoted"] };
  // Every promoted original, not the first few thousand: each left uncounted was counted twice (its copy too).
  // Id, handle and promoted_to only: the listing shows the copy, never the original's text.
  // A damaged tier hides nothing here: the listing's own read says so and answers from the other.
  const spared = spareDamagedTiers(openTiers(s));
  let sides = await s.swarm.listPromotions(originalsFilter).catch((e: unknown) => spared(s.swarm, e, [] as Promotion[]));
  if (text && sides.length) {
    const matched = new Set<string>();
    for (const ids of chunks(sides.map((e) => e.id))) {
      const byWords = await s.swarm.pageEntries({ filter: { ...originalsFilter, ids }, text, sort: "created", desc: true, limit: ids.length });
      for (const r of byWords) matched.add(r.entry.id);
    }
    sides = sides.filter((e) => matched.has(e.id));
  }
  if (!sides.length) return found;
  const hive = s.hive;
  const copies: Entry[] = [];
  for (const ids of chunks([...new Set(sides.map((x) => x.promoted_to))])) {
    const copyFilter: EntryFilter = { ...filter, ids };
    copies.push(...(await (text
      ? hive.pageEntries({ filter: copyFilter, text, sort: "created", desc: true, limit: ids.length }).then((rows) => rows.map((r) => r.entry))
      : hive.listEntries(copyFilter, { limit: ids.length })
    ).catch((e: unknown) => spared(hive, e, [] as Entry[]))));
  }
  const pairs = pairPromoted(sides.map((o) => ({ ...o, promotedTo: o.promoted_to })), copies.map((c) => ({ id: c.id, promotedFrom: promotedOriginOf(c) })));
  for (const [id, { original, copy }] of pairs) found.set(id, { original: { id: original.id, handle: original.handle }, copyId: copy.id });
  return found;
}

/**
 * The originals a listing of both tiers leaves out, one per hive copy: the copy is printed as "promoted from
 * this project's S-n", which names one original, so when several went up into one hive lesson the one
 * written last (originals are read in the order they were written) stands in; the others stay listed.
 */
export async function standIns(s: Services, filter: EntryFilter, text?: string): Promise<StandIns> {
  const byCopy = new Map<string, [string, StandIn]>();
  for (const pair of await promotedPairs(s, filter, text)) byCopy.set(pair[1].copyId, pair);
  return new Map(byCopy.values());
}

function chunks<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

/** By hive id: the original each listed copy stands for (what the faces print as "promoted from this project's S-n"). */
export function promotedFromOf(found: StandIns, listed: readonly Entry[]): Record<string, { id: string; handle: string }> {
  const byCopy = new Map([...found.values()].map((x) => [x.copyId, x.original] as const));
  return Object.fromEntries(listed.flatMap((e) => {
    const o = e.tier === "hive" ? byCopy.get(e.id) : undefined;
    return o ? [[e.id, { id: o.id, handle: o.handle }] as const] : [];
  }));
}
