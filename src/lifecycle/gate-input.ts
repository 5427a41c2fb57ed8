// The gates every stored lesson passes before dedup: structure, the lesson text, the other free-text fields. No I/O, so an import's worker thread runs them too.
import { plainProblem } from "../core/validation-error.js";
import { BulkNewEntryInputSchema, type NewEntry, type NewEntryInput, type Tier } from "../core/entry.js";
import { validateLessonText } from "../quality/gates.js";
import { checkContentSafety } from "../quality/safety.js";
import { findSecrets } from "../quality/secrets.js";
import type { QualityIssue } from "../quality/types.js";
import { isPlaceholderText } from "../quality/vague.js";
import type { Services } from "../services.js";
import { UNSTORABLE_PROBLEM, unstorableField } from "../store/storable.js";

function structureIssues(err: { issues: { path: PropertyKey[]; message: string }[] }): QualityIssue[] {
  return err.issues.map((i) => {
    // zod says "expected string, received undefined" for a missing field; a person reads "is required".
    const missing = /^Invalid input: expected (\w+), received undefined$/.exec(i.message);
    return {
      layer: "structure" as const,
      severity: "reject" as const,
      code: `invalid_${String(i.path[0] ?? "input")}`,
      // Other refusals in the words every face uses ("tags.0: is too long (at most 60 characters)"), not zod's.
      message: `${i.path.map(String).join(".") || "input"}: ${missing ? `is required (${missing[1]})` : plainProblem(i)}`,
    };
  });
}

/** The free-text fields besides the lesson, as a new input or a stored entry carries them. */
export type ExtraTextFields = Pick<NewEntry, "title" | "why" | "prevention" | "directive" | "applicability">;

/** An issue found in a field other than the lesson text, saying which: the caller fixes that field, the lesson itself was fine. */
function inField(field: string, i: QualityIssue): QualityIssue {
  return { ...i, field, message: `${field}: ${i.message}` };
}

/** Where a lesson came from: free text a person or an agent typed, so it is screened for secrets too. */
export interface Traceability {
  derived_from?: { ref?: string | undefined } | undefined;
  session_id?: string | undefined;
}

/** The traceability fields, and the finding that reads a random value alone as a key (an id there is one by design). */
const TRACE_FIELDS = new Set(["derived from", "session id"]);
const LONE_SECRET = "secret_lone_secret";

/** Free-text fields besides the lesson get the same secret and injection screening (a lossless restore too). */
export function extraTextIssues(input: ExtraTextFields, trace: Traceability = {}): QualityIssue[] {
  const fields = (name: string, xs: Array<string | undefined>) =>
    xs.filter((x): x is string => typeof x === "string" && x.length > 0).map((text) => ({ name, text }));
  const advice = [
    ...fields("title", [input.title]), ...fields("why", [input.why]),
    ...fields("prevention rule", [input.prevention?.rule]), ...fields("suggested guardrail", [input.prevention?.suggested_guardrail]),
    ...fields("required action", input.directive?.required_actions ?? []), ...fields("verification check", input.directive?.verification_checks ?? []),
    ...fields("trigger", input.applicability?.triggers ?? []),
  ];
  // A forbidden action names the unsafe thing on purpose ("mark API views csrf_exempt"): screened for secrets, not for safety.
  // A detection pattern is code-like (safety rules would misfire on it), but it must not carry a secret either.
  // Traceability is shown to people, never injected: screened for secrets alone.
  const screened = [
    ...advice, ...fields("forbidden action", input.directive?.forbidden_actions ?? []), ...fields("detection pattern", [input.prevention?.detection_pattern]),
    ...fields("derived from", [trace.derived_from?.ref]), ...fields("session id", [trace.session_id]),
  ];
  if (screened.length === 0) return [];
  // One pass over them all (most lessons carry none); only a find is traced back to its field. A traceability
  // value is an id (a session's, an issue's): random by nature, so only a secret something names or marks counts there.
  const secrets = findSecrets(screened.map((f) => f.text).join("\n")).issues.length === 0
    ? [] : screened.flatMap((f) => findSecrets(f.text).issues.filter((i) => !(TRACE_FIELDS.has(f.name) && i.code === LONE_SECRET)).map((i) => inField(f.name, i)));
  // Each field is an order of its own ("DO: …" for a required action): judged alone, as the lesson text
  // is, so a warning in one ("never run rm -rf /") neither hides nor taints a command in another.
  const safety = new Map<string, QualityIssue>();
  for (const f of advice) {
    for (const i of checkContentSafety(f.text)) if (i.severity !== "warn" && !safety.has(f.name + i.code + i.message)) safety.set(f.name + i.code + i.message, inField(f.name, i));
  }
  return [...secrets, ...safety.values()];
}

