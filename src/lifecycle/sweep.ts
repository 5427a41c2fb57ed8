// The TTL sweep run at phase completion: age the project's entries one phase, archive expired ones, remove expired todos.
import type { Entry } from "../core/entry.js";
import { openTiers, type Services } from "../services.js";
import type { Store } from "../store/store.js";
import { unusedArchiveReason } from "./unused-archive.js";
import { utilityOf } from "./utility.js";
import { isUnavailable } from "../errors.js";

export interface SweepReport {
  tier: "swarm" | "hive";
  aged: number;
  archived: string[];
  removed: string[];
  kept_evergreen: string[];
  /** Auto-generated entries shown often and never applied (the audited project: 98 shown, 2 applied). */
  archived_unused: string[];
  /** Why nothing was done: the phase is the one this project was last swept for. */
  skipped?: string;
}

/** Statuses that age in a project. Promoted entries are TTL-exempt; drafts wait for a person, not the clock. */
const AGING = ["candidate", "established"] as const;
/** In the hive only candidates may be retired by a machine, and only for lack of use across projects. */
const HIVE_UNUSED = ["candidate"] as const;

export function isEvergreen(e: Entry, s: Services): boolean {
  const k = s.config.knowledge;
  const utility = utilityOf(e);
  return e.lifecycle.confidence >= k.evergreen_confidence && utility !== null && utility >= k.evergreen_utility;
}

/** How long a sweep's lease lasts: far past any sweep, short enough that one a crash left behind frees itself. */
const SWEEP_LEASE_MS = 10 * 60_000;

const skippedReports = (s: Services, skipped: string): SweepReport[] =>
  openTiers(s).map((store) => ({ tier: store.tier, aged: 0, archived: [], removed: [], kept_evergreen: [], archived_unused: [], skipped }));

/**
 * One sweep of a project at a time: two at once (the plugin and the CLI, two terminals) each aged every
 * lesson and archived each expired one, reporting it twice. The second is told and does nothing.
 */
export async function sweepExpiredEntries(s: Services, opts: { phase?: string; actor?: string } = {}): Promise<SweepReport[]> {
  const now = s.now().getTime();
  const until = now + SWEEP_LEASE_MS;
  const lease = await s.swarm.claimSweepLease?.(now, until);
  if (lease && !lease.claimed) {
    const since = new Date(lease.until - SWEEP_LEASE_MS).toISOString();
    return skippedReports(
      s,
      `another sweep of this project is under way (started at ${since}); running both would age every lesson twice, so nothing was done. Run \`cairn sweep\` again once it is done if a further phase completed (a sweep cut short frees the project after ${SWEEP_LEASE_MS / 60_000} minutes).`,
    );
  }
  try {
    return await sweepClaimed(s, opts);
  } finally {
    if (lease?.claimed) await s.swarm.releaseSweepLease?.(until).catch(() => undefined);
  }
}

async function sweepClaimed(s: Services, opts: { phase?: string; actor?: string }): Promise<SweepReport[]> {
  const claim = opts.phase === undefined ? undefined : await s.swarm.claimSweptPhase?.(opts.phase, s.now().toISOString());
  if (claim && !claim.claimed) {
    // Only an immediate repeat is skipped (keyed on the last phase, not every title ever swept), so a later
    // plan's "Phase 1" still ages once another phase came between.
    const skipped = `phase "${opts.phase}" was already swept (at ${claim.at}); an immediate repeat would age every lesson twice, so nothing was done. Sweep the next phase when it completes.`;
    return skippedReports(s, skipped);
  }
  const reports: SweepReport[] = [];
  for (const store of openTiers(s)) {
    try {
      reports.push(await sweepTier(s, store, opts));
    } catch (e) {
      // A team hive that is down is swept by the next phase anyone completes; the project's sweep goes on.
      if (store.tier === "hive" && isUnavailable(e)) continue;
      // A failed project sweep must not count as done, or retrying the same phase would be skipped.
      if (store.tier === "swarm" && claim?.claimed) await s.swarm.restoreSweptPhase?.(claim.previous).catch(() => undefined);
      throw e;
    }
  }
  return reports;
}

async function sweepTier(s: Services, store: Store, opts: { phase?: string; actor?: string }): Promise<SweepReport> {
  const k = s.config.knowledge;
  const actor = opts.actor ?? "cairn:sweep";
  const report: SweepReport = { tier: store.tier, aged: 0, archived: [], removed: [], kept_evergreen: [], archived_unused: [] };
  // The hive's aging rule (issue 11 item 1): one project's phases say nothing about a lesson every
  // project shares, so the hive never ages by phase and the TTL never archives it. It ages only by
  // lack of use across projects: an auto-generated hive *candidate* shown often and never applied
  // is archived below; an established hive lesson is never retired by a machine — when its
  // utility falls it is in the review queue (low utility) for a person to decide.
  if (store.tier === "swarm") {
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
  }
  const unused = await store.listEntries(
    { statuses: store.tier === "hive" ? HIVE_UNUSED : AGING, autoGenerated: true, minShown: k.auto_archive_min_shown, maxApplied: 0 },
    { limit: 1000, order: "oldest" },
  );
  for (const e of unused) {
    if (isEvergreen(e, s)) continue;
    await store.updateEntry(
      e.id,
      (x) => {
        x.lifecycle.status = "archived";
        x.lifecycle.status_reason = unusedArchiveReason(x.usage.shown);
        return x;
      },
      { type: "archived", actor, data: { reason: "unused", phase: opts.phase } },
    );
    report.archived_unused.push(e.id);
  }
  return report;
}
