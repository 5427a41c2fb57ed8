// Status changes a person or agent asks for: quarantine, restore (re-validated), archive, remove, supersede.
import { lastPromotionHiveId } from "../core/entry-links.js";
import type { Entry, EntryEvent, Status } from "../core/entry.js";
import { assertFits, QUARANTINE_REQUEST, REASON_MAX, REQUEST_ACTOR_MAX } from "../core/free-text.js";
import { validateEntryRef } from "../core/ids.js";
import { CairnError, NotFoundError } from "../errors.js";
import { isHumanActor, needsApproval } from "../governance/actors.js";
import { openTiers, type Services } from "../services.js";
import { isOriginFlagOf, originFlagPrefix } from "./origin-superseded.js";
import { DuplicateEntryError, type Store } from "../store/store.js";
import { findNeighbours } from "./neighbours.js";

export interface Located {
  entry: Entry;
  store: Store;
}

/** Finds an entry by id, handle or external id in either tier (swarm first). */
export async function locate(s: Services, ref: string): Promise<Located> {
  const safe = validateEntryRef(ref);
  for (const store of openTiers(s)) {
    const entry = await store.getEntry(safe);
    if (entry) return { entry, store };
  }
  throw new NotFoundError(safe, s.hive ? undefined : `in the project tier (${s.faults?.hive ? "the hive's database is damaged and left out" : "the hive is disabled: knowledge.hive_enabled = false"})`);
}

/**
 * A person's approval is a decision only a person may undo (seed 004: Knowledge Objects are
 * human-only after approval). Agents may propose — a flag, a superseding draft, a quarantine
 * request — but never remove, archive, quarantine or supersede away what a person approved.
 * Every face (CLI, MCP, OpenCode, web) reaches these functions, so the rule lives here once.
 */
export function approvedByPerson(e: Entry): boolean {
  return Boolean(e.provenance.approved_at);
}

/** True when `actor` may not retire `e` itself (it may only ask a person to). */
export function protectedFrom(e: Entry, actor: string): boolean {
  return approvedByPerson(e) && !isHumanActor(actor);
}

function assertMayRetire(e: Entry, actor: string, what: string): void {
  if (!protectedFrom(e, actor)) return;
  const by = e.provenance.approved_by ? ` by ${e.provenance.approved_by}` : " by a person";
  throw new CairnError(
    "FORBIDDEN",
    `${e.handle} was approved${by}; only a person can ${what} it. Use knowledge_quarantine to ask a person to review it, ` +
      "or add a corrected lesson that supersedes it (it waits for a person's approval).",
    { actor: actor.slice(0, 80), id: e.id },
  );
}

/** A person, or an import a person runs (`import:human:…`): what they write carries a person's choice. */
export function actsForPerson(actor: string): boolean {
  return isHumanActor(actor) || (actor.startsWith("import:") && isHumanActor(actor.slice("import:".length)));
}

/**
 * Why an agent may not name this lesson as the one it supersedes, or undefined when it may. A lesson a person
 * archived is that person's decision, and an agent's replacement would end it (approved, it marks the lesson
 * superseded and takes its place). An agent's own archive, or the sweep's, is no person's decision. A quarantined
 * lesson or a draft does not exist for an agent at all (the callers answer "no entry", as `show` does), so it is
 * not named here.
 */
export async function agentReplaceRefusal(store: Store, e: Entry, actor: string): Promise<string | undefined> {
  if (actsForPerson(actor) || e.lifecycle.status !== "archived") return undefined;
  const by = await retiredBy({ entry: e, store });
  if (!by || !isHumanActor(by)) return undefined;
  return (
    `${e.handle} was archived by a person; only a person can supersede it. Add your lesson without supersedes (it is stored on its own), ` +
    `and a person may replace ${e.handle} with it (\`cairn supersede ${e.handle} NEW\`, NEW being your lesson's handle).`
  );
}

/**
 * A lesson that does not exist for `actor`: a draft to anyone but a person (it waits for one), a quarantined
 * lesson to anyone not acting for a person (it is hidden from every agent). A write naming one finds no entry.
 */
export function hiddenFrom(e: Entry, actor: string): boolean {
  const status = e.lifecycle.status;
  return (status === "draft" && !isHumanActor(actor)) || (status === "quarantined" && !actsForPerson(actor));
}

/** Refuses an agent's supersede of a lesson it cannot see (NOT_FOUND, as `show` answers) or a person archived (FORBIDDEN). */
export async function assertAgentMayReplace(store: Store, e: Entry, actor: string, ref: string = e.handle): Promise<void> {
  if (actsForPerson(actor)) return;
  if (hiddenFrom(e, actor)) throw new NotFoundError(ref);
  const refusal = await agentReplaceRefusal(store, e, actor);
  if (refusal) throw new CairnError("FORBIDDEN", refusal, { actor: actor.slice(0, 80), id: e.id, status: e.lifecycle.status });
}

