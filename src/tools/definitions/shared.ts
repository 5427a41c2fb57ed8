// Helpers every tool definition shares: typed definitions, id arguments, entry summaries and write outcomes.
import { z } from "zod";
import type { Entry, Tier } from "../../core/entry.js";
import type { WriteResult } from "../../lifecycle/write.js";
import { sanitizeForPrompt } from "../../quality/sanitize.js";
import { cautionOf } from "../../retrieval/render.js";
import type { ToolDefinition, ToolResult } from "../types.js";

/** Keeps each definition's own arg types for `run` while it is stored in a plain ToolDefinition list. */
export function defineTool<S extends z.ZodRawShape>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}

// Only the length is bounded here: the engine validates the id itself and explains what it accepts.
export function entryIdArg(what: string) {
  return z.string().min(1).max(200).describe(`${what} A UUID, a handle such as S-12 (swarm) or H-3 (hive), or an imported id.`);
}

export const TIER_FILTER = ["all", "swarm", "hive"] as const;

/** What a tool reports about one entry: enough to act on it, with every free text sanitised for a prompt. */
export interface EntrySummary {
  id: string;
  handle: string;
  tier: Tier;
  status: string;
  category: string;
  kind: string;
  scope: string;
  confidence: number;
  lesson: string;
  title?: string;
  tags: string[];
  /** Set when the safety gate flagged the advice ("⚠ caution: …"): it is never plain advice. */
  caution?: string;
}

export function summarize(e: Entry): EntrySummary {
  return {
    id: e.id,
    handle: e.handle,
    tier: e.tier,
    status: e.lifecycle.status,
    category: e.category,
    kind: e.kind,
    scope: e.applicability.scope,
    confidence: e.lifecycle.confidence,
    lesson: sanitizeForPrompt(e.lesson, 2000),
    ...(e.title ? { title: sanitizeForPrompt(e.title, 120) } : {}),
    tags: e.tags.map((t) => sanitizeForPrompt(t, 60)),
    ...(cautionOf(e) ? { caution: cautionOf(e) } : {}),
  };
}

/** One line per entry in a tool's text answer. */
export function entryLine(e: Entry, extra = ""): string {
  const meta = [e.tier, e.lifecycle.status, e.category, e.kind].join("/");
  const caution = cautionOf(e);
  return `- [${e.handle}] (${meta}${extra}) ${caution ? `${caution}: ` : ""}${sanitizeForPrompt(e.lesson, 300)}`;
}

export function shortLesson(e: Entry): string {
  return sanitizeForPrompt(e.lesson, 100);
}

/**
 * A rejection is an answer, not a failure: the model reads the reason and may rewrite the
 * lesson, so it comes back as ordinary text starting with "rejected:" and `action: "rejected"`.
 */
export function writeOutcome(r: WriteResult, extraData: Record<string, unknown> = {}): ToolResult {
  // Reasons and warnings may quote the call's own input (an id it named, a tag): neutralised for the model.
  const warnings = r.issues.filter((i) => i.severity === "warn").map((i) => sanitizeForPrompt(i.message, 500));
  const reason = r.reason === undefined ? undefined : sanitizeForPrompt(r.reason, 2000);
  if (r.action === "rejected") {
    return {
      text: `rejected: ${reason ?? "the lesson did not pass validation"}`,
      data: { action: "rejected", tier: r.tier, reason: reason ?? "", codes: r.issues.filter((i) => i.severity === "reject").map((i) => i.code), changed: false, ...extraData },
    };
  }
  const head =
    r.action === "added"
      ? `added ${r.handle} to the ${r.tier} tier (status ${r.status}, id ${r.id})`
      : r.action === "queued"
        ? `queued for the ${r.tier} tier: ${reason ?? "it is unreachable now"}`
        : `reinforced ${r.handle} in the ${r.tier} tier instead of adding a copy: ${reason ?? "duplicate"} (status ${r.status})`;
  const text = [head, ...warnings.map((w) => `warning: ${w}`)].join("\n");
  return {
    text,
    data: { action: r.action, tier: r.tier, id: r.id, handle: r.handle, status: r.status, warnings, changed: true, ...(r.merged ? { merged: r.merged } : {}), ...extraData },
  };
}
