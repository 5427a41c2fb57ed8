// `list` across tiers: each tier read in its own order a chunk at a time, merged, the page cut after the merge.
import type { Entry, Tier } from "../core/entry.js";
import { spareDamagedTiers, type Services } from "../services.js";
import type { EntryFilter, ListOptions, Store } from "../store/store.js";
import { promotedFromOf, standIns } from "./promoted-pairs.js";

/**
 * Entries read per tier per step when merging: a shallow page reads offset + limit once, as before; a
 * deep one (knowledge_query allows offset 100,000) walks the tiers in chunks of this many, so a call
 * never holds more than a chunk per tier.
 */
const MERGE_CHUNK = 500;

type Order = ListOptions["order"];

/** The merge key of the listing order: smaller first. */
function sortKey(order: Order): (e: Entry) => number {
  if (order === "confidence") return (e) => -e.lifecycle.confidence;
  if (order === "oldest") return (e) => Date.parse(e.created_at);
  return (e) => -Date.parse(e.created_at);
}

interface Cursor {
  store: Store;
  buf: Entry[];
  at: number;
  next: number;
  done: boolean;
}

/** One page of the stores' entries in one order; a single store pages in SQL. */
export async function listAcrossTiers(
  s: Services, stores: readonly Store[], filter: EntryFilter, order: Order, offset: number, limit: number,
  /** A tier's own filter, where it differs from `filter`. */
  byTier: Partial<Record<Tier, EntryFilter>> = {},
): Promise<Entry[]> {
  const key = sortKey(order);
  const spared = spareDamagedTiers(stores);
  const read = (store: Store, opts: ListOptions) => store.listEntries(byTier[store.tier] ?? filter, opts).catch((e: unknown) => spared(store, e, [] as Entry[]));
  // Within a page, the same key orders it (stable: a tier's own order breaks ties).
  const byKey = (xs: Entry[]) => xs.sort((a, b) => key(a) - key(b));
  if (stores.length === 1) return byKey(await read(stores[0]!, { limit, offset, order }));
  const chunk = Math.min(offset + limit, MERGE_CHUNK);
  const cursors: Cursor[] = stores.map((store) => ({ store, buf: [], at: 0, next: 0, done: false }));
  const drained = (c: Cursor) => !c.done && c.at === c.buf.length;
  const fill = async (c: Cursor) => {
    if (!drained(c)) return;
    const rows = byKey(await read(c.store, { limit: chunk, offset: c.next, order }));
    c.buf = rows;
    c.at = 0;
    c.next += rows.length;
    c.done = rows.length < chunk;
  };
  const page: Entry[] = [];
  let skipped = 0;
  while (page.length < limit) {
    // Reads only when a tier's chunk is used up: a deep offset skips entry after entry without a turn each.
    if (cursors.some(drained)) await Promise.all(cursors.map(fill));
    // The head with the smallest key; on a tie the earlier tier, as a stable sort of the tiers' lists would.
    let best: Cursor | undefined;
    for (const c of cursors) if (c.at < c.buf.length && (!best || key(c.buf[c.at]!) < key(best.buf[best.at]!))) best = c;
    if (!best) break;
    const e = best.buf[best.at++]!;
    if (skipped < offset) skipped++;
    else page.push(e);
  }
  return page;
}

/** A listed lesson; a hive lesson this project promoted names its project original, which is not listed again. */
export interface ListedLesson {
  entry: Entry;
  promoted_from?: { id: string; handle: string };
}

/**
 * One line per lesson: after a promotion the project original (status promoted) is only the record of
 * where the hive copy came from, so where the copy is listed too it stands for the two. The originals
 * are left out of the read itself (standIns), not dropped after the page is cut, so `limit` lessons
 * come back when there are that many. An original whose copy is not listed (removed, filtered out, the
 * hive unreachable) stays listed.
 */
export async function listOnePerLesson(s: Services, stores: readonly Store[], filter: EntryFilter, order: Order, offset: number, limit: number): Promise<ListedLesson[]> {
  const pairs = stores.length > 1 ? await standIns(s, filter) : new Map();
  const hidden = [...pairs.keys()];
  const entries = await listAcrossTiers(s, stores, filter, order, offset, limit, hidden.length ? { swarm: { ...filter, excludeIds: hidden } } : {});
  const from = promotedFromOf(pairs, entries);
  return entries.map((entry) => (from[entry.id] ? { entry, promoted_from: from[entry.id]! } : { entry }));
}
