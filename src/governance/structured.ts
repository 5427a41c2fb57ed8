// Structured lessons as documents (YAML/JSON files, the review editor): our flat shape or the Knowledge Object shape.
import { dropUndefined } from "../core/entry-input.js";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { z } from "zod";
import { CATEGORY_NAMES, unknownCategoryMessage, type CategoryName } from "../core/categories.js";
import { ENFORCEMENTS, KINDS, PRIORITIES, ROOT_CAUSES, type Entry, type NewEntryInput, type Priority } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { fieldProblem, plainProblem } from "../core/validation-error.js";

const text = z.string();
const strings = z.array(z.string());
const nullable = <T extends z.ZodType>(t: T) => t.nullish();

/**
 * What a Knowledge Object file (seed 004's example) also holds but the system keeps for itself: its
 * lifecycle, approvals and usage. A file cannot approve a lesson nor give it a history: read, left out, said.
 */
export const SYSTEM_KEYS = ["version", "status", "created_at", "created_by", "updated_at", "approved_at", "approved_by", "superseded_by", "usage"] as const;

/** Loose on purpose: the write path validates every value; this only names the keys it knows. */
const DocumentSchema = z
  .object({
    title: nullable(text),
    lesson: nullable(text),
    what_was_learned: nullable(text),
    why: nullable(text),
    why_it_matters: nullable(text),
    root_cause: nullable(z.enum(ROOT_CAUSES)),
    root_cause_category: nullable(z.enum(ROOT_CAUSES)),
    // Ours or opencode-swarm's: the write path maps the latter as `cairn add --category` does.
    category: nullable(z.enum(CATEGORY_NAMES, { error: (issue) => unknownCategoryMessage(issue.input) })),
    kind: nullable(z.enum(KINDS)),
    tags: nullable(strings),
    scope: nullable(text),
    confidence: nullable(z.number()),
    phase: nullable(text),
    enforcement: nullable(z.enum(ENFORCEMENTS)),
    priority: nullable(z.enum(PRIORITIES)),
    supersedes: nullable(text),
    session_id: nullable(text),
    entities: nullable(strings),
    hive_eligible: nullable(z.boolean()),
    max_phases: nullable(z.number()),
    triggers: nullable(strings),
    required_actions: nullable(strings),
    forbidden_actions: nullable(strings),
    verification_checks: nullable(strings),
    insight: nullable(
      z.object({ what_was_learned: nullable(text), why_it_matters: nullable(text), root_cause_category: nullable(z.enum(ROOT_CAUSES)) }).strict(),
    ),
    prevention: nullable(z.object({ rule: nullable(text), detection_pattern: nullable(text), suggested_guardrail: nullable(text) }).strict()),
    applicability: nullable(
      z
        .object({
          projects: nullable(strings),
          file_globs: nullable(strings),
          file_patterns: nullable(strings),
          tech_stack: nullable(strings),
          tags: nullable(strings),
          agents: nullable(strings),
          tools: nullable(strings),
          triggers: nullable(strings),
        })
        .strict(),
    ),
    /** A Knowledge Object's id (KO-karematch-001): kept as the lesson's external id, for traceability. */
    id: nullable(z.union([text, z.number()])),
    ...Object.fromEntries(SYSTEM_KEYS.map((k) => [k, z.unknown().optional()])),
    derived_from: nullable(
      z
        .object({
          kind: nullable(z.enum(["task", "issue", "retrospective", "outcome", "evidence", "manual", "import"])),
          ref: nullable(z.union([text, z.number()])),
          issue_id: nullable(z.union([text, z.number()])),
          task: nullable(text),
          session_id: nullable(text),
          resolution_status: nullable(text),
        })
        .strict(),
    ),
  })
  .strict();
export type LessonDocument = z.input<typeof DocumentSchema>;

