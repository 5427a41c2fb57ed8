// The single write path for new lessons: validate, gate, dedup (reinforce), insert, enforce the cap.
import { ConfirmationSchema, EntrySchema, LifecycleSchema, ProvenanceSchema, type Entry, type NewEntry, type NewEntryInput, type Status, type Tier } from "../core/entry.js";
import type { ImportedHistory } from "../core/entry-input.js";
import { newEntryId } from "../core/ids.js";
import { findSecrets } from "../quality/secrets.js";
import { normalizeLessonText } from "../quality/normalize.js";
import { quoteInput } from "../quality/sanitize.js";
import type { QualityIssue } from "../quality/types.js";
import { storeFor, type Services } from "../services.js";
import { DuplicateEntryError, type Store } from "../store/store.js";
import { isHumanActor, needsApproval } from "../governance/actors.js";
import { patternIssues } from "../governance/patterns.js";
import { NotFoundError } from "../errors.js";
import { confirmEntry, distinctConfirmations, isNewConfirmation } from "./confirm.js";
import { agentReplaceRefusal, hiddenFrom, hiveCopyOf, HOW_TO_EDIT, locate, retiredBy, supersedeEntry } from "./status.js";
import { findNeighbours, MERGEABLE, type NeighbourProfiles } from "./neighbours.js";
import { decideUpsert, isAmbiguous, isProtected, type UpsertDecision } from "./upsert.js";
import { enforceCap } from "./caps.js";
import { gateInput, type GateOutcome } from "./gate-input.js";
import type { BulkNeighbours } from "./bulk-neighbours.js";
import type { InsertQueue } from "./insert-queue.js";

export type WriteSource = "add" | "import" | "promote" | "curate" | "restore";

export interface WriteOptions {
  tier: Tier;
  actor: string;
  source: WriteSource;
  /** Bulk load of existing data: see GateOptions.trusted. */
  trusted?: boolean;
  /** Status for a new entry when the input names none (drafts under approval, promoted in the hive). */
  defaultStatus?: Status;
  /** Extra provenance for promoted entries. */
  promotedFrom?: { project_id?: string; entry_id: string };
  /** Consulted only when the rules find the case ambiguous. */
  arbiter?: UpsertArbiter;
  /** Id for a new entry (an outbox replay reuses the id it chose when queued, so a re-run finds its own write). */
  entryId?: string;
  /** The gates' verdict on this input, when they already ran (an import's worker thread ran gateInput with the same tier and trust). */
  gated?: GateOutcome;
  /** The caller enforces the tier's cap once when its bulk load ends (a trusted import), instead of after every row. */
  deferCap?: boolean;
  /** A trusted bulk load's in-memory neighbour index for this tier (see BulkNeighbours); a single write queries the store. */
  neighbourIndex?: BulkNeighbours;
  /** A bulk write's cache of neighbour profiles (see NeighbourProfiles); a single write has none. */
  neighbourProfiles?: NeighbourProfiles;
  /**
   * A trusted bulk load's queue: a new row waits there to be inserted with its batch; any other
   * write flushes it first (see InsertQueue). Only with deferCap and neighbourIndex.
   */
  insertQueue?: InsertQueue;
  /** An imported lesson's recorded life (an import face only): kept on the entry it becomes. */
  imported?: ImportedHistory;
}

export interface WriteResult {
  /** queued: the team hive is unreachable; the write waits in the project's outbox and is replayed when it is back. */
  action: "added" | "reinforced" | "rejected" | "queued";
  tier: Tier;
  id?: string;
  handle?: string;
  status?: Status;
  /** Why it was rejected, or what it was merged into. */
  reason?: string;
  issues: QualityIssue[];
  /** Similarity to the entry it reinforced (1 for an exact duplicate). */
  similarity?: number;
  flags?: string[];
  /** Reinforced without writing: the sighting added no new phase or project. */
  noop?: boolean;
  /** The entry this new lesson superseded (contradiction on the same subject). */
  superseded?: string;
  /** Reinforced: the values this sighting added to the entry's lists (tags, file globs, …); its text is never changed. */
  merged?: SightingMerge;
}

