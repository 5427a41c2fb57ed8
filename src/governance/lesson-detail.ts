// One lesson as a person reviews it: every field, its event history, lineage, usage, and where it would be injected.
import { idsNamedIn, type EntryLinks } from "../core/entry-links.js";
import { LIVE_STATUSES, type Entry, type EntryEvent, type Status, type Tier } from "../core/entry.js";
import { decayedFeedback, roundSum } from "../lifecycle/feedback.js";
import { locate } from "../lifecycle/status.js";
import { utilityOf } from "../lifecycle/utility.js";
import { storeFor, type Services } from "../services.js";
import { contradictionTargets } from "./queue.js";
import { ADVISORY_STATUSES, appliesToProject } from "./rules.js";

/** Another entry this one points at; `missing` when it was removed or lives in another project's tier. */
export interface LinkedEntry {
  id: string;
  handle?: string;
  tier?: Tier;
  lesson?: string;
  status?: Status;
  missing?: boolean;
  /** Where it came from, when it is not in this project (a promoted lesson's source project). */
  project_id?: string;
}

export interface Lineage {
  supersedes?: LinkedEntry;
  superseded_by?: LinkedEntry;
  /** The swarm entry a hive entry was promoted from. */
  promoted_from?: LinkedEntry;
  /** The hive entry a swarm entry was promoted to. */
  promoted_to?: LinkedEntry;
  contradicts: LinkedEntry[];
  /** Near-duplicates merged into this entry: each sighting that reinforced it. */
  merged: EntryEvent[];
}

/** Where the lesson would reach an agent; the page turns this into sentences. */
export interface Reach {
  /** Live statuses are recalled and injected; drafts wait for a person; the rest are retired. */
  live: boolean;
  status: Status;
  scope: string;
  /** Whether the scope is in `knowledge.scope_filter` (otherwise only contexts with that stack see it). */
  scope_default: boolean;
  /** For this project, when the lesson names projects. */
  applies_here: boolean;
  projects: string[];
  file_globs: string[];
  tech_stack: string[];
  triggers: string[];
  /** Empty = the orchestrators, and any agent the directive fits. */
  agents: string[];
  tools: string[];
  /** Required/forbidden actions or checks: delegated agents get it too. */
  directive: boolean;
  /** Vetted and carrying globs or a pattern: agents are told before matching edits. */
  advisory: boolean;
  enforcement: "warn" | "enforce";
}

export interface LessonDetail {
  entry: Entry;
  utility: number | null;
  events: EntryEvent[];
  lineage: Lineage;
  reach: Reach;
  /** The handle of each entry the events name by id (a supersede's `by`, …), for the timeline. */
  handles: Record<string, string>;
}

const MAX_EVENTS = 500;

/** Only the id and handle (no text): an agent may be shown the links of a lesson whose replacement it may not read. */
export async function entryLinks(s: Services, e: Entry): Promise<EntryLinks> {
  const out: EntryLinks = {};
  for (const k of ["supersedes", "superseded_by"] as const) {
    const l = await linked(s, e.lifecycle[k]);
    if (l) out[k] = l.missing ? { id: l.id, missing: true } : { id: l.id, ...(l.handle ? { handle: l.handle } : {}) };
  }
  return out;
}

/** The handle of each entry these events name by id (LINK_FIELDS); ids no longer here are left out. */
export async function eventHandles(s: Services, events: readonly EntryEvent[]): Promise<Record<string, string>> {
  const ids = [...new Set(events.flatMap((ev) => idsNamedIn(ev.data)))].slice(0, 200);
  const out: Record<string, string> = {};
  for (const id of ids) {
    const l = await linked(s, id).catch(() => undefined);
    if (l?.handle) out[id] = l.handle;
  }
  return out;
}

async function linked(s: Services, id: string | undefined): Promise<LinkedEntry | undefined> {
  if (!id) return undefined;
  const loc = await locate(s, id).catch(() => undefined);
  if (!loc) return { id, missing: true };
  const e = loc.entry;
  return { id: e.id, handle: e.handle, tier: e.tier, lesson: e.lesson, status: e.lifecycle.status };
}

function reachOf(s: Services, e: Entry): Reach {
  const a = e.applicability;
  const d = e.directive;
  return {
    live: LIVE_STATUSES.includes(e.lifecycle.status),
    status: e.lifecycle.status,
    scope: a.scope,
    scope_default: s.config.knowledge.scope_filter.includes(a.scope),
    applies_here: appliesToProject(a.projects.map((p) => p.toLowerCase()), s.project),
    projects: a.projects,
    file_globs: a.file_globs,
    tech_stack: a.tech_stack,
    triggers: a.triggers,
    agents: a.agents,
    tools: a.tools,
    directive: d.required_actions.length + d.forbidden_actions.length + d.verification_checks.length > 0,
    advisory: ADVISORY_STATUSES.includes(e.lifecycle.status) && (a.file_globs.length > 0 || Boolean(e.prevention.detection_pattern)),
    enforcement: d.enforcement,
  };
}

/**
 * The entry as a person or agent is shown it: helpful and harmful decayed to now, the sums ranking
 * weighs. Stored sums are decayed only to the last verdict, so a year-old "helpful 2" would otherwise
 * still show while recall has long let it fade. A copy; the stored entry is not changed.
 */
export function shownEntry(s: Services, e: Entry): Entry {
  const d = decayedFeedback(e, s.now(), s.config.knowledge.feedback_half_life_days);
  return { ...e, usage: { ...e.usage, helpful: roundSum(d.helpful), harmful: roundSum(d.harmful) } };
}

export async function lessonDetail(s: Services, stored: Entry): Promise<LessonDetail> {
  const entry = shownEntry(s, stored);
  const events = await storeFor(s, entry.tier).listEvents(entry.id, MAX_EVENTS);
  const from = entry.provenance.promoted_from;
  let promoted_from: LinkedEntry | undefined;
  if (from) {
    const here = await linked(s, from.entry_id);
    promoted_from = here?.missing ? { id: from.entry_id, missing: true, ...(from.project_id ? { project_id: from.project_id } : {}) } : here;
  }
  const contradicts: LinkedEntry[] = [];
  for (const id of contradictionTargets(entry)) {
    const l = await linked(s, id);
    if (l) contradicts.push(l);
  }
  const lineage: Lineage = {
    contradicts,
    merged: events.filter((ev) => ev.type === "reinforced"),
  };
  const supersedes = await linked(s, entry.lifecycle.supersedes);
  if (supersedes) lineage.supersedes = supersedes;
  const supersededBy = await linked(s, entry.lifecycle.superseded_by);
  if (supersededBy) lineage.superseded_by = supersededBy;
  if (promoted_from) lineage.promoted_from = promoted_from;
  // The promoted_to column, not the events read above: a promotion after MAX_EVENTS others is past them.
  const wentUpAs = await storeFor(s, entry.tier).promotedTo([entry.id]);
  const promotedTo = await linked(s, wentUpAs.get(entry.id));
  if (promotedTo) lineage.promoted_to = promotedTo;
  return { entry, utility: utilityOf(entry), events, lineage, reach: reachOf(s, entry), handles: await eventHandles(s, events) };
}