/** The fields of a lesson a person may change (review editor, Markdown mirror, files). */
export interface LessonFields {
  lesson?: string;
  title?: string;
  why?: string;
  root_cause?: NewEntryInput["root_cause"];
  category?: CategoryName;
  kind?: NewEntryInput["kind"];
  tags?: string[];
  prevention?: { rule?: string; detection_pattern?: string; suggested_guardrail?: string };
  applicability?: { projects?: string[]; file_globs?: string[]; tech_stack?: string[]; agents?: string[]; tools?: string[]; triggers?: string[] };
  entities?: string[];
  hive_eligible?: boolean;
  max_phases?: number;
  required_actions?: string[];
  forbidden_actions?: string[];
  verification_checks?: string[];
  enforcement?: "warn" | "enforce";
  priority?: Priority;
  supersedes?: string;
  scope?: string;
  confidence?: number;
  phase?: string;
  session_id?: string;
  derived_from?: { kind?: "task" | "issue" | "retrospective" | "outcome" | "evidence" | "manual" | "import"; ref?: string };
  /** The id the lesson has elsewhere (a Knowledge Object's KO-… id). */
  external_id?: string;
  /** Keys of the document the system keeps for itself (SYSTEM_KEYS) that it held: read, not applied. */
  ignored_keys?: string[];
}

function pick<T>(field: string, a: T | null | undefined, b: T | null | undefined): T | undefined {
  const x = a ?? undefined;
  const y = b ?? undefined;
  if (x !== undefined && y !== undefined && JSON.stringify(x) !== JSON.stringify(y)) {
    throw new CairnError("INVALID_INPUT", `Give ${field} once: the document sets it twice with different values.`);
  }
  return x ?? y;
}

const blank = (s: string | null | undefined) => (s === null || s === undefined || s.trim() === "" ? undefined : s);

/** `cairn add`'s flag names → where a lesson document keeps them (`[group, key]`, or a top-level key). */
const FLAG_KEYS: Readonly<Record<string, readonly [string, string] | string>> = {
  files: ["applicability", "file_globs"], stack: ["applicability", "tech_stack"], projects: ["applicability", "projects"],
  agents: ["applicability", "agents"], tools: ["applicability", "tools"], detect: ["prevention", "detection_pattern"],
  guardrail: ["prevention", "suggested_guardrail"], require: "required_actions", forbid: "forbidden_actions",
  verify: "verification_checks", "root-cause": "root_cause", "hive-eligible": "hive_eligible", "max-phases": "max_phases",
};

/**
 * A document written with the add command's flag names (`files:`, `stack:`, `prevention: "…"` for its
 * rule, `require:` …) as the Knowledge Object keys it stands for. A field given both ways with two
 * values is refused by `pick`, as any field given twice is.
 */
function flagNamesToKeys(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const doc: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  if (typeof doc.prevention === "string") doc.prevention = { rule: doc.prevention };
  for (const [flag, to] of Object.entries(FLAG_KEYS)) {
    if (!(flag in doc)) continue;
    const value = doc[flag];
    delete doc[flag];
    const [group, key] = typeof to === "string" ? [undefined, to] : to;
    let into = doc;
    if (group) {
      const current = doc[group];
      into = doc[group] = current && typeof current === "object" ? { ...(current as Record<string, unknown>) } : {};
    }
    into[key] = pick(group ? `${group}.${key}` : key, into[key], value);
  }
  return doc;
}

