// How an entry names the lessons it supersedes, is superseded by or went up to the hive as: the handle a person reads beside the stored id, the promoted pairs (no dependency, for the CLI's light load).
import type { Entry } from "./entry.js";

/** A linked lesson as a face names it: its handle (S-n, H-n) beside the stored id; `missing` when it is gone. */
export interface LinkRef {
  id: string;
  handle?: string;
  missing?: boolean;
}

/** What an entry's supersedes / superseded_by point at, by handle: `cairn show`, the MCP entry resource, the web page. */
export interface EntryLinks {
  supersedes?: LinkRef;
  superseded_by?: LinkRef;
}

/** Event fields that name another entry by id: a supersede's `by`, a link's `supersedes` ({from, to} when unlinked), a restore's `superseded_by`, a promotion's `hive_id`. */
export const LINK_FIELDS = ["by", "supersedes", "superseded_by", "hive_id"] as const;

/** The hive lesson an entry last went up as: the `hive_id` of its latest `promoted` event (events oldest first). */
export function lastPromotionHiveId(events: readonly { type: string; data: Record<string, unknown> }[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i]!;
    if (ev.type === "promoted" && typeof ev.data.hive_id === "string") return ev.data.hive_id;
  }
  return undefined;
}

/** A project original as the pairing reads it: its id and, when known, the hive lesson its last promotion went up as (its promoted_to). */
export interface PromotedOriginal {
  id: string;
  promotedTo?: string | undefined;
}

/** A hive lesson as the pairing reads it: its id and the project original it was created from (promotedOriginOf), if any. */
export interface HiveLesson {
  id: string;
  promotedFrom?: string | undefined;
}

/**
 * The project original a hive lesson was created from (its promoted_from); a project entry has none. After a
 * promotion both are vetted (the original promoted, the copy established or promoted) and hold the same rule;
 * the copy stands for both, as in recall (retrieval/merge.ts), so an agent is not told one lesson twice.
 */
export function promotedOriginOf(e: Pick<Entry, "tier" | "provenance">): string | undefined {
  return e.tier === "hive" ? e.provenance.promoted_from?.entry_id : undefined;
}

/**
 * By original id: the hive lesson among `copies` that stands for it, the one created from it (promoted_from),
 * else the one its last promotion went up as (a promotion that reinforced a hive lesson already there leaves
 * only that). The one rule for advisories, related knowledge, listings and the metrics, over what each
 * caller already read. Several originals may share one hive lesson (each promotion after the first
 * reinforced it): each is paired. An original with no such lesson among `copies` is left out.
 */
export function pairPromoted<O extends PromotedOriginal, C extends HiveLesson>(originals: Iterable<O>, copies: Iterable<C>): Map<string, { original: O; copy: C }> {
  const byId = new Map<string, C>();
  const createdFrom = new Map<string, C>();
  for (const c of copies) {
    byId.set(c.id, c);
    if (c.promotedFrom) createdFrom.set(c.promotedFrom, c);
  }
  const pairs = new Map<string, { original: O; copy: C }>();
  for (const original of originals) {
    const copy = createdFrom.get(original.id) ?? (original.promotedTo ? byId.get(original.promotedTo) : undefined);
    if (copy) pairs.set(original.id, { original, copy });
  }
  return pairs;
}

/** The entry ids an event's data names (LINK_FIELDS), for looking up their handles. */
export function idsNamedIn(data: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of LINK_FIELDS) {
    const v = data[k];
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object") for (const x of Object.values(v as Record<string, unknown>)) if (typeof x === "string") out.push(x);
  }
  return out;
}

/** An event's data with each id it names (LINK_FIELDS) read as its handle, where known: for a person's eyes, never stored. */
export function withHandles(data: Record<string, unknown>, handles: Readonly<Record<string, string>>): Record<string, unknown> {
  const name = (v: unknown): unknown => (typeof v === "string" && handles[v] ? handles[v] : v);
  const out: Record<string, unknown> = { ...data };
  for (const k of LINK_FIELDS) {
    const v = out[k];
    if (typeof v === "string") out[k] = name(v);
    else if (v && typeof v === "object" && !Array.isArray(v)) out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([kk, vv]) => [kk, name(vv)]));
  }
  return out;
}

/** How a person reads a link: the handle, else the id of a lesson no longer here. */
export function linkLabel(l: LinkRef | undefined): string | undefined {
  if (!l) return undefined;
  return l.handle ?? (l.missing ? `${l.id} (no longer here)` : l.id);
}
