// Restoring lossless Cairn entries: each row checked against the tier's ids and fingerprints read once, then gated and inserted.
import type { Entry } from "../core/entry.js";
import { fingerprintLesson } from "../core/ids.js";
import { extraTextIssues } from "../lifecycle/gate-input.js";
import { validateLessonText } from "../quality/gates.js";
import type { GateResult, QualityIssue } from "../quality/types.js";
import { storeFor, type Services } from "../services.js";
import { DuplicateEntryError, type Store } from "../store/store.js";

export type RestoreOutcome = "imported" | "unchanged" | "reinforced" | { rejected: string };

/** What a lossless row's gates found: its lesson as it will be stored, or why it is refused. */
export type RestoreGate = { ok: true; lesson: string } | { ok: false; reason: string };

/**
 * The gates a restored entry passes: sanitising, injection markers and secrets on the lesson and on
 * every other free-text field, for every row (no secret is ever stored, whatever the file says). The
 * lesson's unsafe-advice check is skipped (adviceJudged): it was judged when the entry was first
 * stored, and for trusted data it only warns, which a restore does not read.
 */
export function gateRestoredEntry(entry: Entry): RestoreGate {
  const gate: GateResult = validateLessonText(entry.lesson, { trusted: true, adviceJudged: true });
  const refusals: QualityIssue[] = [...gate.issues, ...extraTextIssues(entry)].filter((i) => i.severity === "reject");
  return refusals.length ? { ok: false, reason: refusals.map((i) => i.message).join("; ") } : { ok: true, lesson: gate.text };
}

/** One tier's ids, external ids and fingerprints: read once, then grown with each row this restore stores. */
class TierKeys {
  readonly ids = new Set<string>();
  readonly fingerprints = new Set<string>();
}

/**
 * Restores lossless entries. The ids and fingerprints already in a tier are read once, at the
 * tier's first row, instead of two reads per row. Another process storing the same lesson meanwhile
 * is still caught: the insert re-checks for a live twin inside its write transaction (unique), and
 * the same id stored meanwhile fails the id's UNIQUE constraint, which is read as "unchanged".
 */
export class Restorer {
  private readonly keys = new Map<Store, Promise<TierKeys>>();

  constructor(private readonly s: Services, private readonly actor: string) {}

  private keysOf(store: Store): Promise<TierKeys> {
    let k = this.keys.get(store);
    if (!k) {
      k = store.entryKeys().then((rows) => {
        const t = new TierKeys();
        for (const r of rows) {
          t.ids.add(r.id);
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

  /** `gate` may come precomputed (a worker thread ran gateRestoredEntry); else it runs here. */
  async restore(entry: Entry, gate?: RestoreGate): Promise<RestoreOutcome> {
    const s = this.s;
    if (entry.tier === "hive" && !s.hive) return { rejected: "hive entry but the hive is disabled" };
    const store = storeFor(s, entry.tier);
    const keys = await this.keysOf(store);
    if (keys.ids.has(entry.id)) return "unchanged";
    const g = gate ?? gateRestoredEntry(entry);
    if (!g.ok) return { rejected: g.reason };
    const fingerprint = fingerprintLesson(g.lesson);
    if (keys.fingerprints.has(fingerprint)) return "reinforced";
    try {
      await store.insertEntry({ ...entry, lesson: g.lesson }, { type: "created", actor: this.actor, data: { source: "import", lossless: true } }, { unique: true });
    } catch (e) {
      if (e instanceof DuplicateEntryError) return "reinforced";
      // Stored by another process since the keys were read.
      if (isUniqueViolation(e) && (await store.getEntry(entry.id))) return "unchanged";
      throw e;
    }
    keys.ids.add(entry.id);
    keys.fingerprints.add(fingerprint);
    return "imported";
  }
}

function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_CONSTRAINT") || code === "23505");
}