/** A parsed document to lesson fields; unknown keys and bad enum values are refused with their path. */
export function fieldsFromDocument(raw: unknown): LessonFields {
  const r = DocumentSchema.safeParse(flagNamesToKeys(raw));
  if (!r.success) {
    const detail = r.error.issues.map((i) => fieldProblem(i.path.join(".") || "document", plainProblem(i))).join("; ");
    throw new CairnError("INVALID_INPUT", `Invalid lesson document: ${detail}`);
  }
  const d = r.data;
  const a = d.applicability ?? {};
  const df = d.derived_from ?? {};
  const issue = df.issue_id ?? undefined;
  const refValue = df.ref ?? issue ?? df.task ?? undefined;
  const tags = [...(d.tags ?? []), ...(a.tags ?? [])];
  const out: LessonFields = {
    lesson: blank(pick("lesson / what_was_learned", d.lesson, d.what_was_learned ?? d.insight?.what_was_learned)),
    title: blank(d.title),
    why: blank(pick("why / why_it_matters", d.why, d.why_it_matters ?? d.insight?.why_it_matters)),
    root_cause: pick("root_cause / root_cause_category", d.root_cause, d.root_cause_category ?? d.insight?.root_cause_category),
    category: d.category ?? undefined,
    kind: d.kind ?? undefined,
    tags: d.tags || a.tags ? [...new Set(tags)] : undefined,
    enforcement: d.enforcement ?? undefined,
    priority: d.priority ?? undefined,
    supersedes: blank(d.supersedes),
    scope: blank(d.scope),
    confidence: d.confidence ?? undefined,
    phase: blank(d.phase),
    session_id: blank(pick("session_id", d.session_id, df.session_id)),
    entities: d.entities ?? undefined,
    hive_eligible: d.hive_eligible ?? undefined,
    max_phases: d.max_phases ?? undefined,
    required_actions: d.required_actions ?? undefined,
    forbidden_actions: d.forbidden_actions ?? undefined,
    verification_checks: d.verification_checks ?? undefined,
    external_id: d.id === null || d.id === undefined ? undefined : String(d.id),
  };
  const ignored = SYSTEM_KEYS.filter((k) => (d as Record<string, unknown>)[k] !== undefined && (d as Record<string, unknown>)[k] !== null);
  if (ignored.length) out.ignored_keys = ignored;
  const triggers = pick("triggers / applicability.triggers", d.triggers, a.triggers);
  if (triggers && !d.applicability) out.applicability = { triggers };
  if (d.prevention) {
    out.prevention = {
      rule: blank(d.prevention.rule),
      detection_pattern: blank(d.prevention.detection_pattern),
      suggested_guardrail: blank(d.prevention.suggested_guardrail),
    };
  }
  if (d.applicability) {
    out.applicability = {
      projects: a.projects ?? undefined,
      file_globs: pick("file_globs / file_patterns", a.file_globs, a.file_patterns),
      tech_stack: a.tech_stack ?? undefined,
      agents: a.agents ?? undefined,
      tools: a.tools ?? undefined,
      triggers,
    };
  }
  if (d.derived_from && (df.kind || refValue !== undefined)) {
    out.derived_from = { kind: df.kind ?? (issue !== undefined ? "issue" : df.task ? "task" : undefined), ref: refValue === undefined ? undefined : String(refValue) };
  }
  return dropUndefined(out);
}


/** A YAML or JSON file's text to lesson fields. */
export function parseLessonFile(textContent: string, fileName: string): LessonFields {
  let doc: unknown;
  try {
    doc = /\.json$/i.test(fileName) ? JSON.parse(textContent) : parseYaml(textContent);
  } catch (e) {
    // The YAML parser's first line ends "at line 2, column 1:" before a code frame the one-line message leaves out.
    throw new CairnError("INVALID_INPUT", `Cannot parse ${fileName}: ${(e as Error).message.split("\n")[0]!.replace(/:\s*$/, ".")}`);
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
    // Plain text (a lesson.txt) parses as one YAML string: say how plain text goes in.
    const plain = typeof doc === "string" ? ` It holds plain text: add that with \`cairn add - < ${fileName}\`, or write it as \`lesson: <text>\` here.` : "";
    throw new CairnError("INVALID_INPUT", `${fileName} must hold one lesson as a mapping (title, lesson, why, prevention, applicability, …).${plain}`);
  }
  const ko = (doc as { knowledge_object?: unknown }).knowledge_object;
  return fieldsFromDocument(ko && typeof ko === "object" ? ko : doc);
}

