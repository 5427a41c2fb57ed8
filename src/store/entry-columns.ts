// What every store derives from an entry for its indexes: the full-text search text, applicability lists, the advisory flag.
import type { Entry, Status, Tier } from "../core/entry.js";
import { fingerprintLesson, handleFor } from "../core/ids.js";
import { buildSearchText } from "../core/text.js";

/** The text the full-text index sees: the lesson plus what makes it findable. */
export function searchTextOf(e: Entry): string {
  return buildSearchText([
    e.title ?? "",
    e.lesson,
    e.why ?? "",
    e.prevention.rule ?? "",
    e.tags.join(" "),
    e.entities.join(" "),
    e.applicability.triggers.join(" "),
    e.applicability.tech_stack.join(" "),
    e.applicability.file_globs.join(" "),
  ]);
}

/**
 * The columns a store derives from an entry's content that cost the most to compute (~30 µs a row
 * together): its lesson's fingerprint, its full-text search text and its JSON. A bulk restore
 * computes them in its worker thread, beside the gates, so the thread that inserts need not.
 */
export interface DerivedColumns {
  fingerprint: string;
  searchText: string;
  /** JSON.stringify of the entry exactly as it is stored (its tier the store's). */
  json: string;
}

export function derivedColumns(e: Entry): DerivedColumns {
  return { fingerprint: fingerprintLesson(e.lesson), searchText: searchTextOf(e), json: JSON.stringify(e) };
}

/** Carries file globs or a detection pattern: what pre-action advisories match, and what moves the rules version. */
export function isAdvisoryEntry(e: Entry): boolean {
  return e.applicability.file_globs.length > 0 || (e.prevention.detection_pattern ?? "").length > 0;
}

/** Applicability names compared case-insensitively as whole names (agents, tools, projects). */
export function applicabilityKey(name: string): string {
  return name.toLowerCase().replace(/,/g, " ");
}

/** What both stores select for an entry (the table aliased `e`): the JSON and the columns that overlay it. */
export const ENTRY_ROW_COLUMNS =
  "e.seq, e.data, e.status, e.confidence, e.utility, e.phases_alive, e.shown, e.applied, e.ignored, e.violated, e.prevented, e.helpful, e.harmful, e.last_shown_at, e.updated_at, e.consulted, e.last_consulted_at";

/** The columns a store keeps beside the entry JSON (filters, counters, ordering), as a store reads them back. */
export interface EntryRowColumns {
  seq: number | string;
  status: string;
  confidence: number;
  phases_alive: number;
  shown: number;
  applied: number;
  ignored: number;
  violated: number;
  prevented: number;
  helpful: number;
  harmful: number;
  consulted: number;
  last_shown_at: string | null;
  last_consulted_at: string | null;
  updated_at: string;
}

/**
 * The entry JSON overlaid with the columns that change without rewriting it (usage counters,
 * phase ageing): the columns win, and the handle comes from the row's never-reused sequence.
 */
export function entryFromRow(tier: Tier, data: Entry, row: EntryRowColumns): Entry {
  const e = data;
  e.handle = handleFor(tier, Number(row.seq));
  e.tier = tier;
  e.lifecycle.status = row.status as Status;
  e.lifecycle.confidence = row.confidence;
  e.lifecycle.phases_alive = row.phases_alive;
  e.usage = {
    ...e.usage,
    shown: row.shown,
    applied: row.applied,
    ignored: row.ignored,
    violated: row.violated,
    prevented: row.prevented,
    helpful: row.helpful,
    harmful: row.harmful,
    consulted: row.consulted,
    ...(row.last_shown_at ? { last_shown_at: row.last_shown_at } : {}),
    ...(row.last_consulted_at ? { last_consulted_at: row.last_consulted_at } : {}),
  };
  e.updated_at = row.updated_at;
  return e;
}

/**
 * Another copy of the same lesson folded into the entry that holds it (hive push and pull):
 * confirmations are united (one per phase and project), usage from both sides is added up.
 */
export function mergeCopies(target: Entry, copy: Entry): Entry {
  const key = (c: Entry["lifecycle"]["confirmations"][number]) => `${c.phase ?? ""}\u0000${c.project_id ?? ""}`;
  const seen = new Set(target.lifecycle.confirmations.map(key));
  for (const c of copy.lifecycle.confirmations) {
    if (!seen.has(key(c))) {
      seen.add(key(c));
      target.lifecycle.confirmations.push(c);
    }
  }
  target.lifecycle.confidence = Math.max(target.lifecycle.confidence, copy.lifecycle.confidence);
  for (const k of ["shown", "applied", "ignored", "violated", "prevented", "consulted", "helpful", "harmful"] as const) {
    target.usage[k] += copy.usage[k];
  }
  target.tags = [...new Set([...target.tags, ...copy.tags])];
  return target;
}
