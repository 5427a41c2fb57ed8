// Parser for swarm-tools `.hive/memories.jsonl` rows ({id, information, created_at, tags, …}).
import { z } from "zod";
import type { NewEntryInput } from "../../core/entry.js";
import type { ParseItem } from "../types.js";
import { dropUndefined } from "../../core/entry-input.js";
import { bad, describeIssues, parseJsonObject, type LineContext } from "./json.js";
import { inferCategory, inferKind } from "../../core/categories.js";
import { cleanTags, dateWarnings, toIsoDate } from "./map.js";

const RowSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).nullish(),
  information: z.string(),
  created_at: z.union([z.string(), z.number()]).nullish(),
  // Written as one comma-separated string; tolerate a real list too.
  tags: z.union([z.string(), z.array(z.string())]).nullish(),
});

export function parseSwarmToolsLine(text: string, line: number, ctx: LineContext): ParseItem {
  const json = parseJsonObject(text);
  if (!json.ok) return bad(line, json.error);
  const parsed = RowSchema.safeParse(json.value);
  if (!parsed.success) return bad(line, describeIssues(parsed.error, json.value));
  const row = parsed.data;
  if (row.information.trim() === "") return bad(line, 'field "information" is empty');
  const rawTags = typeof row.tags === "string" ? row.tags.split(",") : (row.tags ?? []);
  const tags = cleanTags(rawTags);
  const createdAt = toIsoDate(row.created_at);
  const input = dropUndefined<NewEntryInput>({
    lesson: row.information,
    category: inferCategory(row.information, tags),
    kind: inferKind(row.information),
    tags,
    external_id: row.id == null ? undefined : String(row.id).slice(0, 200),
    derived_from: { kind: "import", ref: ctx.basename },
    created_at: createdAt,
  });
  const warnings = dateWarnings(row.created_at, createdAt);
  return { ok: true, record: { line, input, ...(warnings ? { warnings } : {}) } };
}
