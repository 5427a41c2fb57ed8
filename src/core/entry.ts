// The entry model: one lesson type shared by every tier, face and store (zod schemas + types, no I/O).
import { z } from "zod";
import { FLAG_MAX, REASON_MAX } from "./free-text.js";
import { compiledWhenBusy } from "./compiled-schema.js";
import { DateTimeSchema } from "./dates.js";
import { globOutsideProject } from "./project-glob.js";
import { CATEGORIES, ENFORCEMENTS, KINDS, PRIORITIES, ROOT_CAUSES, SCOPE_PATTERN, SCOPE_RULE, STATUSES, TIERS } from "./enums.js";

// The enum lists and their types live in enums.ts (no zod), so light callers such as `cairn --help` need not load zod.
export * from "./enums.js";

export const SCHEMA_VERSION = 1;

const shortText = (max: number) => z.string().trim().max(max);
const stringList = (maxItems: number, maxLen: number) =>
  z.array(z.string().trim().min(1).max(maxLen)).max(maxItems).default([]);

/** `global` or `stack:<name>` — which projects a lesson is meant for. */
export const ScopeSchema = z.string().regex(SCOPE_PATTERN, { message: SCOPE_RULE });

export const PreventionSchema = z.object({
  rule: shortText(500).optional(),
  detection_pattern: shortText(300).optional(),
  suggested_guardrail: shortText(500).optional(),
});

/** The most code units a lesson's file glob may hold. */
export const FILE_GLOB_MAX = 200;

export const ApplicabilitySchema = z.object({
  scope: ScopeSchema.default("global"),
  /** Project names or ids this applies to; empty or ["*"] means any. */
  projects: stringList(50, 120),
  file_globs: stringList(50, FILE_GLOB_MAX),
  tech_stack: stringList(30, 60),
  agents: stringList(30, 60),
  tools: stringList(30, 60),
  /** Words or phrases whose presence in the context makes this lesson relevant. */
  triggers: stringList(30, 120),
});

export const DirectiveSchema = z.object({
  required_actions: stringList(20, 300),
  forbidden_actions: stringList(20, 300),
  verification_checks: stringList(20, 300),
  priority: z.enum(PRIORITIES).default("medium"),
  enforcement: z.enum(ENFORCEMENTS).default("warn"),
});

export const ConfirmationSchema = z.object({
  at: DateTimeSchema,
  phase: z.string().max(120).optional(),
  project_id: z.string().max(120).optional(),
  by: z.string().max(120).optional(),
});

export const LifecycleSchema = z.object({
  status: z.enum(STATUSES).default("candidate"),
  confidence: z.number().min(0).max(1).default(0.5),
  confirmations: z.array(ConfirmationSchema).default([]),
  phases_alive: z.number().int().min(0).default(0),
  max_phases: z.number().int().min(1).optional(),
  hive_eligible: z.boolean().default(false),
  supersedes: z.string().optional(),
  superseded_by: z.string().optional(),
  /** Why an entry is quarantined/archived, or what a quality check flagged. */
  status_reason: z.string().max(REASON_MAX).optional(),
  flags: z.array(z.string().max(FLAG_MAX)).default([]),
  revalidated_at: DateTimeSchema.optional(),
});

export const ProvenanceSchema = z.object({
  created_by: z.string().max(120).default("human:cli"),
  auto_generated: z.boolean().default(false),
  approved_by: z.string().max(120).optional(),
  approved_at: DateTimeSchema.optional(),
  /** Stable project id: hash of the git remote, else of the absolute path. */
  source_project_id: z.string().max(120).optional(),
  source_project_name: z.string().max(200).optional(),
  session_id: z.string().max(200).optional(),
  derived_from: z
    .object({
      kind: z.enum(["task", "issue", "retrospective", "outcome", "evidence", "manual", "import"]).optional(),
      ref: z.string().max(300).optional(),
    })
    .default({}),
  /** Id the row had in the system it was imported from. */
  external_id: z.string().max(200).optional(),
  /** For hive entries: the swarm entry they were promoted from. */
  promoted_from: z.object({ project_id: z.string().optional(), entry_id: z.string() }).optional(),
});

export const UsageSchema = z.object({
  shown: z.number().int().min(0).default(0),
  applied: z.number().int().min(0).default(0),
  ignored: z.number().int().min(0).default(0),
  violated: z.number().int().min(0).default(0),
  prevented: z.number().int().min(0).default(0),
  /** Pre-action advisories that matched (governance): how often agents were pointed at this lesson. */
  consulted: z.number().int().min(0).default(0),
  helpful: z.number().min(0).default(0),
  harmful: z.number().min(0).default(0),
  last_shown_at: DateTimeSchema.optional(),
  last_feedback_at: DateTimeSchema.optional(),
  last_consulted_at: DateTimeSchema.optional(),
});

