// The TTL sweep run at phase completion: age entries one phase, archive expired ones, remove expired todos.
import type { Entry } from "../core/entry.js";
import { openTiers, type Services } from "../services.js";
import { utilityOf } from "./utility.js";

export interface SweepReport {
  tier: "swarm" | "hive";
  aged: number;
  archived: string[];
  removed: string[];
  kept_evergreen: string[];
}

/** Statuses that age. Promoted entries are TTL-exempt; drafts wait for a person, not the clock. */
const AGING = ["candidate", "established"] as const;

export function isEvergreen(e: Entry, s: Services): boolean {
  const k = s.config.knowledge;
  const utility = utilityOf(e);
  return e.lifecycle.confidence >= k.evergreen_confidence && utility !== null && utility >= k.evergreen_utility;
}

export async function sweepExpiredEntries(s: Services, opts: { phase?: string; actor?: string } = {}): Promise<SweepReport[]> {
  const k = s.config.knowledge;
  const actor = opts.actor ?? "cairn:sweep";
  const reports: SweepReport[] = [];
  for (const store of openTiers(s)) {
    const report: SweepReport = { tier: store.tier, aged: 0, archived: [], removed: [], kept_evergreen: [] };
    report.aged = await store.incrementPhasesAlive(AGING);
    for (const e of await store.findExpired(AGING, k.default_max_phases, k.todo_max_phases)) {
      if (e.category === "todo") {
        await store.deleteEntry(e.id, { type: "removed", actor, data: { reason: "todo TTL expired", phase: opts.phase } });
        report.removed.push(e.id);
      } else if (isEvergreen(e, s)) {
        report.kept_evergreen.push(e.id);
      } else {
        await store.updateEntry(
          e.id,
          (x) => {
            x.lifecycle.status = "archived";
            x.lifecycle.status_reason = `TTL: alive ${x.lifecycle.phases_alive} phases`;
            return x;
          },
          { type: "archived", actor, data: { reason: "ttl", phase: opts.phase } },
        );
        report.archived.push(e.id);
      }
    }
    reports.push(report);
  }
  return reports;
}
