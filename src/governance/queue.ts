// The review queue for people: drafts, lessons flagged as contradicting a live one, lessons agents' verdicts silenced, low-utility lessons, and their nearest neighbours.
import { LIVE_STATUSES, type Entry, type Tier } from "../core/entry.js";
import { queryTerms } from "../core/text.js";
import { isDiscredited, SILENCING_HARMFUL } from "../lifecycle/feedback.js";
import { locate, ORIGIN_SUPERSEDED, quarantineRequests } from "../lifecycle/status.js";
import { MERGEABLE } from "../lifecycle/neighbours.js";
import { utilityOf } from "../lifecycle/utility.js";
import { compareLessons, profileLesson } from "../quality/similarity.js";
import { openTiers, type Services } from "../services.js";
import type { EntryFilter } from "../store/store.js";

export type ReviewReason =
  | { kind: "draft" }
  /** Flagged at write time as contradicting these entries, which are still live. */
  | { kind: "contradiction"; with: string[] }
  | { kind: "low_utility"; utility: number }
  /** Agents asked for this approved lesson to be quarantined; a person quarantines it or approves it again. */
  | { kind: "quarantine_request"; requests: string[] }
  /** A hive lesson the project it came from superseded there: a person decides for the hive (supersede, archive, or keep). */
  | { kind: "origin_superseded"; note: string }
  /** Harmful verdicts (agents', mostly) silenced it: injection leaves it out until they fade. A person restores its voice (approve) or retires it. */
  | { kind: "silenced"; harmful: number; helpful: number };

export interface ReviewItem {
  entry: Entry;
  reasons: ReviewReason[];
}

export interface ReviewQueue {
  items: ReviewItem[];
  counts: { drafts: number; contradictions: number; low_utility: number; quarantine_requests: number; origin_superseded: number; silenced: number };
  /** Set when the team hive was unreachable and the answer holds the project tier only: the reason to show. */
  hive_unreachable?: string;
}

export interface Neighbour {
  entry: Entry;
  similarity: number;
  relation: "duplicate" | "contradiction" | "similar";
}

const CONTRADICTS = "contradicts:";
/** Below this a full-text hit shares a word or two, not a subject: not worth a person's glance. */
const MIN_NEIGHBOUR_SIMILARITY = 0.15;

/**
 * Live entries whose utility is at or below the threshold after enough retrievals and enough
 * applications — a lesson agents keep following that keeps going wrong (`cairn list --flagged`).
 */
export async function lowUtilityEntries(s: Services, tier: Tier | "all" = "all", limit = 100): Promise<Entry[]> {
  const k = s.config.knowledge;
  const out: Entry[] = [];
  for (const store of openTiers(s).filter((st) => tier === "all" || st.tier === tier)) {
    const rows = await store.listEntries(lowUtilityFilter(s), { limit });
    // The store works utility out from the counters too; this keeps the rule stated once, in utilityOf.
    out.push(...rows.filter((e) => (utilityOf(e) ?? 1) <= k.low_utility_threshold));
  }
  return out.slice(0, limit);
}

/** How many entries lowUtilityEntries would list in one tier, counted up to `cap` through the utility index. */
export async function countLowUtility(s: Services, tier: Tier, cap: number): Promise<number> {
  const store = openTiers(s).find((st) => st.tier === tier);
  return store ? store.countEntriesCapped(lowUtilityFilter(s), undefined, cap) : 0;
}

function lowUtilityFilter(s: Services): EntryFilter {
  const k = s.config.knowledge;
  return { statuses: LIVE_STATUSES, maxUtility: k.low_utility_threshold, minShown: k.min_retrievals_for_utility, minApplied: k.low_utility_min_applied };
}

/** The words of a hive lesson's origin-superseded flag ("its origin project … superseded it by S-n …"), if it has one. */
export function originSupersededNote(e: Entry): string | undefined {
  return e.lifecycle.flags.find((f) => f.startsWith(ORIGIN_SUPERSEDED))?.slice(ORIGIN_SUPERSEDED.length).trim();
}

export function contradictionTargets(e: Entry): string[] {
  return e.lifecycle.flags.filter((f) => f.startsWith(CONTRADICTS)).map((f) => f.slice(CONTRADICTS.length).trim()).filter(Boolean);
}

/** A contradiction stays open until a person approves the flagged lesson (keeping both) or one side is retired. */
async function openContradictions(s: Services, e: Entry): Promise<string[]> {
  if (e.provenance.approved_at) return [];
  const live: string[] = [];
  for (const id of contradictionTargets(e)) {
    const other = await locate(s, id).catch(() => undefined);
    if (other && LIVE_STATUSES.includes(other.entry.lifecycle.status)) live.push(other.entry.id);
  }
  return live;
}

/**
 * Live lessons their verdicts silenced now (isDiscredited: what injection leaves out), found through the harmful
 * counter (a silenced lesson has at least SILENCING_HARMFUL undecayed), never by reading every entry.
 */