/** A stored entry. Every group is always present; optional leaves are truly optional. */
export const EntrySchema = z.object({
  schema_version: z.number().int().default(SCHEMA_VERSION),
  id: z.string(),
  handle: z.string(),
  tier: z.enum(TIERS),
  lesson: z.string(),
  title: z.string().max(80).optional(),
  why: z.string().max(500).optional(),
  prevention: PreventionSchema.prefault({}),
  category: z.enum(CATEGORIES),
  kind: z.enum(KINDS),
  root_cause: z.enum(ROOT_CAUSES).optional(),
  tags: z.array(z.string()).default([]),
  entities: z.array(z.string()).default([]),
  applicability: ApplicabilitySchema.prefault({}),
  directive: DirectiveSchema.prefault({}),
  lifecycle: LifecycleSchema.prefault({}),
  provenance: ProvenanceSchema.prefault({}),
  usage: UsageSchema.prefault({}),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type Entry = z.infer<typeof EntrySchema>;
/** EntrySchema for a path that parses stored entries in bulk (an import, a repair scan): compiled once it is busy. */
export const BulkEntrySchema = compiledWhenBusy(EntrySchema);

/** Letters (with their combining marks: "İ" lower-cases to "i" + U+0307), digits and a few separators. */
const TAG_CHARS = /^[\p{L}\p{M}\p{N}_.:/+#-]+$/u;
const TAG_CHARS_MESSAGE = "tags may hold letters, digits and _ . : / + # - only";
/** The most code units a tag or entity may hold, as stored. */
export const TAG_MAX = 60;

/**
 * A tag is judged as it is stored, lower-cased: checked before, a tag at the limit holding "İ" (one code
 * unit, two lower-cased) was stored past it, and every later edit of its lesson was refused.
 */
const tagSchema = z.string().trim().toLowerCase().min(1).max(TAG_MAX).regex(TAG_CHARS, { message: TAG_CHARS_MESSAGE });
/** Entities keep their case (a class or package name). */
const entitySchema = z.string().trim().min(1).max(TAG_MAX).regex(TAG_CHARS, { message: TAG_CHARS_MESSAGE });

/** A new lesson's file glob: one that names nothing in the project (absolute, a climb out with ..) is refused, naming it. */
const projectGlob = z
  .string()
  .trim()
  .min(1)
  .max(FILE_GLOB_MAX)
  .superRefine((glob, ctx) => {
    const problem = globOutsideProject(glob);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: glob });
  });

/** What a caller supplies to add a lesson. Everything but `lesson` has a default. */
export const NewEntryInputSchema = z.object({
  lesson: z.string(),
  title: z.string().trim().max(80).optional(),
  why: z.string().trim().max(500).optional(),
  prevention: PreventionSchema.optional(),
  category: z.enum(CATEGORIES).default("other"),
  kind: z.enum(KINDS).default("learning"),
  root_cause: z.enum(ROOT_CAUSES).optional(),
  tags: z.array(tagSchema).max(30).default([]),
  entities: z.array(entitySchema).max(30).default([]),
  scope: ScopeSchema.default("global"),
  applicability: ApplicabilitySchema.omit({ scope: true }).partial().extend({ file_globs: z.array(projectGlob).max(50).default([]).optional() }).optional(),
  directive: DirectiveSchema.partial().optional(),
  confidence: z.number().min(0).max(1).default(0.5),
  status: z.enum(STATUSES).optional(),
  /** Explicit promotion route: with enough confirmed phases the lesson goes up to the hive (lifecycle/promote.ts). */
  hive_eligible: z.boolean().optional(),
  /** This lesson's TTL in phase completions, instead of knowledge.default_max_phases / todo_max_phases. */
  max_phases: z.number().int().min(1).max(1000).optional(),
  created_by: z.string().trim().min(1).max(120).optional(),
  auto_generated: z.boolean().optional(),
  session_id: z.string().max(200).optional(),
  derived_from: ProvenanceSchema.shape.derived_from.optional(),
  external_id: z.string().max(200).optional(),
  created_at: z.string().datetime({ offset: true }).optional(),
  /** The phase in which the lesson was learned; counts as its first confirmation. */
  phase: z.string().trim().max(120).optional(),
  supersedes: z.string().max(120).optional(),
});
/** NewEntryInputSchema for the gates every new lesson passes: compiled once an import makes it busy. */
export const BulkNewEntryInputSchema = compiledWhenBusy(NewEntryInputSchema);
export type NewEntryInput = z.input<typeof NewEntryInputSchema>;
export type NewEntry = z.output<typeof NewEntryInputSchema>;

export const EVENT_TYPES = [
  "created", "reinforced", "shown", "applied", "feedback", "promoted", "quarantined", "restored",
  "approved", "superseded", "archived", "removed", "swept", "evicted", "updated", "consulted",
  // An agent asked for a lesson a person approved to be quarantined; a person decides (lifecycle/status.ts).
  "quarantine_requested",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EntryEvent {
  seq: number;
  entry_id: string;
  type: EventType;
  at: string;
  actor: string;
  data: Record<string, unknown>;
  /** The database role that wrote the event, where the store knows one (a shared PostgreSQL hive). */
  db_role?: string;
}

export interface RejectedLesson {
  id: number;
  /** The lesson with any secret replaced by a placeholder — never the secret itself. */
  lesson: string;
  reason: string;
  codes: string[];
  source: string;
  at: string;
}
