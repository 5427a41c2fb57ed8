// The knowledge dashboard (Knowledge Objects phase 4): usage over time, lessons needing attention, rejections, the hive's projects, the reflection queue.
import { LIVE_STATUSES, type Entry, type EventType, type Tier } from "../core/entry.js";
import type { QueuedOutcome, QueueStatus, ProjectUsageSummary, SourceProject } from "../store/store.js";
import { openTiers, type Services } from "../services.js";
import { vettedOriginalsWithCopies, type GovernanceMetrics } from "./metrics.js";
import { ADVISORY_STATUSES } from "./rules.js";
import { lowUtilityEntries } from "./queue.js";

export interface WeekRow {
  /** Monday of the week (UTC), YYYY-MM-DD. */
  week: string;
  shown: number;
  applied: number;
  /** applied / shown in that week; null without anything shown. */
  rate: number | null;
  added: number;
  approved: number;
  archived: number;
}

export interface CountedReason {
  reason: string;
  n: number;
}

export interface EntryRef {
  id: string;
  handle: string;
  tier: Tier;
  lesson: string;
  shown: number;
  applied: number;
}

export interface Dashboard {
  weeks: WeekRow[];
  totals: { shown: number; applied: number; rate: number | null; entries: number; live: number };
  low_utility: { count: number; capped: boolean; top: EntryRef[] };
  never_applied: { count: number; capped: boolean; min_shown: number; top: EntryRef[] };
  /** Refused by the gates (the capped rejected list, by first reason code) and by people in review (by reason). */
  rejected: { gates: CountedReason[]; review: CountedReason[] };
  /** Hive lessons per source project. */
  contributions: Array<SourceProject & { current: boolean }>;
  /** Which projects use the hive's lessons: per project, and the lessons used by the most projects. */
  usage: {
    projects: Array<ProjectUsageSummary & { project_name?: string }>;
    lessons: Array<{ entry: EntryRef; projects: Array<{ project_id: string; project_name?: string; shown: number; applied: number }> }>;
  };
  queue: { counts: Partial<Record<QueueStatus, number>>; dead: QueuedOutcome[]; oldest_pending?: string };
  /** The Knowledge Objects targets that can be read cheaply; approvals and rejections within the window. */
  governance: Pick<
    GovernanceMetrics,
    "approvals" | "rejections" | "approval_rate" | "drafts_pending" | "vetted_lessons" | "consultations" | "mean_consultations_per_lesson" | "prevented_total"
  >;
  /** Set when the team hive was unreachable and the figures are the project tier's only: the reason to show. */
  hive_unreachable?: string;
}

const DAY = 86_400_000;
const WEEK_TYPES: readonly EventType[] = ["shown", "applied", "created", "approved", "archived"];
/** Counting stops here: "1,000+" lessons needing attention is the message, not the exact number. */
const ATTENTION_CAP = 1_000;
const TOP = 10;

/** Monday 00:00 UTC of the week holding `d`. */
export function weekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
}

function refOf(e: Entry): EntryRef {
  return { id: e.id, handle: e.handle, tier: e.tier, lesson: e.lesson, shown: e.usage.shown, applied: e.usage.applied };
}

function tally(xs: Iterable<string>, limit: number): CountedReason[] {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m.entries()].map(([reason, n]) => ({ reason, n })).sort((a, b) => b.n - a.n || a.reason.localeCompare(b.reason)).slice(0, limit);
}

async function weekly(s: Services, weeks: number): Promise<WeekRow[]> {
  const first = new Date(weekStart(s.now()).getTime() - (weeks - 1) * 7 * DAY);
  const rows = new Map<string, WeekRow>();
  for (let i = 0; i < weeks; i++) {
    const week = new Date(first.getTime() + i * 7 * DAY).toISOString().slice(0, 10);
    rows.set(week, { week, shown: 0, applied: 0, rate: null, added: 0, approved: 0, archived: 0 });
  }
  for (const store of openTiers(s)) {
    for (const c of await store.eventCountsByDay(WEEK_TYPES, first.toISOString().slice(0, 10))) {
      const row = rows.get(weekStart(new Date(`${c.day}T00:00:00Z`)).toISOString().slice(0, 10));
      if (!row) continue;
      if (c.type === "shown") row.shown += c.n;
      else if (c.type === "applied") row.applied += c.n;
      else if (c.type === "created") row.added += c.n;
      else if (c.type === "approved") row.approved += c.n;
      else if (c.type === "archived") row.archived += c.n;
    }
  }
  for (const r of rows.values()) r.rate = r.shown > 0 ? r.applied / r.shown : null;
  return [...rows.values()];
}