/** A status change, with what changed along with it (a hive copy's project original). */
export type StatusChange = Entry & {
  also?: Array<{ id: string; handle: string; status: Status }>;
  /** A removed lesson's predecessor, still superseded by it: out of recall until a person restores it. */
  stillSuperseded?: { id: string; handle: string };
};

/** A project original of a hive lesson, with its events when finding it took reading them (callers need not read them again). */
interface Original {
  entry: Entry;
  events?: EntryEvent[];
}

/**
 * This project's originals of a hive lesson: the swarm entries it was promoted from (by promoted_from,
 * or by a `promoted` event naming it, as a promotion that reinforced an existing hive lesson leaves).
 * After a promotion the original is only a record of origin, yet retrieval still finds it, so left
 * alone it would go on injecting the very lesson a person just hid from every agent.
 */
async function originalsHere(s: Services, hive: Entry, statuses: readonly Status[]): Promise<Original[]> {
  const found = new Map<string, Original>();
  const from = hive.provenance.promoted_from;
  if (from && (!from.project_id || from.project_id === s.project.id)) {
    const e = await s.swarm.getEntry(from.entry_id);
    if (e && statuses.includes(e.lifecycle.status)) found.set(e.id, { entry: e });
  }
  // Promoted originals are few (each is a lesson this project handed to the hive), so their events are read directly.
  for await (const e of s.swarm.iterateEntries({ statuses })) {
    if (found.has(e.id)) continue;
    const events = await s.swarm.listEvents(e.id, 1000);
    const last = [...events].reverse().find((ev) => ev.type === "promoted" || ev.type === "quarantined" || ev.type === "archived" || ev.type === "superseded");
    if (last?.data.hive_id === hive.id) found.set(e.id, { entry: e, events });
  }
  return [...found.values()];
}

/** How a lesson leaves circulation together with its lineage: quarantined (suspect) or archived (retired). */
type Retirement = "quarantined" | "archived";

/**
 * A superseded hive copy's originals are replaced by what replaced it (`by`); the others go as their copy went.
 * A removed copy (`went` "removed") archives them: a record of origin of a lesson gone from the hive would
 * otherwise stay `promoted` to nothing and, unhidden (retired-copies.ts finds no retired copy), speak here again.
 */
async function retireOriginals(s: Services, hive: Entry, status: Retirement | "superseded", why: string, actor: string, by?: string, went: string = status): Promise<StatusChange["also"]> {
  const also: NonNullable<StatusChange["also"]> = [];
  for (const { entry: e } of await originalsHere(s, hive, ["promoted"])) {
    if (protectedFrom(e, actor)) continue;
    const done = await s.swarm.updateEntry(
      e.id,
      (x) => {
        x.lifecycle.status = status;
        x.lifecycle.status_reason = fittedReason(`its hive copy ${hive.handle} was ${went}: ${why}`);
        if (by) x.lifecycle.superseded_by = by;
        return x;
      },
      { type: status, actor, data: { from: e.lifecycle.status, reason: why, hive_id: hive.id, ...(by ? { by } : {}), ...(went !== status ? { [went]: true } : {}) } },
    );
    also.push({ id: done.id, handle: done.handle, status: done.lifecycle.status });
  }
  return also;
}

/** Only originals that went with this hive copy come back with it (their last quarantine, archive or supersede names it), as the promoted record they were. */
async function restoreOriginals(s: Services, hive: Entry, actor: string): Promise<StatusChange["also"]> {
  const also: NonNullable<StatusChange["also"]> = [];
  for (const { entry: e, events: read } of await originalsHere(s, hive, ["quarantined", "archived", "superseded"])) {
    const events = read ?? (await s.swarm.listEvents(e.id, 1000));
    const last = [...events].reverse().find((ev) => ev.type === e.lifecycle.status);
    if (last?.data.hive_id !== hive.id) continue;
    const done = await s.swarm.updateEntry(
      e.id,
      (x) => {
        x.lifecycle.status = "promoted";
        x.lifecycle.status_reason = `promoted to hive as ${hive.id}; restored with it`;
        delete x.lifecycle.superseded_by;
        return x;
      },
      { type: "restored", actor, data: { from: e.lifecycle.status, hive_id: hive.id } },
    );
    also.push({ id: done.id, handle: done.handle, status: done.lifecycle.status });
  }
  return also;
}

/**
 * The hive copy a promoted swarm entry went up as (its latest `promoted` event, its promoted_to), or null once that copy
 * was removed. Undefined when the hive cannot say (unreachable): the entry then counts as still there.
 */
export async function hiveCopyOf(s: Services, e: Entry): Promise<Entry | null | undefined> {
  // Its promoted_to column, by key: the latest promotion, however long the entry's history.
  const hiveId = (await s.swarm.promotedTo([e.id])).get(e.id);
  if (!hiveId || !s.hive) return undefined;
  try {
    return (await s.hive.getEntry(hiveId)) ?? null;
  } catch {
    return undefined;
  }
}

