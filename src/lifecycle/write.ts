// The single write path for new lessons: validate, gate, dedup (reinforce), insert, enforce the cap.
import { EntrySchema, NewEntryInputSchema, type Entry, type NewEntry, type NewEntryInput, type Status, type Tier } from "../core/entry.js";
import { newEntryId } from "../core/ids.js";
import { validateLessonText } from "../quality/gates.js";
import { findSecrets } from "../quality/secrets.js";
import { checkContentSafety } from "../quality/safety.js";
import { normalizeLessonText } from "../quality/normalize.js";
import { isPlaceholderText } from "../quality/vague.js";
import type { QualityIssue } from "../quality/types.js";
import { storeFor, type Services } from "../services.js";
import type { Store } from "../store/store.js";
import { confirmEntry, isNewConfirmation } from "./confirm.js";
import { supersedeEntry } from "./status.js";
import { decideUpsert, findNeighbours, isAmbiguous, type UpsertDecision } from "./upsert.js";
import { enforceCap } from "./caps.js";

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
}

export interface WriteResult {
  action: "added" | "reinforced" | "rejected";
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
}

/** Decides ambiguous cases (configured LLM endpoint); may only choose among non-destructive ops. */
export type UpsertArbiter = (lesson: string, nearest: Entry) => Promise<UpsertDecision>;


function structureIssues(err: { issues: { path: PropertyKey[]; message: string }[] }): QualityIssue[] {
  return err.issues.map((i) => ({
    layer: "structure" as const,
    severity: "reject" as const,
    code: `invalid_${String(i.path[0] ?? "input")}`,
    // zod says "expected string, received undefined" for a missing field; a person reads "is required".
    message: `${i.path.map(String).join(".") || "input"}: ${i.message.replace(/^Invalid input: expected (\w+), received undefined$/, "is required ($1)")}`,
  }));
}

/** Free-text fields besides the lesson get the same secret and injection screening. */
function extraTextIssues(input: NewEntry): QualityIssue[] {
  const extras = [
    input.title, input.why, input.prevention?.rule, input.prevention?.suggested_guardrail,
    ...(input.directive?.required_actions ?? []), ...(input.directive?.forbidden_actions ?? []),
    ...(input.directive?.verification_checks ?? []), ...(input.applicability?.triggers ?? []),
  ].filter((x): x is string => typeof x === "string" && x.length > 0);
  if (extras.length === 0) return [];
  const joined = extras.join("\n");
  return [
    ...findSecrets(joined).issues,
    ...checkContentSafety(joined).filter((i) => i.severity === "reject" && i.code !== "destructive_command"),
  ];
}

function buildEntry(input: NewEntry, lesson: string, s: Services, opts: WriteOptions, flags: string[]): Entry {
  const at = input.created_at ?? s.now().toISOString();
  const byPhase = input.phase ? [{ at, phase: input.phase, by: opts.actor, project_id: s.project.id }] : [];
  const byProject = opts.tier === "hive" && !input.phase ? [{ at, project_id: s.project.id, by: opts.actor }] : [];
  return EntrySchema.parse({
    id: newEntryId(),
    handle: "",
    tier: opts.tier,
    lesson,
    title: input.title,
    why: input.why,
    prevention: input.prevention ?? {},
    category: input.category,
    kind: input.kind,
    root_cause: input.root_cause,
    tags: [...new Set(input.tags.map((t) => t.toLowerCase()))],
    entities: [...new Set(input.entities)],
    applicability: { scope: input.scope, ...(input.applicability ?? {}) },
    directive: input.directive ?? {},
    lifecycle: {
      status: input.status ?? opts.defaultStatus ?? "candidate",
      confidence: input.confidence,
      confirmations: [...byPhase, ...byProject],
      hive_eligible: input.hive_eligible ?? false,
      supersedes: input.supersedes,
      flags,
    },
    provenance: {
      created_by: input.created_by ?? opts.actor,
      // Only machine extraction is auto-generated; an agent's explicit add is a deliberate lesson.
      auto_generated: input.auto_generated ?? opts.source === "curate",
      source_project_id: s.project.id,
      source_project_name: s.project.name,
      session_id: input.session_id,
      derived_from: input.derived_from ?? { kind: opts.source === "import" ? "import" : "manual" },
      external_id: input.external_id,
      promoted_from: opts.promotedFrom,
    },
    created_at: at,
    updated_at: at,
  });
}

