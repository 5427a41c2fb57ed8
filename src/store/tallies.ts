// Entries and usage per (status, creator kind), kept by the database: what counts and sums read instead of the entries.
import { STATUSES, type Status } from "../core/entry.js";
import type { EntryFilter, SourceUsage, UsageTotals } from "./store.js";

/** One row of the tallies (migration 9 in SQLite, 4 in PostgreSQL); `source` is the prefix of created_by. */
export interface EntryTally extends UsageTotals {
  status: Status;
  source: string;
}

/**
 * The statuses a filter selects when statuses are all it tests (undefined: every status), or null
 * when it tests anything else and so must read the entries (or their indexes).
 */
export function tallyStatuses(f: EntryFilter): readonly Status[] | undefined | null {
  for (const [k, v] of Object.entries(f)) if (v !== undefined && k !== "statuses") return null;
  return f.statuses;
}

export function sumTallies(tallies: readonly EntryTally[], statuses?: readonly Status[]): UsageTotals {
  const out: UsageTotals = { entries: 0, shown: 0, applied: 0, consulted: 0, prevented: 0 };
  for (const t of tallies) {
    if (statuses && !statuses.includes(t.status)) continue;
    out.entries += t.entries;
    out.shown += t.shown;
    out.applied += t.applied;
    out.consulted += t.consulted;
    out.prevented += t.prevented;
  }
  return out;
}

/** Shown/applied per creator kind, most entries first. */
export function usageBySourceOf(tallies: readonly EntryTally[]): SourceUsage[] {
  const by = new Map<string, SourceUsage>();
  for (const t of tallies) {
    const u = by.get(t.source) ?? { source: t.source, entries: 0, shown: 0, applied: 0 };
    u.entries += t.entries;
    u.shown += t.shown;
    u.applied += t.applied;
    by.set(t.source, u);
  }
  return [...by.values()].filter((u) => u.entries > 0).sort((a, b) => b.entries - a.entries || a.source.localeCompare(b.source));
}

/** Entries per status in lifecycle order (STATUSES), statuses with none left out. */
export function countsByStatus(tallies: readonly EntryTally[]): Partial<Record<Status, number>> {
  const out: Partial<Record<Status, number>> = {};
  for (const st of STATUSES) {
    const n = tallies.reduce((a, t) => (t.status === st ? a + t.entries : a), 0);
    if (n) out[st] = n;
  }
  return out;
}