/** Statuses in which a lesson no longer reaches agents. */
const RETIRED: readonly Status[] = ["quarantined", "archived", "superseded"];

/**
 * Quarantining or archiving a promoted original is retiring its lesson: agents read the hive copy, not
 * the original (a record of origin), so retiring only the original would leave the same text in every
 * project's prompts, this one's included. The hive copy is retired instead, which takes this original
 * with it (retireOriginals); undefined when there is no live copy to go through, or (archive) the copy
 * is one a person approved, or another project contributed, and this actor is not a person: then only
 * the original is retired (assertAgentMayRetireFromHive). A promotion that reinforced a lesson the hive
 * already held is treated the same as a copy it created: quarantined (a request a person reviews), it is
 * retired for all alike; archived, for all only by a person or an agent of the project that contributed
 * it. A supersede, which names a replacement only this project has, hides it here only (recall's
 * withoutCopiesOfSupersededOriginals), as it does a created copy.
 */
async function retireThroughHiveCopy(s: Services, original: Entry, status: Retirement, why: string, actor: string): Promise<StatusChange | undefined> {
  if (original.tier !== "swarm" || original.lifecycle.status !== "promoted") return undefined;
  const copy = await hiveCopyOf(s, original);
  if (!copy || RETIRED.includes(copy.lifecycle.status)) return undefined;
  if (status === "archived" && (protectedFrom(copy, actor) || mayNotRetireFromHive(s, copy, actor))) return undefined;
  const done = status === "quarantined" ? await quarantineEntry(s, copy.id, why, actor) : await archiveEntry(s, copy.id, why, actor);
  const now = await s.swarm.getEntry(original.id);
  if (!now || now.lifecycle.status !== status) return undefined;
  return { ...now, also: [{ id: done.id, handle: done.handle, status: done.lifecycle.status }] };
}

/** The hive copy a retired original went with (its last retirement event names it), while that copy is retired the same way. */
async function retiredHiveCopy(s: Services, original: Entry): Promise<Entry | undefined> {
  const status = original.lifecycle.status;
  if (original.tier !== "swarm" || !["quarantined", "archived", "superseded"].includes(status) || !s.hive) return undefined;
  const events = await s.swarm.listEvents(original.id, 1_000_000);
  const hiveId = [...events].reverse().find((ev) => ev.type === status)?.data.hive_id;
  if (typeof hiveId !== "string") return undefined;
  const copy = await s.hive.getEntry(hiveId).catch(() => undefined);
  return copy && copy.lifecycle.status === status ? copy : undefined;
}

/** Restoring an original that went with its hive copy (quarantined, archived or superseded) restores the copy, which brings the original back as promoted. */
async function restoreThroughHiveCopy(s: Services, original: Entry, actor: string): Promise<StatusChange | undefined> {
  const status = original.lifecycle.status;
  const copy = await retiredHiveCopy(s, original);
  if (!copy) return undefined;
  const done = await restoreEntry(s, copy.id, actor);
  const now = await s.swarm.getEntry(original.id);
  if (!now || now.lifecycle.status === status) return undefined;
  return { ...now, also: [{ id: done.id, handle: done.handle, status: done.lifecycle.status }] };
}

export { QUARANTINE_REQUEST };

export function quarantineRequests(e: Entry): string[] {
  return e.lifecycle.flags.filter((f) => f.startsWith(QUARANTINE_REQUEST));
}

/** The request as the review queue shows it: the whole reason (it fits REASON_MAX, so the flag fits FLAG_MAX), on one line. */
function requestFlag(actor: string, reason: string): string {
  return `${requestPrefix(actor)} ${reason.replace(/\s+/g, " ").trim()}`;
}

function requestPrefix(actor: string): string {
  return `${QUARANTINE_REQUEST}${actor.slice(0, REQUEST_ACTOR_MAX)}:`;
}

/** A reason Cairn composes around a given one (which fits, assertFits) is cut to the schema's limit, visibly. */
function fittedReason(reason: string): string {
  return reason.length <= REASON_MAX ? reason : reason.slice(0, REASON_MAX - 1) + "…";
}

async function setStatus(loc: Located, status: Status, actor: string, type: "quarantined" | "restored" | "archived", given?: string): Promise<Entry> {
  const reason = given ? fittedReason(given) : undefined;
  return loc.store.updateEntry(
    loc.entry.id,
    (e) => {
      e.lifecycle.status = status;
      if (reason) e.lifecycle.status_reason = reason;
      else delete e.lifecycle.status_reason;
      return e;
    },
    { type, actor, data: { from: loc.entry.lifecycle.status, ...(reason ? { reason } : {}) } },
  );
}

