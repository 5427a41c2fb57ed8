// Parser for swarm-tools `.hive/memories.jsonl` rows ({id, information, created_at, tags, …}).
import { z } from "zod";
import { KINDS, NewEntryInputSchema, type Kind, type NewEntryInput } from "../../core/entry.js";
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

/** Memory Lane's taxonomy name where it differs from Cairn's. */
const LANE_KINDS: Readonly<Record<string, Kind>> = { pattern_seed: "pattern" };
const ENTITY = NewEntryInputSchema.shape.entities.unwrap().element;

/**
 * What Memory Lane (seed 003) keeps in a memory's `metadata` (a JSON string or an object): its memory
 * type, entity slugs and confidence (0–100). Without this a migrated correction came in as whatever
 * its text suggested, with no entities and the default confidence. Other metadata (swarm-tools'
 * own pattern records) and values out of range change nothing.
 */
function laneFields(metadata: unknown): Pick<NewEntryInput, "kind" | "entities" | "confidence"> {
  let m = metadata;
  if (typeof m === "string") {
    try {
      m = JSON.parse(m);
    } catch {
      return {};
    }
  }
  if (typeof m !== "object" || m === null || Array.isArray(m)) return {};
  const lane = m as Record<string, unknown>;
  const type = typeof lane.memory_type === "string" ? lane.memory_type : undefined;
  const kind = type === undefined ? undefined : (LANE_KINDS[type] ?? ((KINDS as readonly string[]).includes(type) ? (type as Kind) : undefined));
  const entities = Array.isArray(lane.entity_slugs)
    ? [...new Set(lane.entity_slugs.filter((x): x is string => typeof x === "string" && ENTITY.safeParse(x).success).map((x) => x.trim()))].slice(0, 30)
    : [];
  const score = lane.confidence_score;
  const confidence = typeof score === "number" && Number.isFinite(score) && score >= 0 && score <= 100 ? score / 100 : undefined;
  return dropUndefined<Pick<NewEntryInput, "kind" | "entities" | "confidence">>({ kind, entities: entities.length ? entities : undefined, confidence });
}

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
    ...laneFields(row.metadata),
    external_id: row.id == null ? undefined : String(row.id).slice(0, 200),
    derived_from: { kind: "import", ref: ctx.basename },
    created_at: createdAt,
  });
  const warnings = dateWarnings(row.created_at, createdAt);
  return { ok: true, record: { line, input, ...(warnings ? { warnings } : {}) } };
}
