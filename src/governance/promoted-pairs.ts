// Which promoted project originals a listing of both tiers leaves out, because their hive copy is listed in their place.
import { lastPromotedTo, lastPromotionsByOriginal } from "../core/entry-links.js";
import type { Entry } from "../core/entry.js";
import { openTiers, spareDamagedTiers, type Services } from "../services.js";
import type { EntryFilter } from "../store/store.js";

/** Ids asked of a store at once: promoted originals and their copies are read in chunks, however many there are. */
const CHUNK = 5_000;

/** By project original id: the hive copy that stands for it in a listing. */
export type StandIns = Map<string, { original: Entry; copyId: string }>;

/**
 * The project originals (status promoted) matching a listing's filter and words whose hive copy matches
 * them too. Decided for the whole listing, not per page, so the count, the page cut and the cursor all
 * leave out the same rows: the copy stands for both wherever it falls. Reads only promoted originals (all
 * of them, in batches), their `promoted` events and indexed reads of their copies by id; empty when there is no hive, or the
 * filter's statuses leave out `promoted`. A hive that cannot answer throws (the caller spares it).
 */
export async function standIns(s: Services, filter: EntryFilter, text?: string): Promise<StandIns> {
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
  const promotedTo = await lastPromotionsByOriginal(s.swarm);
  const copyOf = new Map<string, Entry>();
  for (const e of originals) {
    const id = await lastPromotedTo(s.swarm, e.id, promotedTo).catch(() => undefined);
    if (id) copyOf.set(id, e);
  }
  if (!copyOf.size) return found;
  const hive = s.hive;
  for (const ids of chunks([...copyOf.keys()])) {
    const copyFilter: EntryFilter = { ...filter, ids };
    const copies = await (text
      ? hive.pageEntries({ filter: copyFilter, text, sort: "created", desc: true, limit: ids.length }).then((rows) => rows.map((r) => r.entry))
      : hive.listEntries(copyFilter, { limit: ids.length })
    ).catch((e: unknown) => spared(hive, e, [] as Entry[]));
    for (const copy of copies) {
      // Two originals promoted into one hive lesson: the last read stands for it (as the map keeps one per copy), the other stays listed.
      const original = copyOf.get(copy.id);
      if (original) found.set(original.id, { original, copyId: copy.id });
    }
  }
  return found;
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