/**
 * An agent's quarantine of a lesson a person approved only records a request (a flag the review
 * queue shows, and a `quarantine_requested` event): the lesson stays in circulation until a person
 * quarantines it (which clears the requests) or approves it again (which dismisses them).
 */
export async function quarantineEntry(s: Services, ref: string, reason: string, actor: string): Promise<StatusChange> {
  assertFits("reason", reason, REASON_MAX);
  const loc = await locate(s, ref);
  if (loc.entry.lifecycle.status === "quarantined") return loc.entry;
  const why = fittedReason(reason || "quarantined without a reason");
  if (protectedFrom(loc.entry, actor)) {
    const flag = requestFlag(actor, why);
    const mine = requestPrefix(actor);
    return loc.store.updateEntry(
      loc.entry.id,
      (e) => {
        // One standing request per actor: asking again restates the reason.
        e.lifecycle.flags = [...e.lifecycle.flags.filter((f) => !f.startsWith(mine)), flag];
        return e;
      },
      { type: "quarantine_requested", actor, data: { reason: why } },
    );
  }
  const lineage = await retireThroughHiveCopy(s, loc.entry, "quarantined", why, actor);
  if (lineage) return lineage;
  const done = await loc.store.updateEntry(
    loc.entry.id,
    (e) => {
      e.lifecycle.status = "quarantined";
      e.lifecycle.status_reason = why;
      // A person's quarantine answers every standing request.
      e.lifecycle.flags = e.lifecycle.flags.filter((f) => !f.startsWith(QUARANTINE_REQUEST));
      return e;
    },
    { type: "quarantined", actor, data: { from: loc.entry.lifecycle.status, reason: why } },
  );
  if (loc.store.tier !== "hive") return done;
  const also = await retireOriginals(s, done, "quarantined", why, actor);
  return also?.length ? { ...done, also } : done;
}

/**
 * Where a person changes a stored lesson's fields: the CLI has no edit command (a new `cairn add` of
 * the same lesson is a sighting, which never rewrites the entry), so every message asking for an edit
 * names these two ways.
 */
export const HOW_TO_EDIT = "in `cairn ui`, or in the Markdown mirror: `cairn mirror`, edit the file, `cairn mirror --pull`";

/**
 * Who put a retired lesson where it is: the actor of the latest event that moved it into its current
 * status (quarantined, archived and superseded are each written by an event of that name). Oldest first
 * from the store, so read far enough for a much-shown lesson's history (restoring is rare).
 */
export async function retiredBy(loc: Located): Promise<string | undefined> {
  const status = loc.entry.lifecycle.status;
  const events = await loc.store.listEvents(loc.entry.id, 100_000);
  return [...events].reverse().find((ev) => ev.type === status)?.actor;
}

/**
 * Undoing a person's retirement — a quarantine, an archive (a rejection too), a supersede — is a
 * person's decision, as retiring an approved lesson is (assertMayRetire): `cairn quarantine` hides a
 * lesson "until a person restores it". What an agent (or the system) retired, an agent may restore.
 */
export async function assertMayRestore(loc: Located, actor: string): Promise<void> {
  if (isHumanActor(actor)) return;
  const by = await retiredBy(loc);
  if (!by || !isHumanActor(by)) return;
  const h = loc.entry.handle;
  throw new CairnError(
    "FORBIDDEN",
    `${h} was ${loc.entry.lifecycle.status} by ${by}; only a person can restore it. Ask a person to run \`cairn restore ${h}\`` +
      (loc.entry.lifecycle.status === "superseded" ? "" : " after review") +
      ", or add a corrected lesson (it waits for a person's approval where approval is on).",
    { actor: actor.slice(0, 80), id: loc.entry.id, retired_by: by.slice(0, 80) },
  );
}

// Superseded too: it is the only way back from a supersede made by mistake (a wrong id), and every
// message about a superseded lesson (approve, a re-add of its text) tells the person to restore it.
function assertRetired(e: Entry): void {
  if (!["quarantined", "archived", "superseded"].includes(e.lifecycle.status)) {
    throw new CairnError("CONFLICT", `${e.handle} is ${e.lifecycle.status}, not quarantined, archived or superseded; nothing to restore.`);
  }
}

async function assertPassesGatesAgain(s: Services, e: Entry): Promise<void> {
  // The gates load only when something is restored: reads that locate an entry must not pay for them.
  const { validateLessonText } = await import("../quality/gates.js");
  const imported = e.provenance.derived_from.kind === "import";
  const gate = validateLessonText(e.lesson, { trusted: imported || !s.config.knowledge.validation_enabled });
  if (!gate.ok) {
    const reason = gate.issues.filter((i) => i.severity === "reject").map((i) => i.message).join("; ");
    throw new CairnError("REJECTED", `Cannot restore ${e.handle}: it fails validation now (${reason}). Edit it (${HOW_TO_EDIT}) or remove it.`, {
      issues: gate.issues,
    });
  }
}

