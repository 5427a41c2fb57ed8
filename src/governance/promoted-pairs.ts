// Which promoted project originals have their hive copy in a listing or a count of both tiers (which then leaves them out).
import { pairPromoted, promotedOriginOf } from "../core/entry-links.js";
import type { Entry } from "../core/entry.js";
import { openTiers, spareDamagedTiers, type Services } from "../services.js";
import type { EntryFilter } from "../store/store.js";

/** Ids asked of a store at once: promoted originals and their copies are read in chunks, however many there are. */
const CHUNK = 5_000;

/** By project original id: the hive copy that stands for it in a listing. */
export type StandIns = Map<string, { original: Entry; copyId: string }>;

/**
 * The project originals (status promoted) matching a listing's filter and words whose hive copy matches
 * them too, every one of them: several originals promoted into one hive lesson (the later ones reinforcing
 * it) each have it as their copy. Decided for the whole listing, not per page, so the count, the page cut and
 * the cursor all leave out the same rows. Reads only promoted originals (all of them, in batches), what each
 * went up as by key (promoted_to) and indexed reads of their copies by id; empty when there is no hive, or the filter's
 * statuses leave out `promoted`. A hive that cannot answer throws (the caller spares it).
 */
export async function promotedPairs(s: Services, filter: EntryFilter, text?: string): Promise<StandIns> {
  const found: StandIns = new Map();
  if (!s.hive || (filter.statuses && !filter.statuses.includes("promoted"))) return found;
  const originalsFilter: EntryFilter = { ...filter, statuses: ["promoted"] };
  // Every promoted original, not the first few thousand: each left uncounted was counted twice (its copy too).
  // A damaged tier hides nothing here: the listing's own read says so and answers from the other.
  const spared = spareDamagedTiers(openTiers(s));
  let originals = await allOf(s.swarm.iterateEntries(originalsFilter)).catch((e: unknown) => spared(s.swarm, e, [] as Entry[]));
  if (!originals.length) return found;
  if (text) {
    const matched = new Set<string>();
    for (const ids of chunks(originals.map((e) => e.id))) {
      const byWords = await s.swarm.pageEntries({ filter: { ...originalsFilter, ids }, text, sort: "created", desc: true, limit: ids.length });
      for (const r of byWords) matched.add(r.entry.id);
    }
    originals = originals.filter((e) => matched.has(e.id));
  }
  // What each went up as, by key (the promoted_to column): never every promotion of the tier.
  const sides: Array<{ id: string; promotedTo: string; entry: Entry }> = [];
  for (const batch of chunks(originals)) {
    const wentUpAs = await s.swarm.promotedTo(batch.map((e) => e.id)).catch((e: unknown) => spared(s.swarm, e, new Map<string, string>()));
    for (const e of batch) {
      const to = wentUpAs.get(e.id);
      if (to) sides.push({ id: e.id, promotedTo: to, entry: e });
    }
  }
  if (!sides.length) return found;
  const hive = s.hive;
  const copies: Entry[] = [];
  for (const ids of chunks([...new Set(sides.map((x) => x.promotedTo))])) {
    const copyFilter: EntryFilter = { ...filter, ids };
    copies.push(...(await (text
      ? hive.pageEntries({ filter: copyFilter, text, sort: "created", desc: true, limit: ids.length }).then((rows) => rows.map((r) => r.entry))
      : hive.listEntries(copyFilter, { limit: ids.length })
    ).catch((e: unknown) => spared(hive, e, [] as Entry[]))));
  }
  const pairs = pairPromoted(sides, copies.map((c) => ({ id: c.id, promotedFrom: promotedOriginOf(c) })));
  for (const [id, { original, copy }] of pairs) found.set(id, { original: original.entry, copyId: copy.id });
  return found;
}

/**
 * The originals a listing of both tiers leaves out, one per hive copy: the copy is printed as "promoted from
 * this project's S-n", which names one original, so when several went up into one hive lesson the one
 * written last (originals are read in the order they were written) stands in; the others stay listed.
 */
export async function standIns(s: Services, filter: EntryFilter, text?: string): Promise<StandIns> {
  const byCopy = new Map<string, [string, { original: Entry; copyId: string }]>();
  for (const pair of await promotedPairs(s, filter, text)) byCopy.set(pair[1].copyId, pair);
  return new Map(byCopy.values());
}

async function allOf<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
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
