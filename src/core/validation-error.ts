// A zod validation error that escaped the engine, said in plain words as the typed error every face reports.
import { CairnError } from "../errors.js";

/** The parts of a zod issue read here; checked by shape so the faces need not load zod to recognise one. */
interface ValidationIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  expected?: string;
  input?: unknown;
  /** The values an enum takes (zod's invalid_value). */
  values?: readonly unknown[];
}

function isValidationError(e: unknown): e is Error & { issues: ValidationIssue[] } {
  return e instanceof Error && e.name === "ZodError" && Array.isArray((e as { issues?: unknown }).issues);
}

/** A zod type name as it reads in a sentence: zod says "int" for a whole number, "array" for a list, and "a object" is not English. */
function typeName(expected: string | undefined): string {
  if (expected === "int") return "a whole number";
  if (expected === "array") return "a list";
  if (!expected) return "a different type";
  return `${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}`;
}

/** What is wrong with one zod issue's value, in plain words, without the field: "is too long (at most 60 characters)". */
export function plainProblem(i: ValidationIssue): string {
  const unit = i.origin === "string" ? " characters" : i.origin === "array" || i.origin === "set" ? " items" : "";
  // A schema that words its own refusal (what to do instead) is heard as written; zod's defaults are reworded below.
  if ((i.code === "too_big" || i.code === "too_small") && !/^Too (big|small)\b/.test(i.message)) return i.message;
  switch (i.code) {
    case "too_big":
      return `is too ${i.origin === "string" ? "long" : i.origin === "array" ? "long a list" : "large"} (at most ${String(i.maximum)}${unit})`;
    case "too_small":
      return `is too ${i.origin === "string" ? "short" : i.origin === "array" ? "short a list" : "small"} (at least ${String(i.minimum)}${unit})`;
    case "invalid_type":
      return `should be ${typeName(i.expected)}`;
    case "invalid_value":
      // zod's default ("Invalid option: expected one of …"); a schema's own wording (a category's) is kept.
      return i.values?.length && /^Invalid option\b/.test(i.message) ? `should be one of ${i.values.map(String).join(", ")}` : i.message;
    default:
      return i.message;
  }
}

/** A field and what is wrong with it as one phrase: "title is too long …", "tags: Unknown tag". */
export function fieldProblem(field: string, problem: string): string {
  return /^(is|should) /.test(problem) ? `${field} ${problem}` : `${field}: ${problem}`;
}

/** One zod issue in plain words, naming its field: what every face says for a value the schema refused. */
export function plainIssue(i: ValidationIssue): string {
  return fieldProblem(i.path.map(String).join(".") || "the input", plainProblem(i));
}

/**
 * `e` as a CairnError when it is a validation error (INVALID_INPUT, naming each field and its problem),
 * else `e` unchanged. Every face's error report calls this, so zod's raw issue list never reaches a person.
 */
export function asCairnError(e: unknown): unknown {
  if (!isValidationError(e)) return e;
  const shown = e.issues.slice(0, 3).map(plainIssue);
  const more = e.issues.length > 3 ? ` (and ${e.issues.length - 3} more)` : "";
  return new CairnError("INVALID_INPUT", `Invalid input: ${shown.join("; ")}${more}.`, { issues: e.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })) });
}
