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
  // Read only as the feedback clock: a value of another type is no reason to skip the memory.
  updated_at: z.unknown().optional(),
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
  const lane = laneObject(metadata);
  if (!lane) return {};
  const type = typeof lane.memory_type === "string" ? lane.memory_type : undefined;
  const kind = type === undefined ? undefined : (LANE_KINDS[type] ?? ((KINDS as readonly string[]).includes(type) ? (type as Kind) : undefined));
  const entities = Array.isArray(lane.entity_slugs)
    ? [...new Set(lane.entity_slugs.filter((x): x is string => typeof x === "string" && ENTITY.safeParse(x).success).map((x) => x.trim()))].slice(0, 30)
    : [];
  const score = lane.confidence_score;
  const confidence = typeof score === "number" && Number.isFinite(score) && score >= 0 && score <= 100 ? score / 100 : undefined;
  return dropUndefined<Pick<NewEntryInput, "kind" | "entities" | "confidence">>({ kind, entities: entities.length ? entities : undefined, confidence });
}

/** The most votes one imported memory is taken to carry. */
const MAX_VOTES = 1000;
const LN_HELPFUL = Math.log(1.1);
const LN_HARMFUL = Math.log(2);

/**
 * Memory Lane's feedback as helpful and harmful votes: it keeps only their product, `feedback_score`
 * (1.0, ×1.1 per helpful, ×0.5 per harmful), and how many there were, `feedback_count`. With the count
 * the two are solved for (h·ln 1.1 − k·ln 2 = ln score, h + k = count); without one, a score below 1 is
 * read as harmful votes alone and one above as helpful alone. Without this a memory its users voted
 * harmful came in neutral and was handed to agents at full strength. Odd values carry nothing.
 */
export function laneVotes(metadata: unknown): { helpful: number; harmful: number } | undefined {
  const lane = laneObject(metadata);
  const score = lane?.feedback_score;
  if (typeof score !== "number" || !Number.isFinite(score) || score <= 0 || score === 1) return undefined;
  const n = lane!.feedback_count;
  const ln = Math.log(score);
  let helpful: number;
  let harmful: number;
  if (typeof n === "number" && Number.isInteger(n) && n > 0) {
    const count = Math.min(MAX_VOTES, n);
    helpful = Math.min(count, Math.max(0, Math.round((ln + count * LN_HARMFUL) / (LN_HELPFUL + LN_HARMFUL))));
    harmful = count - helpful;
  } else {
    helpful = ln > 0 ? Math.min(MAX_VOTES, Math.round(ln / LN_HELPFUL)) : 0;
    harmful = ln < 0 ? Math.min(MAX_VOTES, Math.round(-ln / LN_HARMFUL)) : 0;
  }
  return helpful + harmful > 0 ? { helpful, harmful } : undefined;
}

/** A memory's metadata as an object (it may be a JSON string), or undefined. */
function laneObject(metadata: unknown): Record<string, unknown> | undefined {
  let m = metadata;
  if (typeof m === "string") {
    try {
      m = JSON.parse(m);
    } catch {
      return undefined;
    }
  }
  return typeof m === "object" && m !== null && !Array.isArray(m) ? (m as Record<string, unknown>) : undefined;
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
  const votes = laneVotes(row.metadata);
  // Memory Lane stamps no vote; the memory's last update (else its creation, else the import) is the closest.
  const votedAt = toIsoDate(row.updated_at) ?? createdAt;
  const history = votes ? { confirmations: [], usage: { ...votes, ...(votedAt ? { last_feedback_at: new Date(votedAt).toISOString() } : {}) } } : undefined;
  return { ok: true, record: { line, input, ...(history ? { history } : {}), ...(warnings ? { warnings } : {}) } };
}
