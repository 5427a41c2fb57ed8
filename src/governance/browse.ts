// Browsing lessons for people: full-text search, filters and sortable columns, in keyset pages merged across both tiers.
import { CATEGORIES, expandStatuses, KINDS, TIERS, type Category, type Entry, type Kind, type StatusFilter, type Tier } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { openTiers, type Services } from "../services.js";
import { promotedFromOf, standIns } from "./promoted-pairs.js";
import { PAGE_SORTS, type EntryFilter, type PageRow, type PageSort, type Store } from "../store/store.js";

export interface BrowseQuery {
  /** Words that must all occur in the lesson, title, why, rule, tags, globs or stack. */
  text?: string;
  tier?: Tier | "all";
  /** Statuses, or a name for a set of them (approved, active: STATUS_ALIASES). */
  statuses?: readonly StatusFilter[];
  categories?: readonly Category[];
  kinds?: readonly Kind[];
  scopes?: readonly string[];
  tags?: readonly string[];
  /** Source project ids (who contributed the lesson). */
  projects?: readonly string[];
  /** Only lessons with file globs or a detection pattern (pre-action advisory rules). */
  advisory?: boolean;
  /** Default: relevance with text, else created. */
  sort?: PageSort;
  /** Default true (newest, most confident, most used first). */
  desc?: boolean;
  /** The `next` of the previous page. */
  cursor?: string;
  /** 1..200, default 50. */
  limit?: number;
}

export interface BrowsePage {
  entries: Entry[];
  /** Cursor of the next page; absent on the last. */
  next?: string;
  /** Matches, counted up to TOTAL_CAP per tier. */
  total: number;
  /** True when `total` stopped at the cap ("10,000+"). */
  capped: boolean;
  sort: PageSort;
  desc: boolean;
  /** By hive id: the project lesson a hive copy on the page was promoted from (that original is left off the page). */
  promoted_from?: Record<string, { id: string; handle: string }>;
  /** Set when the team hive was unreachable and the answer holds the project tier only: the reason to show. */
  hive_unreachable?: string;
}

/** Counting stops here per tier: a person needs "10,000+", not a scan of 100k rows. */
export const TOTAL_CAP = 10_000;
/** Relevance pages are offsets into ranked hits; deeper than this, refine the search. */
const MAX_RELEVANCE_OFFSET = 2_000;
const TIER_ORDER: Record<Tier, number> = { swarm: 0, hive: 1 };
const SEQ_MAX = Number.MAX_SAFE_INTEGER;

interface KeysetCursor {
  k: string | number;
  t: Tier;
  s: number;
}
interface OffsetCursor {
  o: number;
}

function encodeCursor(c: KeysetCursor | OffsetCursor): string {
  return Buffer.from(JSON.stringify(c), "utf8").toString("base64url");
}