/**
 * A lesson learned again while this one was retired (an agent re-adding what the sweep archived, or a
 * rewording of a quarantined one) is the live copy now: restoring this one too would show both, the
 * dedup an add runs bypassed by the way back. Refused, naming the live one. The lesson that replaced a
 * superseded one is no twin: restoring a supersede made by mistake is what restore is for.
 */
async function assertNoLiveTwin(s: Services, loc: Located): Promise<void> {
  const e = loc.entry;
  const twin = (await findNeighbours(loc.store, e.lesson, s.config.knowledge.dedup_threshold, e.id)).duplicate?.entry;
  if (!twin || twin.id === e.lifecycle.superseded_by) return;
  throw liveTwinRefusal(e, twin);
}

/** The refusal of a restore whose lesson `twin` says live, found by the check before the write or inside it. */
function liveTwinRefusal(e: Entry, twin: Entry): CairnError {
  return new CairnError(
    "REJECTED",
    `Cannot restore ${e.handle}: ${twin.handle} (${twin.lifecycle.status}) says the same and is live ("${twin.lesson}"). Keep ${twin.handle}, or remove it (\`cairn remove ${twin.handle}\`) and restore ${e.handle} again.`,
    { duplicate: twin.id, issues: [{ layer: "quality", severity: "reject", code: "duplicate", message: `${twin.handle} says the same and is live` }] },
  );
}

/**
 * Throws what restoreEntry would refuse with (not retired, not this actor's to restore, fails the gates
 * now), writing nothing: a change that restores a lesson as its last step checks first, so a refusal
 * leaves it all unsaved rather than half done. A lesson that comes back through its hive copy is
 * judged by that copy, as restoreEntry restores it.
 */
export async function assertRestorable(s: Services, ref: string, actor: string): Promise<void> {
  const loc = await locate(s, ref);
  assertRetired(loc.entry);
  await assertMayRestore(loc, actor);
  const copy = await retiredHiveCopy(s, loc.entry);
  if (copy) return assertRestorable(s, copy.id, actor);
  await assertPassesGatesAgain(s, loc.entry);
  await assertNoLiveTwin(s, loc);
}

/**
 * The hive lesson a retired project original is still the record of: it was promoted when it was
 * retired (its retirement event's `from`; a supersede recorded before `from` was written counts as
 * promoted when its last status change before it was a promotion) and that hive copy is still there
 * (or the hive cannot say). Restoring it then brings back `promoted`, the status it had, not the
 * candidate it was before its promotion; a removed copy leaves it a project lesson that may go up again.
 */
async function stillPromotedAs(s: Services, loc: Located): Promise<string | undefined> {
  const e = loc.entry;
  if (loc.store.tier !== "swarm") return undefined;
  const events = await s.swarm.listEvents(e.id, 1_000_000);
  const at = events.map((ev): string => ev.type).lastIndexOf(e.lifecycle.status);
  if (at < 0) return undefined;
  const from = events[at]!.data.from ?? (e.lifecycle.status === "superseded" ? statusBefore(events.slice(0, at)) : undefined);
  if (from !== "promoted") return undefined;
  const hiveId = lastPromotionHiveId(events);
  if (!hiveId) return undefined;
  // As hiveCopyOf: a hive that cannot answer counts the copy as still there.
  const gone = s.hive ? await s.hive.getEntry(hiveId).then((copy) => !copy, () => false) : false;
  return gone ? undefined : hiveId;
}

/** The status the last status change among `events` left (promoted, or restored with its hive copy, read as promoted). */
function statusBefore(events: readonly EntryEvent[]): Status | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i]!;
    if (ev.type === "promoted" || (ev.type === "restored" && typeof ev.data.hive_id === "string")) return "promoted";
    if (["restored", "quarantined", "archived", "superseded", "approved"].includes(ev.type)) return undefined;
  }
  return undefined;
}

export interface RestoreOptions {
  /** Restore only while the lesson is still superseded by this entry (an edit dropping its supersedes link). */
  supersededBy?: string;
}

function assertStillSupersededBy(e: Entry, by: string | undefined): void {
  if (by === undefined || (e.lifecycle.status === "superseded" && e.lifecycle.superseded_by === by)) return;
  throw new CairnError("CONFLICT", `${e.handle} changed meanwhile: it is ${e.lifecycle.status}${e.lifecycle.superseded_by ? ` (superseded by ${e.lifecycle.superseded_by})` : ""}, no longer superseded by ${by}; look at it again.`, { id: e.id });
}

function changedWhileRestoring(now: Entry, read: Entry): CairnError {
  return new CairnError("CONFLICT", `${now.handle} changed while it was being restored (${read.lifecycle.status} → ${now.lifecycle.status}, at ${now.updated_at}); nothing restored. Look at it again, then restore it if it still should be.`, { id: now.id });
}

