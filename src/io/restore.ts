// Restoring lossless Cairn entries: each row checked against the tier's ids and fingerprints read once, gated, then inserted with its batch in one statement.
import { LIVE_STATUSES, type Entry } from "../core/entry.js";
import { fingerprintLesson } from "../core/ids.js";
import { globOutsideProject } from "../core/project-glob.js";
import { needsApproval } from "../governance/actors.js";
import { extraTextIssues } from "../lifecycle/gate-input.js";
import { feedbackClockAhead, feedbackClocksUpTo } from "../lifecycle/feedback.js";
import { findNeighbours } from "../lifecycle/neighbours.js";
import { validateLessonText } from "../quality/gates.js";
import type { GateResult, QualityIssue } from "../quality/types.js";
import { storeFor, type Services } from "../services.js";
import type { DerivedColumns } from "../store/entry-columns.js";
import { DEDUP_STATUSES, type Store } from "../store/store.js";

export type RestoreOutcome = "imported" | "unchanged" | "reinforced" | { rejected: string };

/** What a lossless row's gates found: its lesson as it will be stored, or why it is refused. */
export type RestoreGate = { ok: true; lesson: string } | { ok: false; reason: string };

/**
 * The gates a restored entry passes: sanitising, injection markers and secrets on the lesson and on
 * every other free-text field, for every row (no secret is ever stored, whatever the file says), and its
 * file globs as add judges them (globsOutsideProject). The lesson's unsafe-advice check is skipped
 * (adviceJudged): it was judged when the entry was first stored, and for trusted data it only warns,
 * which a restore does not read.
 */
export function gateRestoredEntry(entry: Entry): RestoreGate {
  const gate: GateResult = validateLessonText(entry.lesson, { trusted: true, adviceJudged: true });
  const refusals: QualityIssue[] = [...gate.issues, ...extraTextIssues(entry, entry.provenance)].filter((i) => i.severity === "reject");
  const globs = globsOutsideProject(entry.applicability.file_globs);
  return refusals.length || globs.length ? { ok: false, reason: [...refusals.map((i) => i.message), ...globs].join("; ") } : { ok: true, lesson: gate.text };
}

/**
 * File globs that name nothing in a project, worded as add refuses them (core/entry.ts): one outside it never
 * applies, and it carried the writer's machine paths (a home folder, a user name) into every project reading the hive.
 */
function globsOutsideProject(globs: readonly string[]): string[] {
  return globs.flatMap((g, i) => {
    const problem = globOutsideProject(g);
    return problem ? [`applicability.file_globs.${i}: ${problem}`] : [];
  });
}

/** The entry a row that passed its gates is stored as: its lesson as the gates returned it. */
export function restoredEntry(entry: Entry, gate: { lesson: string }): Entry {
  return { ...entry, lesson: gate.lesson };
}

/** An entry as a draft waiting for a person: no approval it claimed is kept. */
function asDraft(e: Entry): Entry {
  const { approved_at: _at, approved_by: _by, ...provenance } = e.provenance;
  return { ...e, lifecycle: { ...e.lifecycle, status: "draft" }, provenance };
}

/** One tier's ids, external ids and fingerprints: read once, then grown with each row this restore stores. */
class TierKeys {
  readonly ids = new Set<string>();
  readonly fingerprints = new Set<string>();
  /** The entries the tier held before this import: only those absorb a row saying the same in other words. */
  readonly before = new Set<string>();
}

/** Rows a restore reported "imported" that the store then found already there: the report is corrected by these. */
export interface LateOutcomes {
  reinforced: number;
  unchanged: number;
}

/**
 * Restores lossless entries. The ids and fingerprints already in a tier are read once, at the
 * tier's first row, instead of two reads per row. A row that passes is queued and written with the
 * others of its batch by flush() in one statement (a row per statement cost SQLite's full-text
 * index a segment per row). Another process storing the same lesson or id meanwhile is still
 * caught: the bulk insert re-checks both inside its write, and flush() reports those rows.
 */
export class Restorer {
  private readonly keys = new Map<Store, Promise<TierKeys>>();
  private readonly queued = new Map<Store, { entries: Entry[]; derived: Array<DerivedColumns | undefined> }>();

  constructor(private readonly s: Services, private readonly actor: string) {}