function decodeCursor(raw: string | undefined, relevance: boolean): KeysetCursor | OffsetCursor | undefined {
  if (!raw) return undefined;
  const bad = () => new CairnError("INVALID_INPUT", "Invalid page cursor; start again from the first page.");
  if (raw.length > 400) throw bad();
  let c: unknown;
  try {
    c = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  const o = c as Record<string, unknown>;
  if (relevance) {
    if (typeof o.o !== "number" || !Number.isInteger(o.o) || o.o < 0 || o.o > MAX_RELEVANCE_OFFSET) throw bad();
    return { o: o.o };
  }
  const keyOk = typeof o.k === "number" ? Number.isFinite(o.k) : typeof o.k === "string" && o.k.length <= 64;
  if (!keyOk || !(TIERS as readonly unknown[]).includes(o.t) || typeof o.s !== "number" || !Number.isSafeInteger(o.s)) throw bad();
  return { k: o.k as string | number, t: o.t as Tier, s: o.s };
}

/**
 * The global order is (key, tier, seq) in the chosen direction. For one tier's store that becomes
 * a (key, seq) bound: its own tier continues after the cursor's seq; a tier ordered after the
 * cursor's starts at the same key; one ordered before starts at the next key.
 */
function boundFor(tier: Tier, c: KeysetCursor, desc: boolean): { key: string | number; seq: number } {
  const x = TIER_ORDER[tier];
  const t = TIER_ORDER[c.t];
  if (x === t) return { key: c.k, seq: c.s };
  const later = desc ? x < t : x > t;
  // desc, later tier: key <= k  ⇔ (key, seq) < (k, MAX); desc, earlier tier: key < k ⇔ (key, seq) < (k, 0).
  if (desc) return { key: c.k, seq: later ? SEQ_MAX : 0 };
  return { key: c.k, seq: later ? 0 : SEQ_MAX };
}

function compareRows(a: PageRow, b: PageRow, desc: boolean): number {
  const ka = a.key;
  const kb = b.key;
  const byKey = ka < kb ? -1 : ka > kb ? 1 : 0;
  const c = byKey || TIER_ORDER[a.entry.tier] - TIER_ORDER[b.entry.tier] || a.seq - b.seq;
  return desc ? -c : c;
}

function checkList<T extends string>(name: string, values: readonly string[] | undefined, allowed: readonly T[]): T[] | undefined {
  if (!values?.length) return undefined;
  const bad = values.filter((v) => !(allowed as readonly string[]).includes(v));
  if (bad.length) throw new CairnError("INVALID_INPUT", `Unknown ${name} ${bad.slice(0, 3).join(", ")}; use ${allowed.join(", ")}.`);
  return values as T[];
}

/** What the store is asked to filter on; every value checked here so no face forwards junk. */
function filterOf(q: BrowseQuery): EntryFilter {
  const f: EntryFilter = {};
  // Aliases too (approved, active): the web page's filter means what `cairn list --status` means.
  if (q.statuses?.length) f.statuses = expandStatuses(q.statuses);
  const categories = checkList("category", q.categories, CATEGORIES);
  if (categories) f.categories = categories;
  const kinds = checkList("kind", q.kinds, KINDS);
  if (kinds) f.kinds = kinds;
  if (q.scopes?.length) f.scopes = q.scopes.slice(0, 20).map((s) => s.trim()).filter(Boolean);
  if (q.tags?.length) f.anyTags = [...new Set(q.tags.map((t) => t.trim().toLowerCase()).filter(Boolean))].slice(0, 20);
  if (q.projects?.length) f.sourceProjects = q.projects.slice(0, 20);
  if (q.advisory !== undefined) f.advisory = q.advisory;
  return f;
}

export function parseSort(sort: string | undefined, hasText: boolean): PageSort {
  if (!sort) return hasText ? "relevance" : "created";
  if (!(PAGE_SORTS as readonly string[]).includes(sort)) throw new CairnError("INVALID_INPUT", `Unknown sort "${sort.slice(0, 40)}"; use ${PAGE_SORTS.join(", ")}.`);
  if (sort === "relevance" && !hasText) return "created";
  return sort as PageSort;
}

export async function browseEntries(s: Services, q: BrowseQuery): Promise<BrowsePage> {
  const text = q.text?.trim().slice(0, 200) || undefined;
  const sort = parseSort(q.sort, Boolean(text));
  const desc = q.desc ?? true;
  const limit = Math.min(Math.max(Math.trunc(q.limit ?? 50), 1), 200);
  const tier = q.tier ?? "all";
  const stores: Store[] = openTiers(s).filter((st) => tier === "all" || st.tier === tier);
  const filter = filterOf(q);
  const relevance = sort === "relevance";
  const cursor = decodeCursor(q.cursor, relevance);

  // A promoted lesson is one row, its hive copy: the originals it stands for are left out of the count and of every page alike.
  const pairs = stores.length > 1 ? await standIns(s, filter, text) : new Map();
  const hidden = [...pairs.keys()];
  const filterFor = (st: Store): EntryFilter => (st.tier === "swarm" && hidden.length ? { ...filter, excludeIds: hidden } : filter);
  const counts = await Promise.all(stores.map((st) => st.countEntriesCapped(filterFor(st), text, TOTAL_CAP)));
  const total = counts.reduce((a, b) => a + b, 0);
  const capped = counts.some((n) => n >= TOTAL_CAP);
  const withOrigins = (page: BrowsePage): BrowsePage => {
    const from = promotedFromOf(pairs, page.entries);
    return Object.keys(from).length ? { ...page, promoted_from: from } : page;
  };

  if (relevance) {
    const offset = (cursor as OffsetCursor | undefined)?.o ?? 0;
    // Ranks of two indexes are close enough to interleave; each tier gives its best offset+limit+1.
    const lists = await Promise.all(stores.map((st) => st.pageEntries({ filter: filterFor(st), text, sort, desc: false, offset: 0, limit: offset + limit + 1 })));
    const merged = lists.flat().sort((a, b) => compareRows(a, b, false));
    const page = merged.slice(offset, offset + limit);
    const more = merged.length > offset + limit && offset + limit <= MAX_RELEVANCE_OFFSET;
    return withOrigins({ entries: page.map((r) => r.entry), total, capped, sort, desc: false, ...(more ? { next: encodeCursor({ o: offset + limit }) } : {}) });
  }

  const keyset = cursor as KeysetCursor | undefined;
  const lists = await Promise.all(
    stores.map((st, i) =>
      st.pageEntries({
        filter: filterFor(st), sort, desc, limit: limit + 1, matches: counts[i]!,
        ...(text ? { text } : {}), ...(keyset ? { after: boundFor(st.tier, keyset, desc) } : {}),
      }),
    ),
  );
  const merged = lists.flat().sort((a, b) => compareRows(a, b, desc));
  const page = merged.slice(0, limit);
  const last = page[page.length - 1];
  const next = merged.length > limit && last ? encodeCursor({ k: last.key, t: last.entry.tier, s: last.seq }) : undefined;
  return withOrigins({ entries: page.map((r) => r.entry), total, capped, sort, desc, ...(next ? { next } : {}) });
}