/** Decides ambiguous cases (configured LLM endpoint); may only choose among non-destructive ops. */
export type UpsertArbiter = (lesson: string, nearest: Entry) => Promise<UpsertDecision>;


/**
 * Imported verdicts' clock: their stamp, no later than `now`; without one, the entry's creation (`at`),
 * where feedback.ts clockStart counts them from anyway — stored, so `cairn show` says it. Nothing when none were imported.
 */
function feedbackClock(usage: ImportedHistory["usage"], at: string, now: Date): { last_feedback_at?: string } {
  const stamp = usage?.last_feedback_at ?? (usage?.helpful || usage?.harmful ? at : undefined);
  if (!stamp) return {};
  return { last_feedback_at: Date.parse(stamp) > now.getTime() ? now.toISOString() : stamp };
}

/** Field problems (a broken pattern, an unknown supersedes) are answered without listing the lesson as rejected, so a fixed retry passes. */
function fieldRejection(store: Store, issues: QualityIssue[]): WriteResult {
  return { action: "rejected", tier: store.tier, reason: rejectionReason(issues), issues };
}

/**
 * A stored flag: `review:<code>` marks advice held for a person, `caution:<code>` unsafe advice kept
 * from an import; both render as "⚠ caution" (retrieval/render.ts). The entry model caps a flag at 200 characters.
 */
function flagOf(i: QualityIssue): string {
  const prefix = i.severity === "review" ? "review:" : i.layer === "safety" && (i.code === "destructive_command" || i.code === "security_degrading") ? "caution:" : "";
  const flag = `${prefix}${i.code}: ${i.message}`;
  return flag.length <= 200 ? flag : flag.slice(0, 199) + "…";
}

/** One sentence per refusing issue, joined; trailing punctuation dropped so the joins read cleanly. */
function rejectionReason(issues: readonly QualityIssue[]): string {
  return issues
    .filter((i) => i.severity === "reject")
    .map((i) => i.message.replace(/[\s.;]+$/, ""))
    .join("; ");
}

/**
 * The id of a project another system named: this project's own id when the name is this project's,
 * else one made from the name (the other system recorded no path or remote to hash).
 */
function projectIdOf(name: string, s: Services): string {
  return name === s.project.name ? s.project.id : `name:${name}`;
}

/** An import's recorded confirmations as this store keeps them: a swarm lesson's phases were all this project's. */
function importedConfirmations(history: ImportedHistory, s: Services, opts: WriteOptions): Entry["lifecycle"]["confirmations"] {
  return history.confirmations.map((c) => ({
    at: c.at,
    ...(c.phase ? { phase: c.phase } : {}),
    project_id: opts.tier === "hive" && c.project ? projectIdOf(c.project, s) : s.project.id,
    by: opts.actor,
  }));
}

/** How one sighting of a lesson is named among its confirmations: its phase, else the route and the day. */
function sightingPhase(input: NewEntry, opts: WriteOptions, s: Services): string {
  return input.phase ?? `${opts.source}:${s.now().toISOString().slice(0, 10)}`;
}

/** The schema's defaults for what a new entry leaves unset, read from EntrySchema itself so none is written twice. */
let entryDefaults: Entry | undefined;
function defaults(): Entry {
  if (entryDefaults) return entryDefaults;
  const epoch = new Date(0).toISOString();
  return (entryDefaults = EntrySchema.parse({ id: "", handle: "", tier: "swarm", lesson: "", category: "other", kind: "learning", created_at: epoch, updated_at: epoch }));
}

/** The last actor and project whose values passed the entry schema (they are the same for every row of a bulk load). */
let checkedEnvelope: { actor: string; id: string; name: string } | undefined;

/**
 * Whether the values buildEntry takes from outside the validated input (the actor, the project, the
 * flags) pass the entry schema; the rest comes from NewEntryInputSchema's output, whose limits are the
 * entry's, or is built below. An actor or project is checked once, not per row.
 */