async function reject(store: Store, s: Services, lesson: string, issues: QualityIssue[], source: string): Promise<WriteResult> {
  const rejects = issues.filter((i) => i.severity === "reject");
  const reason = rejects.map((i) => i.message.replace(/[\s.;]+$/, "")).join("; ");
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
  const lessonRaw = typeof raw?.lesson === "string" ? raw.lesson : "";
  const parsed = NewEntryInputSchema.safeParse(raw);
  if (!parsed.success) return reject(store, s, lessonRaw, structureIssues(parsed.error), opts.source);
  const input = parsed.data;

  // The hive gate: whatever the route, hive writes are fully validated and refuse placeholder text.
  const hive = opts.tier === "hive";
  const validate = s.config.knowledge.validation_enabled || hive;
  const gate = validateLessonText(input.lesson, { trusted: (opts.trusted && !hive) || !validate });
  const issues = [...gate.issues, ...extraTextIssues(input)];
  if (hive && isPlaceholderText(input.lesson)) {
    issues.push({ layer: "quality", severity: "reject", code: "placeholder", message: "placeholder or test text is never stored in the hive" });
  }
  if (issues.some((i) => i.severity === "reject")) return reject(store, s, input.lesson, issues, opts.source);
  const lesson = gate.text;

  const prior = await store.isRejected(lesson);
  if (prior && !opts.trusted) {
    return { action: "rejected", tier: store.tier, reason: `previously rejected: ${prior.reason}`, issues };
  }

  const neighbours = await findNeighbours(store, lesson, s.config.knowledge.dedup_threshold);
  let decision = decideUpsert(neighbours);
  if (decision.op === "add" && opts.arbiter && isAmbiguous(neighbours)) {
    decision = await opts.arbiter(lesson, neighbours.nearest!.entry).catch(() => decision);
  }

  if (decision.op === "refuse") {
    const t = decision.target;
    const reason = `matches ${t.lifecycle.status} entry ${t.handle}; restore or supersede it instead`;
    return { action: "rejected", tier: store.tier, id: t.id, reason, issues };
  }
  if (decision.op === "reinforce") return reinforce(s, store, decision.target, decision.similarity, input, opts, issues);

  const flags = issues.filter((i) => i.severity === "warn").map((i) => `${i.code}: ${i.message}`);
  if (decision.op === "flag") {
    for (const c of decision.targets) flags.push(`contradicts:${c.id}`);
    issues.push({
      layer: "quality",
      severity: "warn",
      code: "contradiction",
      message: `may contradict ${decision.targets.map((c) => c.handle).join(", ")}; supersede the older one if this replaces it`,
    });
  }
  if (decision.op === "supersede") input.supersedes = decision.target.id;
  const entry = buildEntry(input, normalizeLessonText(lesson), s, opts, flags);
  const stored = await store.insertEntry(entry, { type: "created", actor: opts.actor, data: { source: opts.source } });
  if (decision.op === "supersede") {
    await supersedeEntry(s, decision.target.id, stored.id, opts.actor);
    issues.push({ layer: "quality", severity: "warn", code: "superseded", message: `supersedes ${decision.target.handle}, which said the opposite` });
  }
  await enforceCap(s, store);
  return {
    action: "added",
    tier: store.tier,
    id: stored.id,
    handle: stored.handle,
    status: stored.lifecycle.status,
    issues,
    ...(flags.length ? { flags } : {}),
    ...(decision.op === "supersede" ? { superseded: decision.target.id } : {}),
  };
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
  const confirmation = { phase: input.phase ?? `${opts.source}:${s.now().toISOString().slice(0, 10)}`, project_id: s.project.id, by: opts.actor };
  const base = { action: "reinforced" as const, tier: store.tier, similarity, issues };
  if (!isNewConfirmation(target, confirmation)) {
    return { ...base, id: target.id, handle: target.handle, status: target.lifecycle.status, noop: true, reason: `already known as ${target.handle}` };
  }
  const updated = await confirmEntry(store, target.id, confirmation, s.config.knowledge.confirmations_to_establish, s.now().toISOString());
  return {
    ...base,
    id: updated.id,
    handle: updated.handle,
    status: updated.lifecycle.status,
    reason: `near-duplicate of ${updated.handle} (similarity ${similarity.toFixed(2)})`,
  };
}
