// Shared helpers for JSONL parsers: safe JSON decoding and error wording that never echoes content.
import type { ZodError } from "zod";
import type { ParseItem } from "../types.js";

export type JsonObject = Record<string, unknown>;

/** Per-file facts a line parser may need. */
export interface LineContext {
  /** File name without directory, e.g. "shared-learnings.jsonl". */
  basename: string;
}

export function bad(line: number, error: string): ParseItem {
  return { ok: false, bad: { line, error } };
}

/**
 * Decodes one line as a JSON object. Error texts are built here rather than taken from
 * JSON.parse, whose messages quote the offending input (which may hold a secret).
 */
export function parseJsonObject(text: string): { ok: true; value: JsonObject } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: describeJsonFailure(text, e) };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: `expected a JSON object, got ${typeName(value)}` };
  }
  return { ok: true, value: value as JsonObject };
}

function describeJsonFailure(text: string, e: unknown): string {
  const end = endOfFirstValue(text);
  if (end !== undefined && end < text.length) {
    const rest = text.slice(end).trimStart();
    if (rest.startsWith("{")) return "not valid JSON (two objects on one line?)";
    if (rest.length > 0) return `not valid JSON (unexpected text after the object at column ${text.length - rest.length + 1})`;
  }
  if (end === undefined && /^\s*[{[]/.test(text)) return "not valid JSON (the object is never closed; line cut off?)";
  const pos = /position (\d+)/.exec(e instanceof Error ? e.message : "");
  return pos ? `not valid JSON (error at column ${Number(pos[1]) + 1})` : "not valid JSON";
}

/** Index just past the first balanced `{…}` / `[…]`, or undefined if it never closes. */
function endOfFirstValue(text: string): number | undefined {
  let i = text.search(/\S/);
  if (i < 0 || (text[i] !== "{" && text[i] !== "[")) return undefined;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) return i + 1;
    }
  }
  return undefined;
}

export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}

/** Turns zod issues into field-level sentences; uses only field names and schema facts. */
export function describeIssues(error: ZodError, raw: unknown, max = 3): string {
  const parts = error.issues.slice(0, max).map((issue) => {
    const field = issue.path.map(String).join(".") || "(record)";
    const value = valueAt(raw, issue.path);
    switch (issue.code) {
      case "invalid_type":
        return value === undefined
          ? `missing required field "${field}"`
          : `field "${field}" should be ${issue.expected}, got ${typeName(value)}`;
      case "invalid_value":
        return `field "${field}" is not one of the allowed values (${issue.values.map(String).join(", ")})`;
      case "too_big":
        return `field "${field}" is too ${issue.origin === "string" ? "long" : "large"} (max ${String(issue.maximum)})`;
      case "too_small":
        return `field "${field}" is too ${issue.origin === "string" ? "short" : "small"} (min ${String(issue.minimum)})`;
      case "invalid_format":
        return `field "${field}" has the wrong format`;
      default:
        return `field "${field}" is invalid`;
    }
  });
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : "";
  return parts.join("; ") + more;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let cur = raw;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}
