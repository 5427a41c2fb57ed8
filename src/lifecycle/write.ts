// The single write path for new lessons: validate, gate, dedup (reinforce), insert, enforce the cap.
import { EntrySchema, NewEntryInputSchema, type Entry, type NewEntry, type NewEntryInput, type Status, type Tier } from "../core/entry.js";
import { fingerprintLesson, newEntryId } from "../core/ids.js";
import { queryTerms, toFtsMatchQuery } from "../core/text.js";
import { validateLessonText } from "../quality/gates.js";
import { findSecrets } from "../quality/secrets.js";
import { checkContentSafety } from "../quality/safety.js";
import { normalizeLessonText } from "../quality/normalize.js";
import { compareLessons } from "../quality/similarity.js";
import type { QualityIssue } from "../quality/types.js";
import { storeFor, type Services } from "../services.js";
import type { Store } from "../store/store.js";
import { confirmEntry } from "./confirm.js";
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
}

/** Statuses a new lesson may merge into; retired entries do not absorb new sightings. */
const MERGEABLE: readonly Status[] = ["draft", "candidate", "established", "promoted"];
const DEDUP_CANDIDATES = 12;

function structureIssues(err: { issues: { path: PropertyKey[]; message: string }[] }): QualityIssue[] {
  return err.issues.map((i) => ({
    layer: "structure" as const,
    severity: "reject" as const,
    code: `invalid_${String(i.path[0] ?? "input")}`,
    message: `${i.path.map(String).join(".") || "input"}: ${i.message}`,
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
      auto_generated: input.auto_generated ?? opts.actor.startsWith("agent:"),
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
  const reason = rejects.map((i) => i.message).join("; ");
  // The stored copy is masked: a rejected secret must not be written here either.
  const masked = findSecrets(lesson).masked.slice(0, 2000);
  await store.addRejected(
    { lesson: masked, reason, codes: rejects.map((i) => i.code), source, at: s.now().toISOString() },
    s.config.knowledge.rejected_max_entries,
  );
  return { action: "rejected", tier: store.tier, reason, issues };
}

/** Finds the entry a new lesson duplicates: exact text first, then near-duplicates from the index. */
async function findDuplicate(
  store: Store,
  lesson: string,
  threshold: number,
): Promise<{ entry: Entry; similarity: number; retired: boolean } | { contradicts: Entry[] } | undefined> {
  const exact = await store.findByFingerprint(fingerprintLesson(lesson));
  const live = exact.find((e) => MERGEABLE.includes(e.lifecycle.status));
  if (live) return { entry: live, similarity: 1, retired: false };
  const retired = exact.find((e) => e.lifecycle.status === "quarantined" || e.lifecycle.status === "superseded");
  if (retired) return { entry: retired, similarity: 1, retired: true };

  const match = toFtsMatchQuery(queryTerms(lesson, 24));
  const hits = await store.searchEntries(match, { statuses: MERGEABLE }, DEDUP_CANDIDATES);
  let best: { entry: Entry; similarity: number } | undefined;
  const contradicts: Entry[] = [];
  for (const h of hits) {
    const cmp = compareLessons(lesson, h.entry.lesson, threshold);
    if (cmp.duplicate && (!best || cmp.similarity > best.similarity)) best = { entry: h.entry, similarity: cmp.similarity };
    else if (cmp.contradiction) contradicts.push(h.entry);
  }
  if (best) return { ...best, retired: false };
  return contradicts.length ? { contradicts } : undefined;
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

  const validate = s.config.knowledge.validation_enabled;
  const gate = validateLessonText(input.lesson, { trusted: opts.trusted || !validate });
  const issues = [...gate.issues, ...extraTextIssues(input)];
  if (issues.some((i) => i.severity === "reject")) return reject(store, s, input.lesson, issues, opts.source);
  const lesson = gate.text;

  const prior = await store.isRejected(lesson);
  if (prior && !opts.trusted) {
    return { action: "rejected", tier: store.tier, reason: `previously rejected: ${prior.reason}`, issues };
  }

  const dup = await findDuplicate(store, lesson, s.config.knowledge.dedup_threshold);
  if (dup && "entry" in dup) {
    if (dup.retired) {
      const reason = `matches ${dup.entry.lifecycle.status} entry ${dup.entry.handle}; restore or supersede it instead`;
      return { action: "rejected", tier: store.tier, id: dup.entry.id, reason, issues };
    }
    const updated = await confirmEntry(
      store,
      dup.entry.id,
      { phase: input.phase ?? `${opts.source}:${s.now().toISOString().slice(0, 10)}`, project_id: s.project.id, by: opts.actor },
      s.config.knowledge.confirmations_to_establish,
      s.now().toISOString(),
    );
    return {
      action: "reinforced",
      tier: store.tier,
      id: updated.id,
      handle: updated.handle,
      status: updated.lifecycle.status,
      reason: `near-duplicate of ${updated.handle} (similarity ${dup.similarity.toFixed(2)})`,
      similarity: dup.similarity,
      issues,
    };
  }

  const flags = issues.filter((i) => i.severity === "warn").map((i) => `${i.code}: ${i.message}`);
  if (dup && "contradicts" in dup) {
    for (const c of dup.contradicts) flags.push(`contradicts:${c.id}`);
    issues.push({
      layer: "quality",
      severity: "warn",
      code: "contradiction",
      message: `may contradict ${dup.contradicts.map((c) => c.handle).join(", ")}; supersede the older one if this replaces it`,
    });
  }
  const entry = buildEntry(input, normalizeLessonText(lesson), s, opts, flags);
  const stored = await store.insertEntry(entry, { type: "created", actor: opts.actor, data: { source: opts.source } });
  await enforceCap(s, store);
  return {
    action: "added",
    tier: store.tier,
    id: stored.id,
    handle: stored.handle,
    status: stored.lifecycle.status,
    issues,
    ...(flags.length ? { flags } : {}),
  };
}