function envelopeValid(s: Services, actor: string, flags: string[]): boolean {
  const e = checkedEnvelope;
  if (!e || e.actor !== actor || e.id !== s.project.id || e.name !== s.project.name) {
    const confirmation = ConfirmationSchema.safeParse({ at: new Date(0).toISOString(), by: actor, project_id: s.project.id });
    const provenance = ProvenanceSchema.safeParse({ created_by: actor, source_project_id: s.project.id, source_project_name: s.project.name });
    if (!confirmation.success || !provenance.success) return false;
    checkedEnvelope = { actor, id: s.project.id, name: s.project.name };
  }
  return flags.length === 0 || LifecycleSchema.shape.flags.safeParse(flags).success;
}

/**
 * The new entry exactly as EntrySchema.parse would give it — every group, default and key in the
 * schema's order (the stored JSON keeps that order) — built directly: parsing it again per row was
 * ~10 % of a bulk import's main thread (test/lifecycle/build-entry.test.ts holds the two equal).
 * Should a value from outside the validated input break the schema, the parse runs and throws as before.
 */
export function buildEntry(input: NewEntry, lesson: string, s: Services, opts: WriteOptions, flags: string[], status: Status): Entry {
  const at = input.created_at ?? s.now().toISOString();
  const byPhase = input.phase ? [{ at, phase: input.phase, project_id: s.project.id, by: opts.actor }] : [];
  // Named like the reinforcement of a later sighting would be, so the same project adding the same
  // lesson twice on one day (two clients at once) is one confirmation, not two.
  const byProject = opts.tier === "hive" && !input.phase ? [{ at, phase: sightingPhase(input, opts, s), project_id: s.project.id, by: opts.actor }] : [];
  const history = opts.imported;
  const confirmations = history?.confirmations.length ? importedConfirmations(history, s, opts) : [...byPhase, ...byProject];
  const source = history?.source_project;
  const d = defaults();
  const a = input.applicability ?? {};
  const dir = input.directive ?? {};
  const from = opts.promotedFrom;
  const entry: Entry = {
    schema_version: d.schema_version,
    id: opts.entryId ?? newEntryId(),
    handle: "",
    tier: opts.tier,
    lesson,
    title: input.title,
    why: input.why,
    prevention: { ...input.prevention },
    category: input.category,
    kind: input.kind,
    root_cause: input.root_cause,
    tags: [...new Set(input.tags.map((t) => t.toLowerCase()))],
    entities: [...new Set(input.entities)],
    applicability: {
      scope: input.scope,
      projects: [...(a.projects ?? d.applicability.projects)],
      file_globs: [...(a.file_globs ?? d.applicability.file_globs)],
      tech_stack: [...(a.tech_stack ?? d.applicability.tech_stack)],
      agents: [...(a.agents ?? d.applicability.agents)],
      tools: [...(a.tools ?? d.applicability.tools)],
      triggers: [...(a.triggers ?? d.applicability.triggers)],
    },
    directive: {
      required_actions: [...(dir.required_actions ?? d.directive.required_actions)],
      forbidden_actions: [...(dir.forbidden_actions ?? d.directive.forbidden_actions)],
      verification_checks: [...(dir.verification_checks ?? d.directive.verification_checks)],
      priority: dir.priority ?? d.directive.priority,
      enforcement: dir.enforcement ?? d.directive.enforcement,
    },
    lifecycle: {
      status,
      confidence: input.confidence,
      confirmations,
      phases_alive: history?.phases_alive ?? d.lifecycle.phases_alive,
      max_phases: input.max_phases,
      hive_eligible: input.hive_eligible ?? false,
      supersedes: input.supersedes,
      flags: [...flags],
    },
    provenance: {
      created_by: input.created_by ?? opts.actor,
      // Only machine extraction is auto-generated; an agent's explicit add is a deliberate lesson.
      auto_generated: input.auto_generated ?? opts.source === "curate",
      source_project_id: source ? projectIdOf(source, s) : s.project.id,
      source_project_name: source ?? s.project.name,
      session_id: input.session_id,
      derived_from: { ...(input.derived_from ?? { kind: opts.source === "import" ? "import" : "manual" }) },
      external_id: input.external_id,
      promoted_from: from && { ...("project_id" in from ? { project_id: from.project_id } : {}), entry_id: from.entry_id },
    },
    // A verdict clock ahead of now (a file from a clock running ahead) counts from now, as a restore's does.
    usage: { ...d.usage, ...history?.usage, ...feedbackClock(history?.usage, at, s.now()) },
    created_at: at,
    updated_at: at,
  };
  // Confirmed in enough places before it came here: established, as those sightings would have made it.
  if (history && status === "candidate" && distinctConfirmations(entry) >= s.config.knowledge.confirmations_to_establish) entry.lifecycle.status = "established";
  return envelopeValid(s, opts.actor, flags) ? entry : EntrySchema.parse(entry);
}