  private keysOf(store: Store): Promise<TierKeys> {
    let k = this.keys.get(store);
    if (!k) {
      k = store.entryKeys().then((rows) => {
        const t = new TierKeys();
        for (const r of rows) {
          t.ids.add(r.id);
          t.before.add(r.id);
          // getEntry(id) also finds an entry whose external id is that id: such a row is unchanged too.
          if (r.external_id) t.ids.add(r.external_id);
          t.fingerprints.add(r.fingerprint);
        }
        return t;
      });
      this.keys.set(store, k);
    }
    return k;
  }

  /**
   * Decides a row's outcome and queues it when it is new: "imported" holds once flush() has run,
   * except for the rows flush() reports. `gate` may come precomputed (a worker thread ran
   * gateRestoredEntry); else it runs here. So may `derived`, the derivedColumns of the entry as
   * restoredEntry makes it (the worker computes them beside the gates, so this thread need not).
   */
  async restore(entry: Entry, gate?: RestoreGate, derived?: DerivedColumns): Promise<RestoreOutcome> {
    const s = this.s;
    if (entry.tier === "hive" && !s.hive) return { rejected: "hive entry but the hive is disabled" };
    const store = storeFor(s, entry.tier);
    const keys = await this.keysOf(store);
    if (keys.ids.has(entry.id)) return "unchanged";
    const g = gate ?? gateRestoredEntry(entry);
    if (!g.ok) return { rejected: g.reason };
    const fingerprint = derived?.fingerprint ?? fingerprintLesson(g.lesson);
    if (keys.fingerprints.has(fingerprint)) return "reinforced";
    if (await this.sameInOtherWords(store, keys, entry, g.lesson)) return "reinforced";
    keys.ids.add(entry.id);
    keys.fingerprints.add(fingerprint);
    const queue = this.queued.get(store) ?? { entries: [], derived: [] };
    // Under approval, what an agent's import brings in waits for a person, whatever the file says it was.
    const held = needsApproval(s.config, entry.tier, this.actor, "import") && LIVE_STATUSES.includes(entry.lifecycle.status);
    // Feedback stamped after this import (a clock running ahead where it was exported) counts from now.
    const ahead = feedbackClockAhead(entry, s.now());
    const gated = restoredEntry(entry, g);
    const restored = ahead ? feedbackClocksUpTo({ ...gated, usage: { ...gated.usage }, lifecycle: { ...gated.lifecycle } }, s.now()) : gated;
    queue.entries.push(held ? asDraft(restored) : restored);
    // The worker's columns hold the entry as the file had it (its JSON): a draft's, or one whose clocks moved, are worked out here.
    queue.derived.push(held || ahead ? undefined : derived);
    this.queued.set(store, queue);
    return "imported";
  }

  /**
   * A live row whose lesson a live entry the tier already held says in other words (the dedup every
   * other write path runs, seed 000 finding 3): another project's export brought in beside its own
   * paraphrase left two of one lesson to be shown. Rows of the file are not compared with each other,
   * so an export restores exactly into an empty tier (which costs no search at all).
   */
  private async sameInOtherWords(store: Store, keys: TierKeys, entry: Entry, lesson: string): Promise<boolean> {
    if (keys.before.size === 0 || !DEDUP_STATUSES.includes(entry.lifecycle.status)) return false;
    const twin = (await findNeighbours(store, lesson, this.s.config.knowledge.dedup_threshold)).duplicate?.entry;
    return Boolean(twin && keys.before.has(twin.id));
  }

  /** Whether rows wait for flush(). */
  get pending(): boolean {
    return this.queued.size > 0;
  }

  /** Writes the queued rows (inside the caller's batch) and returns those that were not new after all. */
  async flush(): Promise<LateOutcomes> {
    const late: LateOutcomes = { reinforced: 0, unchanged: 0 };
    const queued = [...this.queued];
    this.queued.clear();
    for (const [store, { entries, derived }] of queued) {
      const outcomes = await store.insertEntries(entries, { type: "created", actor: this.actor, data: { source: "import", lossless: true } }, { unique: true, derived });
      for (const o of outcomes) {
        if (o.action === "duplicate") late.reinforced++;
        else if (o.action === "exists") late.unchanged++;
      }
    }
    return late;
  }
}