export type GateOutcome =
  | { ok: true; input: NewEntry; lesson: string; issues: QualityIssue[] }
  | { ok: false; lesson: string; issues: QualityIssue[] };

/** The string (or list of strings) fields of an input that failed its structure check, for the text gates to judge still. */
function wellFormedText(raw: NewEntryInput): ExtraTextFields & Traceability {
  const r = raw as unknown as Record<string, Record<string, unknown> | undefined>;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  const group = (k: string) => (r[k] && typeof r[k] === "object" ? r[k] : {});
  return {
    title: str(r.title), why: str(r.why),
    prevention: { rule: str(group("prevention").rule), detection_pattern: str(group("prevention").detection_pattern), suggested_guardrail: str(group("prevention").suggested_guardrail) },
    directive: { required_actions: strs(group("directive").required_actions), verification_checks: strs(group("directive").verification_checks), forbidden_actions: strs(group("directive").forbidden_actions) },
    applicability: { triggers: strs(group("applicability").triggers) },
    derived_from: { ref: str(group("derived_from").ref) },
    session_id: str(r.session_id),
  } as ExtraTextFields & Traceability;
}

/** The text gates: the lesson, the other free-text fields, and the hive's refusal of placeholder text. */
function textIssues(s: Pick<Services, "config">, lesson: string, fields: ExtraTextFields & Traceability, tier: Tier, trusted: boolean): { text: string; issues: QualityIssue[] } {
  // The hive gate: whatever the route, hive writes are fully validated and refuse placeholder text.
  const hive = tier === "hive";
  const validate = s.config.knowledge.validation_enabled || hive;
  const gate = validateLessonText(lesson, { trusted: (trusted && !hive) || !validate });
  const issues = [...gate.issues, ...extraTextIssues(fields, fields)];
  if (hive && isPlaceholderText(lesson)) {
    issues.push({ layer: "quality", severity: "reject", code: "placeholder", message: "placeholder or test text is never stored in the hive" });
  }
  return { text: gate.text, issues };
}

/** The gates every stored lesson passes, new or edited: structure, the lesson text, the other free-text fields. */
export function gateInput(s: Pick<Services, "config">, raw: NewEntryInput, tier: Tier, trusted = false): GateOutcome {
  const lessonRaw = typeof raw?.lesson === "string" ? raw.lesson : "";
  const parsed = BulkNewEntryInputSchema.get().safeParse(raw);
  if (!parsed.success) {
    // Every problem at once: a too-long title must not hide a secret in "why" until the title is fixed.
    const structure = structureIssues(parsed.error);
    const text = typeof raw?.lesson === "string" ? textIssues(s, raw.lesson, wellFormedText(raw), tier, trusted).issues : [];
    return { ok: false, lesson: lessonRaw, issues: [...structure, ...text] };
  }
  const input = parsed.data;
  const { text, issues } = textIssues(s, input.lesson, input, tier, trusted);
  if (issues.some((i) => i.severity === "reject")) return { ok: false, lesson: input.lesson, issues };
  // Text no store may hold in a field no gate reads (phase, derived_from.ref), refused here in the caller's own
  // names: the store's last-line refusal named the built entry's inner path (lifecycle.confirmations[0].phase) and threw.
  const unstorable = unstorableField(input);
  if (unstorable) {
    return { ok: false, lesson: input.lesson, issues: [{ layer: "structure", severity: "reject", code: "unstorable_text", message: `${unstorable}: ${UNSTORABLE_PROBLEM}` }] };
  }
  return { ok: true, input, lesson: text, issues };
}