async function reject(store: Store, s: Services, lesson: string, issues: QualityIssue[], source: string): Promise<WriteResult> {
  const rejects = issues.filter((i) => i.severity === "reject");
  const reason = rejectionReason(issues);
  // The stored copy is masked: a rejected secret must not be written here either.
  const masked = findSecrets(lesson).masked.slice(0, 2000);
  await store.addRejected(
    { lesson: masked, reason, codes: rejects.map((i) => i.code), source, at: s.now().toISOString() },
    s.config.knowledge.rejected_max_entries,
  );
  return { action: "rejected", tier: store.tier, reason, issues };
}

/**
 * Every new lesson goes through here, whatever face or route it came from — the audited
 * system's tool path skipped dedup; this one has no path that can.
 */
export async function writeLesson(s: Services, raw: NewEntryInput, opts: WriteOptions): Promise<WriteResult> {
  const store = storeFor(s, opts.tier);
  const gated = opts.gated ?? gateInput(s, raw, opts.tier, opts.trusted);
  if (!gated.ok) {
    // A bad title, enum value or order is a field for the caller to fix, not a lesson to refuse forever.
    const fieldsOnly = gated.issues.every((i) => i.severity !== "reject" || i.field !== undefined || (i.code.startsWith("invalid_") && i.code !== "invalid_lesson"));
    if (fieldsOnly) return fieldRejection(store, gated.issues);
    await opts.insertQueue?.flush();
    return reject(store, s, gated.lesson, gated.issues, opts.source);
  }
  const { input, lesson, issues } = gated;

  // Imported data keeps a broken pattern (it is simply never matched); anything else must fix it.
  const patternProblems = patternIssues(input.prevention?.detection_pattern).map((i) =>
    opts.trusted && i.severity === "reject" ? { ...i, severity: "warn" as const } : i,
  );
  issues.push(...patternProblems);
  if (patternProblems.some((i) => i.severity === "reject")) return fieldRejection(store, issues);
  let declared: Entry | undefined;
  if (input.supersedes) {
    // The entry it names may be a queued row: it must be found as row by row.
    await opts.insertQueue?.flush();
    declared = await locate(s, input.supersedes).then(
      (l) => l.entry,
      (e: unknown) => {
        if (e instanceof NotFoundError || (e as { code?: string }).code === "INVALID_ID") return undefined;
        throw e;
      },
    );
    // To an agent a draft does not exist, nor a quarantined lesson, so it cannot name one either.
    if (declared && hiddenFrom(declared, opts.actor)) declared = undefined;
    const problem = !declared
      ? `supersedes: no entry ${quoteInput(input.supersedes, 60)}`
      : declared.tier !== opts.tier
        ? `supersedes: ${declared.handle} is in the ${declared.tier} tier, not ${opts.tier}`
        : undefined;
    if (problem) return fieldRejection(store, [...issues, { layer: "structure", severity: "reject", code: "invalid_supersedes", message: problem }]);
    // Answered like the other field problems, so an agent's import goes on to its next row.
    const refusal = await agentReplaceRefusal(store, declared!, opts.actor);
    if (refusal) return fieldRejection(store, [...issues, { layer: "structure", severity: "reject", code: "supersedes_archived_by_person", message: refusal }]);
    input.supersedes = declared!.id;
    // Replaced already: a second replacement would leave two entries each saying it replaced it. The
    // lesson is stored on its own (or merges into the one that replaced it), and the writer is told.
    if (declared!.lifecycle.status === "superseded") {
      issues.push({ layer: "quality", severity: "warn", code: "already_superseded", message: `${declared!.handle} is already superseded; stored without replacing it (supersede the entry that replaced it instead)` });
      declared = undefined;
      delete input.supersedes;
    }
  }
  // Under approval an agent's lesson waits for a person; so does anything it would retire, and advice
  // the safety gate holds for review (issue 11 item 10): a draft is never injected nor recalled for an agent.
  const held = issues.some((i) => i.severity === "review");
  // An agent's replacement of a lesson people vouched for waits for a person too: live, it would be shown
  // beside the lesson it contradicts, and nobody would be asked.
  const replacesVouched = declared !== undefined && !isHumanActor(opts.actor) && isProtected(declared);
  const status: Status = held || replacesVouched || needsApproval(s.config, opts.tier, opts.actor, opts.source) ? "draft" : (input.status ?? opts.defaultStatus ?? "candidate");

  // A trusted import stores a lesson even if it was once refused, so it does not ask (a read per row).
  const prior = opts.trusted ? undefined : await store.isRejected(lesson);
  if (prior) {
    return { action: "rejected", tier: store.tier, reason: `previously rejected: ${prior.reason}`, issues };
  }

  return placeWithRetries(s, store, input, lesson, issues, status, declared, opts);
}