async function silencedEntries(s: Services, limit: number): Promise<Entry[]> {
  const out: Entry[] = [];
  const halfLife = s.config.knowledge.feedback_half_life_days;
  for (const store of openTiers(s)) {
    // Verdicts fade: more rows than the limit are read so that faded ones do not crowd out silenced ones.
    const rows = await store.listEntries({ statuses: LIVE_STATUSES, minHarmful: SILENCING_HARMFUL }, { order: "oldest", limit: 10 * limit });
    out.push(...rows.filter((e) => isDiscredited(e, s.now(), halfLife)));
  }
  return out.slice(0, limit);
}

/** Oldest drafts first (they have waited longest), then open contradictions, agents' quarantine requests, silenced lessons, then low utility; one item per entry. */
export async function reviewQueue(s: Services, opts: { limit?: number } = {}): Promise<ReviewQueue> {
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500);
  const items = new Map<string, ReviewItem>();
  const add = (entry: Entry, reason: ReviewReason) => {
    const item = items.get(entry.id) ?? { entry, reasons: [] };
    item.reasons.push(reason);
    items.set(entry.id, item);
  };
  const counts = { drafts: 0, contradictions: 0, low_utility: 0, quarantine_requests: 0, origin_superseded: 0, silenced: 0 };
  const drafts: Entry[] = [];
  const flagged: Entry[] = [];
  const requested: Entry[] = [];
  const outgrown: Entry[] = [];
  for (const store of openTiers(s)) {
    // Requests are found through their events (indexed by type), never by reading every entry's flags.
    const seen = new Set<string>();
    for (const ev of await store.listEventsByType("quarantine_requested", "", 10 * limit)) {
      if (seen.has(ev.entry_id)) continue;
      seen.add(ev.entry_id);
      const e = await store.getEntry(ev.entry_id);
      if (e && LIVE_STATUSES.includes(e.lifecycle.status) && quarantineRequests(e).length) requested.push(e);
    }
    counts.drafts += await store.countEntries({ statuses: ["draft"] });
    drafts.push(...(await store.listEntries({ statuses: ["draft"] }, { order: "oldest", limit })));
    flagged.push(...(await store.listEntries({ statuses: MERGEABLE, contradicted: true }, { order: "oldest", limit })));
    if (store.tier === "hive") outgrown.push(...(await store.listEntries({ statuses: LIVE_STATUSES, flagPrefix: ORIGIN_SUPERSEDED }, { order: "oldest", limit })));
  }
  drafts.sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const e of drafts.slice(0, limit)) add(e, { kind: "draft" });
  for (const e of flagged) {
    const open = await openContradictions(s, e);
    if (!open.length) continue;
    counts.contradictions++;
    add(e, { kind: "contradiction", with: open });
  }
  counts.quarantine_requests = requested.length;
  for (const e of requested) add(e, { kind: "quarantine_request", requests: quarantineRequests(e) });
  for (const e of outgrown) {
    const note = originSupersededNote(e);
    if (!note) continue;
    counts.origin_superseded++;
    add(e, { kind: "origin_superseded", note });
  }
  const silenced = await silencedEntries(s, limit);
  counts.silenced = silenced.length;
  for (const e of silenced) add(e, { kind: "silenced", harmful: e.usage.harmful, helpful: e.usage.helpful });
  const low = await lowUtilityEntries(s, "all", limit);
  counts.low_utility = low.length;
  for (const e of low) add(e, { kind: "low_utility", utility: utilityOf(e) ?? 0 });
  return { items: [...items.values()].slice(0, limit), counts };
}

/**
 * The existing lessons closest to this one, from the full-text index (never a scan), each with
 * how it relates: what a person needs beside a draft to decide approve, reject or supersede.
 */
export async function nearestEntries(s: Services, entry: Entry, limit = 3): Promise<Neighbour[]> {
  // A dozen terms find the neighbours; more only make the OR query slower.
  const terms = queryTerms(entry.lesson, 12);
  const profile = profileLesson(entry.lesson);
  const threshold = s.config.knowledge.dedup_threshold;
  const seen = new Set<string>([entry.id]);
  const out: Neighbour[] = [];
  const consider = (other: Entry) => {
    if (seen.has(other.id)) return;
    seen.add(other.id);
    const cmp = compareLessons(profile, other.lesson, threshold);
    out.push({ entry: other, similarity: cmp.similarity, relation: cmp.duplicate ? "duplicate" : cmp.contradiction ? "contradiction" : "similar" });
  };
  for (const id of contradictionTargets(entry)) {
    const other = await locate(s, id).catch(() => undefined);
    if (other) consider(other.entry);
  }
  if (terms.length) {
    for (const store of openTiers(s)) {
      for (const h of await store.searchEntries(terms, { statuses: MERGEABLE }, limit + 2)) consider(h.entry);
    }
  }
  const rank = { contradiction: 0, duplicate: 1, similar: 2 } as const;
  return out
    .filter((n) => n.relation !== "similar" || n.similarity >= MIN_NEIGHBOUR_SIMILARITY)
    .sort((a, b) => rank[a.relation] - rank[b.relation] || b.similarity - a.similarity).slice(0, limit);
}
