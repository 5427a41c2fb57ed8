// Parser for Cairn's own lossless JSONL export: each line is a whole stored Entry.
import { repairEntryDates } from "../../core/dates.js";
import { BulkEntrySchema, SCHEMA_VERSION } from "../../core/entry.js";
import type { ParseItem } from "../types.js";
import { bad, describeIssues, parseJsonObject } from "./json.js";

const GROUPS = ["prevention", "applicability", "directive", "lifecycle", "provenance", "usage"] as const;

/** One line of a cairn export; undefined for the header line, which carries no lesson. */
export function parseCairnLine(text: string, line: number): ParseItem | undefined {
  const json = parseJsonObject(text);
  if (!json.ok) return bad(line, json.error);
  const raw = json.value;
  if ("cairn_export" in raw) {
    const v = raw.schema_version;
    return typeof v === "number" && v > SCHEMA_VERSION
      ? bad(line, `export header says schema_version ${v}; this Cairn reads up to ${SCHEMA_VERSION} (upgrade Cairn)`)
      : undefined;
  }
  if (typeof raw.schema_version === "number" && raw.schema_version > SCHEMA_VERSION) {
    return bad(line, `entry has schema_version ${raw.schema_version}; this Cairn reads up to ${SCHEMA_VERSION}`);
  }
  // zod 4 returns a .default() value unparsed, so a missing group would come back as a bare
  // `{}` without its inner defaults; an explicit `{}` is parsed and filled in.
  for (const group of GROUPS) if (raw[group] === undefined) raw[group] = {};
  const warnings = repairEntryDates(raw);
  const parsed = BulkEntrySchema.get().safeParse(raw);
  if (!parsed.success) return bad(line, `not a Cairn entry: ${describeIssues(parsed.error, raw)}`);
  const entry = parsed.data;
  return { ok: true, record: { line, entry, tier: entry.tier, ...(warnings.length ? { warnings } : {}) } };
}