/**
 * The neighbour read and the write are separate steps, so another writer may remove (or retire)
 * the neighbour in between; the reinforcement re-checks it in its own transaction, and when it has
 * vanished the decision is simply taken again: the lesson is then added, never lost (issue 11 item 2).
 */
async function placeWithRetries(
  s: Services,
  store: Store,
  input: NewEntry,
  lesson: string,
  issues: QualityIssue[],
  status: Status,
  declared: Entry | undefined,
  opts: WriteOptions,
): Promise<WriteResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await placeLesson(s, store, input, lesson, issues, status, declared, opts);
    } catch (e) {
      if (!(e instanceof NeighbourGone) || attempt >= PLACE_ATTEMPTS) throw e;
    }
  }
}

const PLACE_ATTEMPTS = 4;

/** The neighbour chosen for a reinforcement was removed or retired after it was read. */
class NeighbourGone extends Error {}

/** Dedup, then reinforce, supersede, flag or insert; throws NeighbourGone when the read neighbourhood changed under it. */
async function placeLesson(
  s: Services,
  store: Store,
  input: NewEntry,
  lesson: string,
  issues: QualityIssue[],
  status: Status,
  declared: Entry | undefined,
  opts: WriteOptions,
): Promise<WriteResult> {
  // Each attempt starts from the caller's input: a failed attempt's choices must not leak into the next.
  const given = { input, issues };
  issues = [...issues];
  input = { ...input, supersedes: declared?.id };
  const neighbours = await findNeighbours(store, lesson, s.config.knowledge.dedup_threshold, declared?.id, opts.neighbourProfiles, opts.neighbourIndex);
  let decision = decideUpsert(neighbours);
  if (decision.op === "add" && opts.arbiter && isAmbiguous(neighbours)) {
    const nearest = await neighbours.nearest!.entry();
    if (nearest) decision = await opts.arbiter(lesson, nearest).catch(() => decision);
  }

  // Re-running an import must be harmless: a row already known (even if since retired) changes nothing —
  // archived too, which an add may learn again: before, each import of a file stored its archived rows once more.
  if (opts.source === "import" && neighbours.archived) {
    const t = neighbours.archived;
    return { action: "reinforced", tier: store.tier, id: t.id, handle: t.handle, status: t.lifecycle.status, noop: true, reason: `already known as ${t.handle} (${t.lifecycle.status})`, issues };
  }
  // What a person archived stays retired until a person restores it (assertMayRestore): an agent's re-add of
  // its exact text brought it back live under a new id. What the sweep archived (aged out) may be learned again.
  if (neighbours.archived && !isHumanActor(opts.actor)) {
    const t = neighbours.archived;
    const by = await retiredBy({ entry: t, store });
    if (by && isHumanActor(by)) {
      const reason = `matches ${t.handle}, archived by ${by}; only a person brings it back (\`cairn restore ${t.handle}\`) — add a corrected lesson instead`;
      return { action: "rejected", tier: store.tier, id: t.id, reason, issues };
    }
  }
  if (decision.op === "refuse") {
    const t = decision.target;
    if (opts.source === "import") {
      return { action: "reinforced", tier: store.tier, id: t.id, handle: t.handle, status: t.lifecycle.status, noop: true, reason: `already known as ${t.handle} (${t.lifecycle.status})`, issues };
    }
    const reason = `matches ${t.lifecycle.status} entry ${t.handle}; restore or supersede it instead`;
    return { action: "rejected", tier: store.tier, id: t.id, reason, issues };
  }
  if (decision.op === "reinforce") return reinforce(s, store, decision.target, decision.similarity, input, opts, issues);

  const flags = issues.filter((i) => i.severity !== "reject").map(flagOf);
  // The writer named what this lesson replaces: that one is replaced. Another lesson the text happens to
  // contradict is flagged, not retired in its place (a person's `supersede S-10 "…"` retired the agent's
  // pending draft on the subject instead, and S-10 stayed in use).
  const contradicted = decision.op === "flag" ? decision.targets : decision.op === "supersede" && declared ? [decision.target] : [];
  if (contradicted.length) {
    for (const c of contradicted) flags.push(`contradicts:${c.id}`);
    issues.push({
      layer: "quality",
      severity: "warn",
      code: "contradiction",
      message: `may contradict ${contradicted.map((c) => c.handle).join(", ")}; supersede the older one if this replaces it`,
    });
  }
  const auto = decision.op === "supersede" && !declared ? decision.target : undefined;
  const target = declared ?? auto;
  if (target) input.supersedes = target.id;
  const entry = buildEntry(input, normalizeLessonText(lesson), s, opts, flags, status);
  const event = { type: "created" as const, actor: opts.actor, data: { source: opts.source } };
  // A plain add waits in the bulk load's queue: its insert is the only write this row makes.
  if (!target && opts.insertQueue) {
    // Should its insert find the lesson stored after all, the row is decided again (the lesson is then a sighting of that entry).
    const replay = () => placeWithRetries(s, store, given.input, lesson, given.issues, status, declared, { ...opts, insertQueue: undefined });
    const handle = await opts.insertQueue.add(store, entry, event, replay);
    if (handle) return { action: "added", tier: store.tier, id: entry.id, handle, status: entry.lifecycle.status, issues, ...(flags.length ? { flags } : {}) };
  }
  await opts.insertQueue?.flush();
  let stored: Entry;
  try {
    stored = await store.insertEntry(entry, event, { unique: true });
  } catch (e) {
    // Another writer stored the same lesson since the dedup read: this add is a sighting of theirs.
    if (e instanceof DuplicateEntryError) return reinforce(s, store, e.existing, 1, input, opts, issues);
    throw e;
  }
  // A declared replacement of a lesson people vouched for waits for a person, like a draft does.
  const retireNow =
    target && status !== "draft" && MERGEABLE.includes(target.lifecycle.status) && (target === auto || isHumanActor(opts.actor) || !isProtected(target));
  // The old entry may have been removed since it was read: the new lesson is stored; there is just nothing left to retire.
  const retired = target && retireNow ? await supersedeEntry(s, target.id, stored.id, opts.actor).then(() => true, (e: unknown) => {
    if (e instanceof NotFoundError) return false;
    throw e;
  }) : false;
  if (target && retired) {
    const why = target === auto ? ", which said the opposite" : "";
    issues.push({ layer: "quality", severity: "warn", code: "superseded", message: `supersedes ${target.handle}${why}` });
  } else if (target && !retireNow) {
    issues.push({ layer: "quality", severity: "warn", code: "supersede_pending", message: `will supersede ${target.handle} once a person approves it` });
  }
  if (!opts.deferCap) await enforceCap(s, store);
  return {
    action: "added",
    tier: store.tier,
    id: stored.id,
    handle: stored.handle,
    status: stored.lifecycle.status,
    issues,
    ...(flags.length ? { flags } : {}),
    ...(target && retired ? { superseded: target.id } : {}),
  };
}

