// The agent-facing tools, defined once: every face (MCP server, OpenCode plugin) serves exactly this list.
import { z } from "zod";
import { nearestName } from "../core/nearest-name.js";
import { quoteInput, sanitizeForPrompt } from "../quality/sanitize.js";
import { CairnError, DISABLED_MESSAGE, NotFoundError } from "../errors.js";
import { knowledgeAdd } from "./definitions/knowledge-add.js";
import { knowledgeArchive } from "./definitions/knowledge-archive.js";
import { knowledgeCheck } from "./definitions/knowledge-check.js";
import { knowledgeContext } from "./definitions/knowledge-context.js";
import { knowledgeFeedback } from "./definitions/knowledge-feedback.js";
import { knowledgeOutcome } from "./definitions/knowledge-outcome.js";
import { knowledgePromote } from "./definitions/knowledge-promote.js";
import { knowledgeQuarantine } from "./definitions/knowledge-quarantine.js";
import { knowledgeQuery } from "./definitions/knowledge-query.js";
import { knowledgeRecall } from "./definitions/knowledge-recall.js";
import { knowledgeRemove } from "./definitions/knowledge-remove.js";
import type { ToolCallContext, ToolDefinition, ToolResult } from "./types.js";

export type { ToolCallContext, ToolDefinition, ToolResult } from "./types.js";
export { knowledgeAdd, knowledgeArchive, knowledgeCheck, knowledgeContext, knowledgeFeedback, knowledgeOutcome, knowledgePromote, knowledgeQuarantine, knowledgeQuery, knowledgeRecall, knowledgeRemove };

export const ALL_TOOLS: readonly ToolDefinition[] = [
  knowledgeAdd,
  knowledgeRecall,
  knowledgeQuery,
  knowledgeRemove,
  knowledgeArchive,
  knowledgeQuarantine,
  knowledgeFeedback,
  knowledgePromote,
  knowledgeContext,
  knowledgeOutcome,
  knowledgeCheck,
];

export function findTool(name: string): ToolDefinition | undefined {
  return ALL_TOOLS.find((t) => t.name === name);
}

/**
 * Runs a tool on parsed arguments: every face goes through here. With knowledge.enabled = false
 * no tool reads or writes: each answers that knowledge is disabled (an answer, not a failure, so the
 * model stops trying rather than retrying an error).
 */
export async function runTool(tool: ToolDefinition, args: unknown, ctx: ToolCallContext): Promise<ToolResult> {
  if (!ctx.cairn.enabled) return disabledAnswer();
  return tool.run(args as never, ctx);
}

function disabledAnswer(): ToolResult {
  return { text: `disabled: ${DISABLED_MESSAGE}`, data: { action: "disabled", reason: DISABLED_MESSAGE, changed: false } };
}

/** Longest message a tool answers a failure or refusal with. */
export const TOOL_MESSAGE_MAX_CHARS = 2000;

/**
 * A message as the calling model reads it: it may quote what the call sent (an id, a name, a file) or
 * what a stored lesson holds, so it is neutralised like any prompt-bound text (one line, no tag can form).
 */
export function toolMessage(text: string): string {
  return sanitizeForPrompt(text, TOOL_MESSAGE_MAX_CHARS);
}

/** A failed call's message as an agent reads it: an unknown id comes with the tool that lists the ids (an agent may have no `cairn` CLI). */
export function toolErrorMessage(e: CairnError): string {
  return toolMessage(e instanceof NotFoundError ? `${e.message} knowledge_query lists the lessons with their ids (S-12, H-3, …).` : e.message);
}

/** What a call naming arguments the tool does not take is told: each name, the one it likely meant, what the tool takes. */
export function unknownArgumentsMessage(tool: ToolDefinition, keys: readonly string[]): string {
  const known = Object.keys(tool.args);
  const named = keys.map((k) => {
    const near = nearestName(k, known);
    return `${quoteInput(k)}${near ? ` (did you mean "${near}"?)` : ""}`;
  });
  return `Unknown argument${keys.length > 1 ? "s" : ""} ${named.join(", ")}; ${tool.name} takes ${known.join(", ")}.`;
}

/**
 * What a call whose arguments are not an object at all (null, a string, a list) is told: the tool takes
 * an object of named arguments, which ones, and an example of the first one it needs.
 */
export function notAnObjectMessage(tool: ToolDefinition, args: unknown): string {
  const names = Object.keys(tool.args);
  const first = names.find((n) => !(tool.args[n] as z.ZodType).safeParse(undefined).success) ?? names[0];
  const value = first ? valueSchema(tool.args[first] as z.ZodType) : undefined;
  const expected = value instanceof z.ZodNumber ? "number" : value instanceof z.ZodBoolean ? "boolean" : undefined;
  const example = first ? ` Example: {"${first}": ${exampleFor(tool, first, expected)}}.` : "";
  return toolMessage(`${tool.name} takes an object of arguments (${names.join(", ")}), not ${kindOf(args)}.${example}`);
}

/** How a JSON value reads in a message: "a number", "an array", "null". */
function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  const t = typeof v;
  return t === "object" ? "an object" : t === "string" ? "a string" : `a ${t}`;
}

/** The schema under .optional() and .default(): what one value of the argument is. */
function valueSchema(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s;
}

/**
 * An example value for `name`, of the argument's own type: the one its description gives (`e.g. "…"`,
 * as a list when the argument is one), else one of its type — a list of statuses is not shown a file path.
 */