async function neverApplied(s: Services): Promise<Dashboard["never_applied"]> {
  const minShown = s.config.knowledge.min_retrievals_for_utility;
  const filter = { statuses: LIVE_STATUSES, minShown, maxApplied: 0 };
  let count = 0;
  const top: Array<{ e: Entry; shown: number }> = [];
  for (const store of openTiers(s)) {
    count += await store.countEntriesCapped(filter, undefined, ATTENTION_CAP);
    for (const r of await store.pageEntries({ filter, sort: "shown", desc: true, limit: TOP })) top.push({ e: r.entry, shown: r.entry.usage.shown });
  }
  top.sort((a, b) => b.shown - a.shown);
  return { count, capped: count >= ATTENTION_CAP, min_shown: minShown, top: top.slice(0, TOP).map((t) => refOf(t.e)) };
}

async function rejections(s: Services, since: string): Promise<Dashboard["rejected"]> {
  const gates: string[] = [];
  const review: string[] = [];
  for (const store of openTiers(s)) {
    for (const r of await store.listRejected(s.config.knowledge.rejected_max_entries)) gates.push(r.codes[0] ?? "other");
    for (const ev of await store.listEventsByType("archived", since, 5_000)) {
      if (ev.data.review !== "rejected") continue;
      const reason = typeof ev.data.reason === "string" ? ev.data.reason.trim().toLowerCase().slice(0, 80) : "";
      review.push(reason || "(no reason given)");
    }
  }
  return { gates: tally(gates, 12), review: tally(review, 12) };
}

async function hiveProjects(s: Services): Promise<Pick<Dashboard, "contributions" | "usage">> {
  const hive = s.hive;
  if (!hive) return { contributions: [], usage: { projects: [], lessons: [] } };
  const contributions = (await hive.sourceProjects(20)).map((p) => ({ ...p, current: p.project_id === s.project.id }));
  const names = new Map(contributions.filter((p) => p.project_name).map((p) => [p.project_id, p.project_name!]));
  names.set(s.project.id, s.project.name);
  const named = <T extends { project_id: string }>(x: T) => ({ ...x, ...(names.has(x.project_id) ? { project_name: names.get(x.project_id)! } : {}) });
  const usage = await hive.projectUsage(TOP);
  const lessons: Dashboard["usage"]["lessons"] = [];
  for (const row of usage.entries) {
    let item = lessons.find((l) => l.entry.id === row.entry_id);
    if (!item) {
      const e = await hive.getEntry(row.entry_id);
      if (!e) continue;
      item = { entry: refOf(e), projects: [] };
      lessons.push(item);
    }
    item.projects.push(named({ project_id: row.project_id, shown: row.shown, applied: row.applied }));
  }
  return { contributions, usage: { projects: usage.projects.map(named), lessons } };
}

export async function dashboard(s: Services, opts: { weeks?: number } = {}): Promise<Dashboard> {
  const weeks = Math.min(Math.max(Math.trunc(opts.weeks ?? 12), 1), 104);
  const rows = await weekly(s, weeks);
  const since = `${rows[0]!.week}T00:00:00.000Z`;
  const totals = { shown: 0, applied: 0, entries: 0, live: 0, prevented: 0, drafts: 0, vetted: 0, consulted: 0 };
  for (const store of openTiers(s)) {
    // Both sums read the entries_usage index alone (migration 6).
    const u = await store.sumUsage();
    const v = await store.sumUsage({ statuses: ADVISORY_STATUSES });
    totals.shown += u.shown;
    totals.applied += u.applied;
    totals.prevented += u.prevented;
    totals.vetted += v.entries;
    totals.consulted += v.consulted;
    totals.entries += await store.totalEntries();
    totals.live += await store.countEntries({ statuses: LIVE_STATUSES });
    totals.drafts += await store.countEntries({ statuses: ["draft"] });
  }
  totals.vetted -= await vettedOriginalsWithCopies(s);
  const low = await lowUtilityEntries(s, "all", ATTENTION_CAP);
  const rejected = await rejections(s, since);
  const approvals = rows.reduce((n, r) => n + r.approved, 0);
  const rejectionsInReview = rejected.review.reduce((n, r) => n + r.n, 0);
  const queueCounts = await s.swarm.queueCounts();
  const oldest = (await s.swarm.listQueue("pending", 1))[0];
  return {
    weeks: rows,
    totals: { shown: totals.shown, applied: totals.applied, rate: totals.shown > 0 ? totals.applied / totals.shown : null, entries: totals.entries, live: totals.live },
    low_utility: { count: low.length, capped: low.length >= ATTENTION_CAP, top: low.slice(0, TOP).map(refOf) },
    never_applied: await neverApplied(s),
    rejected,
    ...(await hiveProjects(s)),
    queue: { counts: queueCounts, dead: await s.swarm.listQueue("dead", TOP), ...(oldest ? { oldest_pending: oldest.enqueued_at } : {}) },
    governance: {
      approvals,
      rejections: rejectionsInReview,
      approval_rate: approvals + rejectionsInReview > 0 ? approvals / (approvals + rejectionsInReview) : null,
      drafts_pending: totals.drafts,
      vetted_lessons: totals.vetted,
      consultations: totals.consulted,
      mean_consultations_per_lesson: totals.vetted > 0 ? totals.consulted / totals.vetted : null,
      prevented_total: totals.prevented,
    },
  };
}