/** The structured fields an input brings that its near-duplicate entry does not already hold. */
function fieldsNotMerged(input: NewEntry, target: Entry): string[] {
  // A list is brought when it holds a value the entry's lacks (order aside); anything else when it differs.
  const brings = (a: object | undefined, b: object) =>
    a !== undefined &&
    Object.entries(a).some(([k, v]) => {
      const have = (b as Record<string, unknown>)[k];
      if (Array.isArray(v)) return v.some((x) => !(Array.isArray(have) && have.includes(x)));
      return v !== undefined && JSON.stringify(v) !== JSON.stringify(have);
    });
  const names: string[] = [];
  if (input.title && input.title !== target.title) names.push("title");
  if (input.why && input.why !== target.why) names.push("why");
  if (input.root_cause && input.root_cause !== target.root_cause) names.push("root cause");
  // Tags and entities are named: a tag the sighting brings is what a person looks for on the entry afterwards.
  const newTags = input.tags.filter((t) => !target.tags.includes(t));
  if (newTags.length) names.push(`tags (${newTags.slice(0, 5).join(", ")}${newTags.length > 5 ? ", …" : ""})`);
  const newEntities = input.entities.filter((t) => !target.entities.includes(t));
  if (newEntities.length) names.push(`entities (${newEntities.slice(0, 5).join(", ")}${newEntities.length > 5 ? ", …" : ""})`);
  if (brings(input.prevention, target.prevention)) names.push("prevention");
  // The directive's priority and enforcement have defaults: only its actions count as brought.
  if (brings({ required_actions: input.directive?.required_actions, forbidden_actions: input.directive?.forbidden_actions, verification_checks: input.directive?.verification_checks }, target.directive)) names.push("directive");
  if (brings(input.applicability, target.applicability)) names.push("applicability");
  return names;
}