/**
 * Restoring runs the gates again: a quarantined lesson must not come back in through a side door.
 * An imported lesson meets the gates of an import it could have come by (a `--trusted` load skips the
 * length, advice and vagueness checks, never secrets, injection markers or sanitising): else every long
 * note of a trusted load, once quarantined, could never come back.
 */
export async function restoreEntry(s: Services, ref: string, actor: string, opts: RestoreOptions = {}): Promise<StatusChange> {
  const loc = await locate(s, ref);
  assertStillSupersededBy(loc.entry, opts.supersededBy);
  assertRetired(loc.entry);
  await assertMayRestore(loc, actor);
  const lineage = await restoreThroughHiveCopy(s, loc.entry, actor);
  if (lineage) return lineage;
  await assertPassesGatesAgain(s, loc.entry);
  await assertNoLiveTwin(s, loc);
  // A lesson written under approval that no person approved yet goes back to the review queue: a restore is no approval.
  const e0 = loc.entry;
  const awaitsReview =
    !e0.provenance.approved_at && needsApproval(s.config, e0.tier, e0.provenance.created_by, e0.provenance.derived_from.kind === "import" ? "import" : "add");
  const promotedAs = await stillPromotedAs(s, loc);
  const status: Status = promotedAs
    ? "promoted"
    : awaitsReview
      ? "draft"
      : e0.provenance.approved_at || e0.lifecycle.confirmations.length >= s.config.knowledge.confirmations_to_establish ? "established" : "candidate";
  const { settleFeedback } = await import("./feedback.js");
  const replacedBy = e0.lifecycle.status === "superseded" ? e0.lifecycle.superseded_by : undefined;
  const restored = await loc.store.updateEntry(
    loc.entry.id,
    (e) => {
      // Checked again where the write is atomic: what was judged restorable above is what is restored,
      // not a status another process set since (a person's quarantine must not be undone unasked).
      if (e.lifecycle.status !== e0.lifecycle.status || e.lifecycle.superseded_by !== e0.lifecycle.superseded_by) throw changedWhileRestoring(e, e0);
      e.lifecycle.status = status;
      e.lifecycle.phases_alive = 0;
      settleFeedback(e, s.now(), s.config.knowledge.feedback_half_life_days);
      if (promotedAs) e.lifecycle.status_reason = `promoted to hive as ${promotedAs}; restored`;
      else delete e.lifecycle.status_reason;
      delete e.lifecycle.superseded_by;
      return e;
    },
    { type: "restored", actor, data: { from: loc.entry.lifecycle.status, ...(replacedBy ? { superseded_by: replacedBy } : {}), ...(promotedAs ? { hive_id: promotedAs } : {}) } },
    // The twin check above reads, then this writes: a racing restore or edit of the same lesson in another
    // process is caught here, atomically, under the lock an add of that lesson takes.
    { unique: true, ...(replacedBy ? { twinAllowed: replacedBy } : {}) },
  ).catch((err: unknown) => {
    throw err instanceof DuplicateEntryError ? liveTwinRefusal(e0, err.existing) : err;
  });
  // Both lessons live again, the replacement must not go on claiming to replace it (detail pages, the mirror, approval's retire).
  if (replacedBy) {
    const repl = await locate(s, replacedBy).catch(() => undefined);
    if (repl && repl.entry.lifecycle.supersedes === restored.id) {
      await repl.store.updateEntry(
        repl.entry.id,
        (e) => {
          delete e.lifecycle.supersedes;
          return e;
        },
        { type: "updated", actor, data: { supersedes: { from: restored.id, to: null } } },
      );
    }
  }
  if (loc.store.tier !== "hive") {
    if (replacedBy) await unflagOriginSuperseded(s, restored, actor);
    return restored;
  }
  const also = await restoreOriginals(s, restored, actor);
  return also?.length ? { ...restored, also } : restored;
}

export async function archiveEntry(s: Services, ref: string, reason: string | undefined, actor: string): Promise<StatusChange> {
  assertFits("reason", reason, REASON_MAX);
  const loc = await locate(s, ref);
  assertMayRetire(loc.entry, actor, "archive");
  assertAgentMayRetireFromHive(s, loc.entry, actor, "archive");
  const why = reason ?? "archived by request";
  const lineage = await retireThroughHiveCopy(s, loc.entry, "archived", why, actor);
  if (lineage) return lineage;
  const done = await setStatus(loc, "archived", actor, "archived", why);
  if (loc.store.tier !== "hive") return done;
  const also = await retireOriginals(s, done, "archived", why, actor);
  return also?.length ? { ...done, also } : done;
}

/**
 * Removal works in both tiers; promoted or approved entries need `force` because others rely on them.
 * Only a person may force, and only a person may remove what a person approved.
 */
