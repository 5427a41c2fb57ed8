// Parser for opencode-swarm knowledge JSONL (knowledge.jsonl, shared-learnings.jsonl, hive-knowledge.jsonl, and both rejected files).
import { z } from "zod";
import { ENFORCEMENTS, PRIORITIES, ScopeSchema, type NewEntryInput, type Status, type Tier } from "../../core/entry.js";
import { inferKind, placeCategory } from "../../core/categories.js";
import type { ImportedHistory, ParseItem } from "../types.js";
import { dropUndefined } from "../../core/entry-input.js";
import { bad, describeIssues, parseJsonObject, type LineContext } from "./json.js";
import { cleanTags, dateWarnings, toIsoDate } from "./map.js";
import { quoteInput } from "../../quality/sanitize.js";

const strList = z.array(z.string()).nullish();
// Loose on purpose: the stray hive file and older versions omit most fields; null means absent.
const RowSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).nullish(),
  lesson: z.string().nullish(),
  text: z.string().nullish(),
  tier: z.string().nullish(),
  category: z.string().nullish(),
  tags: strList,
  scope: z.string().nullish(),
  confidence: z.number().nullish(),
  status: z.string().nullish(),
  hive_eligible: z.boolean().nullish(),
  max_phases: z.number().nullish(),
  entities: strList,
  auto_generated: z.boolean().nullish(),
  created_at: z.union([z.string(), z.number()]).nullish(),
  promoted_at: z.union([z.string(), z.number()]).nullish(),
  rejected_at: z.union([z.string(), z.number()]).nullish(),
  confirmed_by: z.array(z.unknown()).nullish(),
  // An object of counters (a list in seed 001's example, which records nothing): read field by field in usageOf.
  retrieval_outcomes: z.unknown().optional(),
  phases_alive: z.number().nullish(),
  project_name: z.string().nullish(),
  source_project: z.string().nullish(),
  triggers: strList,
  applies_to_agents: strList,
  applies_to_tools: strList,
  required_actions: strList,
  forbidden_actions: strList,
  verification_checks: strList,
  directive_priority: z.string().nullish(),
  enforcement_mode: z.string().nullish(),
  rejection_reason: z.string().nullish(),
});
type Row = z.infer<typeof RowSchema>;

const STATUS_MAP: Readonly<Record<string, Status>> = {
  active: "candidate", candidate: "candidate", established: "established", promoted: "promoted",
  archived: "archived", quarantined: "quarantined", quarantined_unactionable: "quarantined",
  superseded: "superseded", draft: "draft", deprecated: "archived", retired: "archived", expired: "archived",
};

const HIVE_FILES = new Set(["shared-learnings.jsonl", "hive-knowledge.jsonl", "shared-learnings-rejected.jsonl"]);
const SWARM_FILES = new Set(["knowledge.jsonl", "knowledge-rejected.jsonl"]);
/** opencode-swarm's rejected lessons: the project's, and the hive's next to its file (seed 001). */
const REJECTED_FILES = new Set(["knowledge-rejected.jsonl", "shared-learnings-rejected.jsonl"]);

export function parseOpencodeSwarmLine(text: string, line: number, ctx: LineContext): ParseItem {
  const json = parseJsonObject(text);
  if (!json.ok) return bad(line, json.error);
  const parsed = RowSchema.safeParse(json.value);
  if (!parsed.success) return bad(line, describeIssues(parsed.error, json.value));
  const row = parsed.data;
  const lesson = row.lesson ?? row.text;
  if (lesson == null) return bad(line, 'missing required field "lesson"');
  if (lesson.trim() === "") return bad(line, 'field "lesson" is empty');
  const input = toInput(row, lesson, ctx);
  const dates = dateWarnings(row.created_at ?? row.promoted_at ?? row.rejected_at, input.created_at) ?? [];
  // A scope dropped widens the lesson to every project: said, so a person can scope it again.
  const scope = row.scope?.trim() && input.scope === undefined ? [`scope ${quoteInput(row.scope.trim(), 80)} is not "global" or "stack:<name>"; stored as global`] : [];
  const warnings = dates.length + scope.length ? [...dates, ...scope] : undefined;
  const history = historyOf(row, input.created_at);
  return { ok: true, record: { line, input, tier: tierOf(row, ctx), ...(history ? { history } : {}), ...(warnings ? { warnings } : {}) } };
}

/** A project name as the other system wrote it, or nothing when it is blank. */
function projectName(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v.trim().slice(0, 100) : undefined;
}

/**
 * The row's recorded life: its PhaseConfirmationRecords (swarm) or ProjectConfirmationRecords (hive), each
 * distinct phase and project once, oldest first, at most 50 (opencode-swarm keeps as many); its phase count;
 * the hive project it came from. A record without a date takes the lesson's.
 */