/** What a sighting added to the entry it confirmed (seed 003's UPDATE): values new to each list. */
export type SightingMerge = Partial<Record<"tags" | "entities" | "file_globs" | "tech_stack" | "projects", string[]>>;

/**
 * The lists a near-duplicate may widen on the entry it confirms: tags, entities and file globs (they
 * only help retrieval find it); a tech stack or project list only where the entry already has one, since
 * an empty one means every stack / project and filling it would narrow a general lesson to the
 * re-adder's. The lesson's text (title, why, prevention, directive) is never changed by a sighting.
 */
function sightingMerge(input: NewEntry, target: Entry): SightingMerge {
  const merge: SightingMerge = {};
  const add = (k: keyof SightingMerge, brought: readonly string[] | undefined, have: readonly string[], widenOnly = false) => {
    if (widenOnly && have.length === 0) return;
    const fresh = [...new Set((brought ?? []).filter((x) => !have.includes(x)))];
    if (fresh.length) merge[k] = fresh;
  };
  const a = target.applicability;
  add("tags", input.tags, target.tags);
  add("entities", input.entities, target.entities);
  add("file_globs", input.applicability?.file_globs, a.file_globs);
  add("tech_stack", input.applicability?.tech_stack, a.tech_stack, true);
  add("projects", input.applicability?.projects, a.projects, true);
  return merge;
}

function applyMerge(e: Entry, merge: SightingMerge): Entry {
  const union = (have: string[], more: string[] | undefined) => (more ? [...new Set([...have, ...more])] : have);
  e.tags = union(e.tags, merge.tags);
  e.entities = union(e.entities, merge.entities);
  e.applicability.file_globs = union(e.applicability.file_globs, merge.file_globs);
  e.applicability.tech_stack = union(e.applicability.tech_stack, merge.tech_stack);
  e.applicability.projects = union(e.applicability.projects, merge.projects);
  return e;
}

