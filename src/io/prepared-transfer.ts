// How prepared items cross from the import worker to the main thread: a restored row that passed its gates travels as its strings.
import type { Entry } from "../core/entry.js";
import { fingerprintLesson } from "../core/ids.js";
import { searchTextOf } from "../store/entry-columns.js";
import type { PreparedItem } from "./prepare.js";
import { restoredEntry, type RestoreGate } from "./restore.js";

/**
 * A restored entry that passed its gates, as strings: its stored JSON (the entry restoredEntry
 * made), and its fingerprint and search text where the worker derived them (else the main thread
 * does, see unpackItem). Structured clone of the nested entry beside its JSON cost the worker ~11 µs
 * a row and the main thread ~20 µs to rebuild; these strings cost ~1 µs, and parsing the JSON back ~8 µs.
 */
export interface PackedRestore {
  packed: "restore";
  line: number;
  json: string;
  fingerprint?: string;
  searchText?: string;
  warnings?: string[];
}

export type TransferredItem = PreparedItem | PackedRestore;

/** What the worker posts for an item: its strings for a restored row that passed, else the item itself. */
export function packItem(item: PreparedItem): TransferredItem {
  if (!item.ok || !item.record.entry || !item.gate?.ok) return item;
  const { line, warnings, entry } = item.record;
  const derived = item.derived;
  // A record with an entry is a restore: its gate is a RestoreGate.
  const json = derived?.json ?? JSON.stringify(restoredEntry(entry, item.gate as RestoreGate & { ok: true }));
  return { packed: "restore", line, json, ...(derived ? { fingerprint: derived.fingerprint, searchText: derived.searchText } : {}), ...(warnings ? { warnings } : {}) };
}

/**
 * The item again. Its entry is the one its JSON holds: the restored entry, whose lesson is already
 * the gated one, so the restore stores the same row (restoredEntry sets that lesson again). Columns
 * the worker left to this thread are derived here, by the same functions.
 */
export function unpackItem(item: TransferredItem): PreparedItem {
  if (!("packed" in item)) return item;
  const entry = JSON.parse(item.json) as Entry;
  const { line, json, fingerprint, searchText, warnings } = item;
  return {
    ok: true,
    record: { line, entry, tier: entry.tier, ...(warnings ? { warnings } : {}) },
    gate: { ok: true, lesson: entry.lesson },
    derived: { fingerprint: fingerprint ?? fingerprintLesson(entry.lesson), searchText: searchText ?? searchTextOf(entry), json },
  };
}