/** Lesson fields to the write path's input; `over` (flags) wins over `base` (a file). */
export function inputFromFields(base: LessonFields, over: LessonFields = {}): NewEntryInput {
  const f: LessonFields = {
    ...base,
    ...over,
    prevention: base.prevention || over.prevention ? { ...base.prevention, ...over.prevention } : undefined,
    applicability: base.applicability || over.applicability ? { ...base.applicability, ...over.applicability } : undefined,
  };
  const directive = dropUndefined({
    enforcement: f.enforcement,
    priority: f.priority,
    required_actions: f.required_actions,
    forbidden_actions: f.forbidden_actions,
    verification_checks: f.verification_checks,
  });
  return dropUndefined({
    lesson: f.lesson ?? "",
    title: f.title,
    why: f.why,
    root_cause: f.root_cause,
    category: f.category,
    kind: f.kind,
    tags: f.tags,
    scope: f.scope,
    confidence: f.confidence,
    phase: f.phase,
    prevention: f.prevention,
    applicability: f.applicability,
    directive: Object.keys(directive).length ? directive : undefined,
    entities: f.entities,
    hive_eligible: f.hive_eligible,
    max_phases: f.max_phases,
    supersedes: f.supersedes,
    session_id: f.session_id,
    derived_from: f.derived_from,
    external_id: f.external_id,
  }) as NewEntryInput;
}

/** The fields an edit may change; everything else (usage, lifecycle, provenance) is the system's. */
export const EDITABLE_FIELDS = ["title", "lesson", "why", "root_cause", "category", "kind", "tags", "prevention", "applicability", "enforcement", "supersedes"] as const;

/** A whole document (editor, mirror file) names every field: one it leaves out is cleared. */
export function completeFields(f: LessonFields): LessonFields {
  const out: Record<string, unknown> = { ...f };
  for (const k of EDITABLE_FIELDS) if (!(k in out)) out[k] = undefined;
  return out as LessonFields;
}

/** The editable fields of an entry, in a fixed order (review editor and mirror comparisons). */
export function fieldsOfEntry(e: Entry): Required<Pick<LessonFields, "lesson" | "tags" | "prevention" | "applicability" | "enforcement" | "category">> & LessonFields {
  return {
    title: e.title,
    lesson: e.lesson,
    why: e.why,
    root_cause: e.root_cause,
    category: e.category,
    kind: e.kind,
    tags: [...e.tags],
    prevention: { rule: e.prevention.rule, detection_pattern: e.prevention.detection_pattern, suggested_guardrail: e.prevention.suggested_guardrail },
    applicability: { projects: [...e.applicability.projects], file_globs: [...e.applicability.file_globs], tech_stack: [...e.applicability.tech_stack] },
    enforcement: e.directive.enforcement,
    supersedes: e.lifecycle.supersedes,
  };
}

/** YAML a person edits in $EDITOR: every editable key present, empty ones as null so they can be filled in. */
export function documentYaml(e: Entry): string {
  const f = fieldsOfEntry(e);
  const doc = {
    title: f.title ?? null,
    lesson: f.lesson,
    why: f.why ?? null,
    root_cause: f.root_cause ?? null,
    category: f.category,
    kind: f.kind,
    tags: f.tags,
    prevention: {
      rule: f.prevention.rule ?? null,
      detection_pattern: f.prevention.detection_pattern ?? null,
      suggested_guardrail: f.prevention.suggested_guardrail ?? null,
    },
    applicability: f.applicability,
    enforcement: f.enforcement,
    supersedes: f.supersedes ?? null,
  };
  const head = `# ${e.handle} (${e.lifecycle.status}). Edit and save; close without saving to keep it as it is.\n# root_cause: ${ROOT_CAUSES.join(" | ")}\n# kind: ${KINDS.join(" | ")}\n`;
  return head + stringifyYaml(doc, { lineWidth: 0 });
}