function exampleFor(tool: ToolDefinition, name: string, expected: string | undefined): string {
  const schema = tool.args[name] as z.ZodType | undefined;
  const given = /e\.g\. ("[^"]{1,80}"|\[[^\]]{1,80}\]|\d+)/.exec(schema?.description ?? "")?.[1];
  const value = schema ? valueSchema(schema) : undefined;
  if (value instanceof z.ZodArray) {
    if (given) return given.startsWith("[") ? given : `[${given}]`;
    const item = valueSchema(value.element as z.ZodType);
    if (item instanceof z.ZodEnum) return `[${JSON.stringify(item.options[0])}]`;
    return /^files?(_|$)/.test(name) ? '["src/auth/session.ts"]' : '["…"]';
  }
  if (given) return given;
  return expected === "number" || expected === "int" ? "5" : expected === "boolean" ? "true" : '"…"';
}

/** zod's own wording, which names no argument and gives no example; a schema's custom message is kept as it is. */
const ZOD_WORDING = /^(?:Invalid (?:input|option|string|key|element|value)|Too (?:big|small)|Unrecognized key)/;

/**
 * One argument problem in words an agent acts on: which argument, what it must be, what was sent, and
 * an example (zod's own "Invalid input: expected string, received number" names none of these).
 */
function argumentProblem(tool: ToolDefinition, issue: z.core.$ZodIssue, args: unknown): string {
  if (issue.code === "unrecognized_keys") return unknownArgumentsMessage(tool, issue.keys);
  if (issue.code === "invalid_type" && issue.path.length === 0) return notAnObjectMessage(tool, args);
  const name = issue.path.length ? String(issue.path[0]) : undefined;
  if (!name || !(name in tool.args)) return issue.message;
  const where = issue.path.length > 1 ? `"${name}" (item ${issue.path.slice(1).join(".")})` : `"${name}"`;
  // What the call sent at the issue's path (zod's issues leave the input out unless asked).
  const input = issue.path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined), args);
  const example = (expected?: string) => ` Example: {"${name}": ${exampleFor(tool, name, expected)}}.`;
  // A schema that words its own refusal (a category's, the query's length) already says what to send.
  if (!ZOD_WORDING.test(issue.message)) return `Argument ${where}: ${issue.message}`;
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined && issue.path.length === 1) return `Missing argument "${name}": ${tool.name} needs it (${issue.expected}).${example(issue.expected)}`;
      return `Argument ${where} must be ${issue.expected === "int" ? "a whole number" : `${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`}, not ${input === undefined ? "missing" : typeof input === "number" && issue.expected === "int" ? input : kindOf(input)}.${example(issue.expected)}`;
    case "invalid_value":
      return `Argument ${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}; it was ${quoteInput(String(input)).slice(0, 80)}.`;
    case "too_big":
    case "too_small": {
      const bound = issue.code === "too_big" ? `at most ${issue.maximum}` : `at least ${issue.minimum}`;
      const unit = issue.origin === "string" ? " characters" : issue.origin === "array" ? " items" : "";
      return `Argument ${where} must be ${bound}${unit}.`;
    }
    default:
      return `Argument ${where}: ${issue.message}`;
  }
}

/** Every problem with a call's arguments, one sentence each: the one wording on every face. */
export function argumentProblems(tool: ToolDefinition, issues: readonly z.core.$ZodIssue[], args: unknown): string {
  // Where the tool words its own refusal of a value (the query's "is blank"), zod's second opinion on it is left out.
  const worded = new Set(issues.filter((i) => !ZOD_WORDING.test(i.message)).map((i) => i.path.join(".")));
  const told = issues.filter((i) => !(ZOD_WORDING.test(i.message) && worded.has(i.path.join("."))));
  return toolMessage(`Invalid arguments for ${tool.name}: ${told.map((i) => argumentProblem(tool, i, args)).join(" ")}`);
}

const inputSchemas = new WeakMap<ToolDefinition, z.ZodObject>();

/**
 * The one schema a tool's arguments are parsed with, on every face: strict, so a misspelt name
 * (`hive_elgible`) is refused, not dropped while the call succeeds without it. The MCP server hands it
 * to the SDK as the tool's input schema (clients also see `additionalProperties: false`).
 */
export function toolInputSchema(tool: ToolDefinition): z.ZodObject {
  let schema = inputSchemas.get(tool);
  if (!schema) {
    schema = z.strictObject(tool.args, {
      error: (issue) => (issue.code === "unrecognized_keys" ? unknownArgumentsMessage(tool, issue.keys) : undefined),
    });
    inputSchemas.set(tool, schema);
  }
  return schema;
}

/**
 * Validates raw arguments against the tool's schema (toolInputSchema, applying defaults), then runs it
 * (runTool). `run` expects parsed arguments, so a face whose host does not parse them itself goes through
 * here. Bad arguments throw CairnError INVALID_INPUT naming each field, and each argument it does not take.
 */
export async function callTool(tool: ToolDefinition, rawArgs: unknown, ctx: ToolCallContext): Promise<ToolResult> {
  // Switched off, the arguments do not matter: the answer is the same for every call.
  if (!ctx.cairn.enabled) return disabledAnswer();
  const parsed = toolInputSchema(tool).safeParse(rawArgs ?? {});
  if (!parsed.success) {
    throw new CairnError("INVALID_INPUT", argumentProblems(tool, parsed.error.issues, rawArgs ?? {}));
  }
  return runTool(tool, parsed.data, ctx);
}

/** True when the call added, removed or retired entries — what a face announces as a changed list. */
export function changedEntries(result: ToolResult): boolean {
  return result.data.changed === true;
}