/** True when this project put the hive lesson there: promoted it from one of its own lessons, or wrote it there directly. */
function contributedHere(s: Services, hive: Entry): boolean {
  const from = hive.provenance.promoted_from?.project_id ?? hive.provenance.source_project_id;
  return from === s.project.id;
}

/**
 * Every project reads the hive, and its lessons are the other projects' records of origin: an agent deletes
 * or archives one only when its own project put it there (either takes it from every project). Another
 * project's lesson is a person's to retire; an agent asks for that by quarantining it (reversible, and a
 * person sees it in review).
 */
function mayNotRetireFromHive(s: Services, e: Entry, actor: string): boolean {
  return e.tier === "hive" && !actsForPerson(actor) && !contributedHere(s, e);
}

function assertAgentMayRetireFromHive(s: Services, e: Entry, actor: string, what: "remove" | "archive"): void {
  if (!mayNotRetireFromHive(s, e, actor)) return;
  const from = e.provenance.source_project_name;
  throw new CairnError(
    "FORBIDDEN",
    `${e.handle} came from another project${from && from !== s.project.name ? ` (${from})` : ""}; only a person can ${what} a hive lesson another project contributed. ` +
      "Use knowledge_quarantine to ask a person to review it, or add a corrected lesson with supersedes.",
    { actor: actor.slice(0, 80), id: e.id },
  );
}

export async function removeEntry(s: Services, ref: string, opts: { force?: boolean; actor: string; reason?: string }): Promise<StatusChange> {
  assertFits("reason", opts.reason, REASON_MAX);
  const loc = await locate(s, ref);
  if (opts.force && !isHumanActor(opts.actor)) {
    throw new CairnError("FORBIDDEN", `Only a person can force a removal: "${opts.actor.slice(0, 80)}" is not a human:* actor.`, { actor: opts.actor.slice(0, 80) });
  }
  assertMayRetire(loc.entry, opts.actor, "remove");
  assertAgentMayRetireFromHive(s, loc.entry, opts.actor, "remove");
  const protectedEntry = loc.entry.lifecycle.status === "promoted" || Boolean(loc.entry.provenance.approved_at);
  if (protectedEntry && !opts.force) {
    throw new CairnError(
      "FORCE_REQUIRED",
      `${loc.entry.handle} is ${loc.entry.provenance.approved_at ? "approved by a person" : "promoted to the hive"}, so removing it must be forced` +
        (isHumanActor(opts.actor) ? " (--force)." : ", which only a person can do (`cairn remove --force`); use knowledge_quarantine to ask for a review."),
    );
  }
  await loc.store.deleteEntry(loc.entry.id, { type: "removed", actor: opts.actor, data: { reason: opts.reason, status: loc.entry.lifecycle.status } });
  const replaced = await predecessorLeftSuperseded(loc.store, loc.entry);
  const removed: StatusChange = replaced ? { ...loc.entry, stillSuperseded: replaced } : loc.entry;
  if (loc.store.tier !== "hive") return removed;
  // This project's originals go with their copy, as they go with an archived or quarantined one.
  const also = await retireOriginals(s, loc.entry, "archived", opts.reason || "removed without a reason", opts.actor, undefined, "removed");
  return also?.length ? { ...removed, also } : removed;
}

/**
 * The lesson `removed` had replaced, when it is still superseded by it. It stays retired (the person may have
 * removed both on purpose), but withdrawing a correction by removing it otherwise left the old lesson out of
 * recall with nothing said: the faces name it and `restore`.
 */
async function predecessorLeftSuperseded(store: Store, removed: Entry): Promise<{ id: string; handle: string } | undefined> {
  const id = removed.lifecycle.supersedes;
  if (!id) return undefined;
  const old = await store.getEntry(id).catch(() => undefined);
  return old?.lifecycle.status === "superseded" && old.lifecycle.superseded_by === removed.id ? { id: old.id, handle: old.handle } : undefined;
}

/**
 * An entry is superseded once: a second replacement would leave two entries each saying it replaced
 * it. The message names the entry that did (its id when that one is gone), the one to supersede now.
 */
export async function assertNotSuperseded(s: Services, e: Entry, replacementId?: string): Promise<void> {
  if (e.lifecycle.status !== "superseded" || (replacementId !== undefined && e.lifecycle.superseded_by === replacementId)) return;
  const id = e.lifecycle.superseded_by;
  const by = id ? await locate(s, id).then((l) => l.entry.handle, () => id) : undefined;
  throw new CairnError("CONFLICT", `${e.handle} is already superseded by ${by ?? "another entry"}; supersede ${by ?? "that entry"} instead.`);
}

export { ORIGIN_SUPERSEDED } from "./origin-superseded.js";

/**
 * Superseding a promoted original with a project lesson replaces it here only: superseding the hive copy
 * would take the lesson from every other project. The copy stays (recall leaves it out in this project)
 * and carries a flag a person sees (`cairn show`, the detail page), to decide for the hive. Best effort:
 * an unreachable hive leaves the copy unflagged, never the supersede undone.
 */