function historyOf(row: Row, createdAt: string | undefined): ImportedHistory | undefined {
  const seen = new Set<string>();
  const confirmations: ImportedHistory["confirmations"] = [];
  for (const c of row.confirmed_by ?? []) {
    if (!c || typeof c !== "object") continue;
    const r = c as Record<string, unknown>;
    const at = toIsoDate(r.confirmed_at) ?? createdAt;
    const n = r.phase_number;
    const phase = typeof n === "number" && Number.isFinite(n) ? String(n) : typeof n === "string" && n.trim() ? n.trim().slice(0, 100) : undefined;
    const project = projectName(r.project_name);
    const key = `${phase ?? ""}\u0000${project ?? ""}`;
    if (!at || (!phase && !project) || seen.has(key)) continue;
    seen.add(key);
    confirmations.push({ at: new Date(at).toISOString(), ...(phase ? { phase } : {}), ...(project ? { project } : {}) });
  }
  confirmations.sort((a, b) => a.at.localeCompare(b.at));
  const phasesAlive = row.phases_alive != null && Number.isFinite(row.phases_alive) ? Math.min(10_000, Math.max(0, Math.floor(row.phases_alive))) : undefined;
  const source = projectName(row.source_project);
  const usage = usageOf(row.retrieval_outcomes);
  if (!confirmations.length && phasesAlive === undefined && !source && !usage) return undefined;
  return {
    confirmations: confirmations.slice(0, 50),
    ...(phasesAlive !== undefined ? { phases_alive: phasesAlive } : {}),
    ...(source ? { source_project: source } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** A counter as a whole number of at most a million, or undefined when absent or not a number. */
function count(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? Math.min(1_000_000, Math.max(0, Math.floor(v))) : undefined;
}

/**
 * retrieval_outcomes as our usage counters, from v2 rows only. v1's `applied_count` was bumped on every
 * show (opencode-swarm's knowledge-types.ts) and recorded no application, so it cannot tell a lesson
 * shown often and never applied — which the sweep archives when machine-written — from one applied every
 * time: a v1 row (no `shown_count`) carries nothing. v2 counts shows in `shown_count` and deliberate use in
 * `applied_explicit_count`. Successes and failures after a show are no verdict on the lesson and are not carried.
 */
function usageOf(v: unknown): ImportedHistory["usage"] {
  if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const shown = count(o.shown_count);
  if (shown === undefined) return undefined;
  const usage = {
    shown,
    applied: count(o.applied_explicit_count) ?? 0,
    ignored: count(o.ignored_count) ?? 0,
    violated: count(o.violated_count) ?? 0,
  };
  return Object.values(usage).some((n) => n > 0) ? usage : undefined;
}

function toInput(row: Row, lesson: string, ctx: LineContext): NewEntryInput {
  const extraTags: string[] = [];
  // The same mapping an add naming opencode-swarm's category goes through (core/categories.ts).
  const placed = placeCategory(row.category ?? undefined, lesson, row.tags ?? []);
  const category = placed.category;
  const kind = placed.kind ?? inferKind(lesson);
  extraTags.push(...placed.tags);
  const rawStatus = row.status?.trim().toLowerCase() || undefined;
  let status = rawStatus ? STATUS_MAP[rawStatus] : undefined;
  if (rawStatus && !status) extraTags.push(`legacy-status:${rawStatus}`);
  // Rejected lessons are kept for the record but must never reach an agent.
  const rejected = REJECTED_FILES.has(ctx.basename.toLowerCase()) || row.rejection_reason != null;
  if (rejected) {
    status = "quarantined";
    extraTags.push("legacy-rejected");
  }
  const scope = row.scope ? ScopeSchema.safeParse(row.scope.trim().toLowerCase()) : undefined;
  const priority = pick(row.directive_priority, PRIORITIES);
  const enforcement = pick(row.enforcement_mode, ENFORCEMENTS);
  const applicability = dropUndefined({
    triggers: list(row.triggers, 30),
    agents: list(row.applies_to_agents, 30),
    tools: list(row.applies_to_tools, 30),
  });
  const directive = dropUndefined({
    required_actions: list(row.required_actions, 20),
    forbidden_actions: list(row.forbidden_actions, 20),
    verification_checks: list(row.verification_checks, 20),
    priority,
    enforcement,
  });
  return dropUndefined<NewEntryInput>({
    lesson,
    category,
    kind,
    tags: cleanTags(row.tags ?? [], extraTags),
    scope: scope?.success ? scope.data : undefined,
    applicability: Object.keys(applicability).length ? applicability : undefined,
    directive: Object.keys(directive).length ? directive : undefined,
    confidence: row.confidence == null ? undefined : Math.min(1, Math.max(0, row.confidence)),
    status,
    hive_eligible: row.hive_eligible ?? undefined,
    // Checked by the engine's input schema like any other face's value: a bad one rejects the row, with its line.
    max_phases: row.max_phases ?? undefined,
    entities: list(row.entities, 30),
    auto_generated: row.auto_generated ?? undefined,
    external_id: row.id == null ? undefined : String(row.id).slice(0, 200),
    derived_from: { kind: "import", ref: ctx.basename },
    created_at: toIsoDate(row.created_at ?? row.promoted_at ?? row.rejected_at),
    phase: firstPhase(row.confirmed_by),
  });
}

function tierOf(row: Row, ctx: LineContext): Tier | undefined {
  const name = ctx.basename.toLowerCase();
  if (HIVE_FILES.has(name)) return "hive";
  if (row.tier === "swarm" || row.tier === "hive") return row.tier;
  return SWARM_FILES.has(name) ? "swarm" : undefined;
}

function pick<T extends string>(v: string | null | undefined, allowed: readonly T[]): T | undefined {
  const s = v?.trim().toLowerCase();
  return s && (allowed as readonly string[]).includes(s) ? (s as T) : undefined;
}

function list(v: string[] | null | undefined, max: number): string[] | undefined {
  const out = (v ?? []).map((s) => s.trim()).filter((s) => s.length > 0).slice(0, max);
  return out.length ? out : undefined;
}

/** The phase a swarm-tier lesson was first confirmed in, if recorded. */
function firstPhase(confirmedBy: unknown[] | null | undefined): string | undefined {
  const first = confirmedBy?.[0];
  if (!first || typeof first !== "object") return undefined;
  const n = (first as Record<string, unknown>).phase_number;
  return typeof n === "number" || typeof n === "string" ? String(n) : undefined;
}
