// Date-time fields of an entry: what counts as one, and the repair an imported or legacy row gets before the schema.
import { z } from "zod";

/** True when `s` is a date JavaScript can read: scoring and decay do arithmetic on it. */
export function isDateTime(s: string): boolean {
  return Number.isFinite(Date.parse(s));
}

const ISO = z.iso.datetime({ offset: true });

/** Every write path validates these: an unreadable date would turn a recall score into NaN. */
export const DateTimeSchema = z.string().refine(isDateTime, { message: "not a date-time; use ISO 8601 such as 2026-01-05T10:00:00Z" });

/** Optional date-time leaves, as [group, field]; an unreadable one is dropped (the entry stays useful without it). */
const OPTIONAL: ReadonlyArray<readonly [string, string]> = [
  ["lifecycle", "revalidated_at"],
  ["provenance", "approved_at"],
  ["usage", "last_shown_at"],
  ["usage", "last_feedback_at"],
  ["usage", "last_consulted_at"],
];

type Fix = { ok: true; value: string; changed: boolean } | { ok: false };

function fix(v: unknown): Fix {
  if (typeof v !== "string" || !isDateTime(v.trim())) return { ok: false };
  if (ISO.safeParse(v).success) return { ok: true, value: v, changed: false };
  return { ok: true, value: new Date(Date.parse(v.trim())).toISOString(), changed: true };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Repairs the dates of a raw entry in place and says what it changed (never echoing the value):
 * a readable non-ISO date is normalised to ISO 8601; an unreadable optional one is dropped; an
 * unreadable `updated_at` falls back to `created_at`; an unreadable confirmation is dropped. An
 * unreadable `created_at` is left for the schema to reject: nothing can stand in for it.
 */
export function repairEntryDates(raw: Record<string, unknown>): string[] {
  const notes: string[] = [];
  const created = fix(raw.created_at);
  if (created.ok && created.changed) {
    raw.created_at = created.value;
    notes.push("created_at normalised to ISO 8601");
  }
  if (raw.updated_at !== undefined) {
    const updated = fix(raw.updated_at);
    if (updated.ok && updated.changed) {
      raw.updated_at = updated.value;
      notes.push("updated_at normalised to ISO 8601");
    } else if (!updated.ok && created.ok) {
      raw.updated_at = created.value;
      notes.push("updated_at is not a date-time; created_at used instead");
    }
  }
  for (const [group, field] of OPTIONAL) {
    const g = raw[group];
    if (!isObject(g) || g[field] === undefined) continue;
    const r = fix(g[field]);
    if (r.ok && !r.changed) continue;
    if (r.ok) g[field] = r.value;
    else delete g[field];
    notes.push(r.ok ? `${group}.${field} normalised to ISO 8601` : `${group}.${field} is not a date-time; dropped`);
  }
  const lifecycle = raw.lifecycle;
  if (isObject(lifecycle) && Array.isArray(lifecycle.confirmations)) {
    const kept = lifecycle.confirmations.filter((c) => {
      if (!isObject(c)) return true; // the schema reports a malformed confirmation
      const r = fix(c.at);
      if (r.ok && r.changed) c.at = r.value;
      return r.ok;
    });
    const dropped = lifecycle.confirmations.length - kept.length;
    if (dropped) notes.push(`${dropped} confirmation(s) without a readable date dropped`);
    lifecycle.confirmations = kept;
  }
  return notes;
}

/** A row stored before dates were validated heals on its next update instead of failing it. */
export function healDates<T extends object>(entry: T): T {
  const raw = entry as Record<string, unknown>;
  repairEntryDates(raw);
  // Only here may created_at be replaced: an update must not fail on an old row it did not create.
  if (typeof raw.created_at !== "string" || !isDateTime(raw.created_at)) raw.created_at = raw.updated_at;
  return entry;
}