/** The hive copy a promoted project original went up as, while it takes sightings; undefined otherwise (or when the hive cannot say). */
async function liveHiveCopy(s: Services, e: Entry): Promise<Entry | undefined> {
  if (e.tier !== "swarm" || e.lifecycle.status !== "promoted" || !s.hive) return undefined;
  const copy = await hiveCopyOf(s, e);
  return copy && MERGEABLE.includes(copy.lifecycle.status) ? copy : undefined;
}

/** A new sighting confirms the entry; when it adds no new phase or project, nothing is written at all. */
async function reinforce(
  s: Services,
  store: Store,
  target: Entry,
  similarity: number,
  input: NewEntry,
  opts: WriteOptions,
  issues: QualityIssue[],
): Promise<WriteResult> {
  const confirmation = { phase: sightingPhase(input, opts, s), project_id: s.project.id, by: opts.actor };
  // A promoted original is only the record of where its hive copy came from; agents read the copy, so a
  // sighting of the original is one of the copy: what a person brings (tags, globs) lands where retrieval uses it.
  const copy = await liveHiveCopy(s, target);
  const original = copy ? target : undefined;
  if (copy) {
    store = storeFor(s, "hive");
    target = copy;
  }
  // An agent changes nothing a person vouched for (approved, or promoted to the hive): what it brings waits for a person's edit.
  const held = !isHumanActor(opts.actor) && (isProtected(target) || (original !== undefined && isProtected(original)));
  const merge = held ? {} : sightingMerge(input, target);
  const merging = Object.keys(merge).length > 0;
  const unmerged = fieldsNotMerged(input, merging ? applyMerge(structuredClone(target), merge) : target);
  if (unmerged.length) {
    const why = held ? ` (${target.handle} ${target.provenance.approved_at ? "was approved by a person" : "is promoted to the hive"}, so only a person changes it)` : "";
    issues = [...issues, {
      layer: "quality", severity: "warn", code: "fields_not_merged",
      message: `a sighting of ${target.handle}: its ${unmerged.join(", ")} ${unmerged.length === 1 ? "was" : "were"} not applied to it${why}; to add ${unmerged.length === 1 ? "it" : "them"}, edit ${target.handle} ${HOW_TO_EDIT}`,
    }];
  }
  const base = { action: "reinforced" as const, tier: store.tier, similarity, issues, ...(merging ? { merged: merge } : {}) };
  const confirms = isNewConfirmation(target, confirmation);
  if (!confirms && !merging) {
    return { ...base, id: target.id, handle: target.handle, status: target.lifecycle.status, noop: true, reason: `already known as ${target.handle}` };
  }
  // The entry may be a row the bulk load still holds; the write order stays that of row by row.
  await opts.insertQueue?.flush();
  const guard = (current: Entry) => {
    // Re-checked inside the write transaction: a neighbour retired since the dedup read absorbs nothing.
    if (!MERGEABLE.includes(current.lifecycle.status)) throw new NeighbourGone(target.id);
  };
  const gone = (e: unknown): never => {
    if (e instanceof NotFoundError) throw new NeighbourGone(target.id);
    throw e;
  };
  let updated = target;
  if (confirms) {
    updated = await confirmEntry(store, target.id, confirmation, s.config.knowledge.confirmations_to_establish, s.now().toISOString(), guard).catch(gone);
  }
  if (merging) {
    updated = await store
      .updateEntry(target.id, (e) => (guard(e), applyMerge(e, merge)), { type: "updated", actor: opts.actor, data: { via: "sighting", fields: Object.keys(merge), added: merge } })
      .catch(gone);
  }
  const added = merging ? `; added its ${Object.keys(merge).join(", ").replace(/_/g, " ")}` : "";
  return {
    ...base,
    id: updated.id,
    handle: updated.handle,
    status: updated.lifecycle.status,
    reason: confirms ? `near-duplicate of ${updated.handle} (similarity ${similarity.toFixed(2)})${added}` : `already known as ${updated.handle}${added}`,
  };
}