async function flagOriginSuperseded(s: Services, original: Entry, replacement: Entry, actor: string): Promise<void> {
  const copy = await hiveCopyOf(s, original).catch(() => undefined);
  if (!copy || !s.hive || RETIRED.includes(copy.lifecycle.status)) return;
  const text = replacement.lesson.replace(/\s+/g, " ").trim();
  const mine = originFlagPrefix(s.project.name);
  const full = `${mine} by ${replacement.handle} "${text}"`;
  const flag = full.length <= 200 ? full : full.slice(0, 198) + "…\"";
  await s.hive
    .updateEntry(
      copy.id,
      (e) => {
        e.lifecycle.flags = [...e.lifecycle.flags.filter((f) => !isOriginFlagOf(f, s.project.name)), flag];
        return e;
      },
      { type: "updated", actor, data: { origin_superseded: { project_id: s.project.id, original: original.id, by: replacement.id } } },
    )
    .catch(() => undefined);
}

/** Restoring a superseded original takes back what its flag told the hive. */
async function unflagOriginSuperseded(s: Services, original: Entry, actor: string): Promise<void> {
  const copy = await hiveCopyOf(s, original).catch(() => undefined);
  // Only this project's flag: another project that superseded its own original of the same lesson keeps its own.
  if (!copy || !s.hive || !copy.lifecycle.flags.some((f) => isOriginFlagOf(f, s.project.name))) return;
  await s.hive
    .updateEntry(
      copy.id,
      (e) => {
        e.lifecycle.flags = e.lifecycle.flags.filter((f) => !isOriginFlagOf(f, s.project.name));
        return e;
      },
      { type: "updated", actor, data: { origin_superseded: null, project_id: s.project.id } },
    )
    .catch(() => undefined);
}

/** Marks `oldRef` superseded by `newRef` (same tier); both stay, linked both ways. */
export async function supersedeEntry(s: Services, oldRef: string, newRef: string, actor: string): Promise<{ old: Entry; replacement: Entry }> {
  const oldLoc = await locate(s, oldRef);
  const newLoc = await locate(s, newRef);
  if (oldLoc.entry.id === newLoc.entry.id) throw new CairnError("INVALID_INPUT", "An entry cannot supersede itself.");
  // A draft replacement waits for its approval, as `add --supersedes` does: retiring the lesson in use
  // now left agents with neither (the draft is not shown until a person approves it).
  if (newLoc.entry.lifecycle.status === "draft") {
    await assertNotSuperseded(s, oldLoc.entry, newLoc.entry.id);
    const pending = await newLoc.store.updateEntry(
      newLoc.entry.id,
      (e) => {
        e.lifecycle.supersedes = oldLoc.entry.id;
        return e;
      },
      { type: "updated", actor, data: { supersedes: oldLoc.entry.id, pending: "approval" } },
    );
    return { old: oldLoc.entry, replacement: pending };
  }
  // The replacement is what agents are shown instead: a retired one would hide both (a replaced lesson
  // replacing its own replacement closed a loop, and neither was ever shown again).
  const rs = newLoc.entry.lifecycle.status;
  if (rs === "superseded" || rs === "archived" || rs === "quarantined") {
    throw new CairnError(
      "CONFLICT",
      `${newLoc.entry.handle} is ${rs}, so it cannot replace ${oldLoc.entry.handle}: nothing would be left in use. Restore ${newLoc.entry.handle} first (\`cairn restore ${newLoc.entry.handle}\`), or supersede with a lesson in use.`,
    );
  }
  await assertNotSuperseded(s, oldLoc.entry, newLoc.entry.id);
  await assertAgentMayReplace(oldLoc.store, oldLoc.entry, actor);
  assertMayRetire(oldLoc.entry, actor, "supersede");
  const old = await oldLoc.store.updateEntry(
    oldLoc.entry.id,
    (e) => {
      e.lifecycle.status = "superseded";
      e.lifecycle.superseded_by = newLoc.entry.id;
      return e;
    },
    { type: "superseded", actor, data: { from: oldLoc.entry.lifecycle.status, by: newLoc.entry.id } },
  );
  // This project's original of a hive lesson is the same lesson: left promoted, it would go on being recalled here.
  if (oldLoc.store.tier === "hive") await retireOriginals(s, old, "superseded", `by ${newLoc.entry.handle}`, actor, newLoc.entry.id);
  else if (oldLoc.entry.lifecycle.status === "promoted") await flagOriginSuperseded(s, oldLoc.entry, newLoc.entry, actor);
  const replacement = await newLoc.store.updateEntry(
    newLoc.entry.id,
    (e) => {
      e.lifecycle.supersedes = oldLoc.entry.id;
      return e;
    },
    { type: "updated", actor, data: { supersedes: oldLoc.entry.id } },
  );
  return { old, replacement };
}
