// The upsert policy: for a new lesson, which existing entry it duplicates or contradicts, and what to do.
import type { Entry, Status } from "../core/entry.js";
import { fingerprintLesson } from "../core/ids.js";
import { queryTerms } from "../core/text.js";
import { knownVector, rememberVector } from "../quality/meaning.js";
import { compareLessons, profileLesson, type LessonProfile } from "../quality/similarity.js";
import { DEDUP_STATUSES, type Store } from "../store/store.js";
import type { BulkNeighbours, NeighbourCandidate } from "./bulk-neighbours.js";

/** Statuses a new lesson may merge into or supersede; retired entries do not absorb new sightings. */
export const MERGEABLE: readonly Status[] = DEDUP_STATUSES;
const CANDIDATES = 12;
/** Below the dedup threshold but at least this similar (and not a clear contradiction): ambiguous. */
export const AMBIGUOUS_SIMILARITY = 0.45;

export interface Neighbourhood {
  duplicate?: { entry: Entry; similarity: number };
  /** An exact match that was quarantined or superseded: re-learning it is refused. */
  retired?: Entry;
  contradicts: Entry[];
  /** Of `contradicts`, those that reverse the advice (not merely state another value). */
  reverses: Entry[];
  /** The most similar live entry that is neither duplicate nor contradiction (read only if asked for: only an arbiter looks at it). */
  nearest?: { entry: () => Promise<Entry | undefined>; similarity: number };
}

/**
 * Profiles of stored lessons met as neighbours, for one bulk write (an import). Its rows meet the
 * same neighbours over and over (they share a vocabulary): profiling each again was ~0.3 ms of a
 * 2.3 ms row. A profile depends on the text alone, so a cached one is the same answer. Held by the
 * bulk operation, not the process, so a long-running server keeps no such memory (~5 KB a profile).
 */
export class NeighbourProfiles {
  private readonly byText = new Map<string, LessonProfile>();
  /**
   * Dedup vectors (meaning.ts) of texts not profiled now, by text: computed ahead by an import's
   * worker, or kept from a profile pushed out (~1.2 KB against its ~5 KB), so a neighbour met again
   * is profiled but not embedded again. The oldest go first.
   */
  private readonly vectors = new Map<string, Float32Array | null>();
  constructor(private readonly max = 4096, private readonly maxVectors = 4 * max) {}

  of(text: string): LessonProfile {
    let p = this.byText.get(text);
    if (p) return p;
    // Full: the oldest goes (a Map keeps insertion order). Dropping all at once made a long import
    // profile (and embed) its candidates again every 4,096 rows.
    if (this.byText.size >= this.max) {
      const [oldText, old] = this.byText.entries().next().value!;
      this.byText.delete(oldText);
      const vector = knownVector(old);
      if (vector !== undefined) this.keepVector(oldText, vector);
    }
    this.byText.set(text, (p = profileLesson(text)));
    const vector = this.vectors.get(text);
    if (vector !== undefined) {
      this.vectors.delete(text);
      rememberVector(p, vector);
    }
    return p;
  }

  /**
   * The vector of `text` (meaning.ts lessonVector of its profileText), computed by an import's
   * worker thread: its profile, when made, takes it instead of embedding the text again (~25 µs a
   * row off the thread that dedups).
   */
  offerVector(text: string, vector: Float32Array | null): void {
    if (!this.byText.has(text)) this.keepVector(text, vector);
  }

  private keepVector(text: string, vector: Float32Array | null): void {
    if (this.vectors.size >= this.maxVectors && !this.vectors.has(text)) this.vectors.delete(this.vectors.keys().next().value!);
    this.vectors.set(text, vector);
  }
}

/**
 * Exact text first (indexed fingerprint), then near neighbours from the full-text index — never a scan.
 * The index query ORs the lesson's rarest words, so a paraphrase sharing one rare word with the lesson
 * it restates is a candidate: 106 of the dedup eval's 107 paraphrases found the lesson they restate
 * among 12 candidates in the 10k + 10k bench corpus plus the 616 real memories. A vector search here
 * would cost ~8 ms a write at 10k (measured: add p50 2.7 → 11 ms), over the add budget.
 * `exclude` is an entry the new lesson declares it replaces: a better wording of it is no duplicate.
 */
export async function findNeighbours(
  store: Store, lesson: string, threshold: number, exclude?: string, profiles?: NeighbourProfiles, index?: BulkNeighbours,
): Promise<Neighbourhood> {
  // The index also knows the rows an import holds back for its next insert (see InsertQueue).
  const exact = (await (index ?? store).findByFingerprint(fingerprintLesson(lesson))).filter((e) => e.id !== exclude);
  const live = exact.find((e) => MERGEABLE.includes(e.lifecycle.status));
  if (live) return { duplicate: { entry: live, similarity: 1 }, contradicts: [], reverses: [] };
  const retired = exact.find((e) => e.lifecycle.status === "quarantined" || e.lifecycle.status === "superseded");
  if (retired) return { retired, contradicts: [], reverses: [] };

  // A trusted import asks its in-memory copy of the index (same terms, same ranking) instead of one query per row.
  const hits: NeighbourCandidate[] = index
    ? await index.candidates(queryTerms(lesson, 24), MERGEABLE, CANDIDATES)
    : (await store.searchEntries(queryTerms(lesson, 24), { statuses: MERGEABLE }, CANDIDATES)).map((h) => ({ id: h.entry.id, lesson: h.entry.lesson, relevance: h.relevance, entry: async () => h.entry }));
  // Cached too: in an import this row is the neighbour of the rows after it.
  const profile = profiles ? profiles.of(lesson) : profileLesson(lesson);
  const compared = hits
    .filter((h) => h.id !== exclude)
    .map((h) => ({ h, cmp: compareLessons(profile, profiles ? profiles.of(h.lesson) : h.lesson, threshold) }));
  // Entries are read only for the hits the decision names. One that has left the database since the
  // index saw it is passed over, as if never found: the most similar duplicate that is still there.
  const n: Neighbourhood = { contradicts: [], reverses: [] };
  for (const x of mostSimilarFirst(compared.filter((x) => x.cmp.duplicate))) {
    const entry = await x.h.entry();
    if (entry) {
      n.duplicate = { entry, similarity: x.cmp.similarity };
      break;
    }
  }
  for (const x of compared) {
    if (x.cmp.duplicate || !x.cmp.contradiction) continue;
    const entry = await x.h.entry();
    if (!entry) continue;
    n.contradicts.push(entry);
    if (x.cmp.contradiction_kind !== "value") n.reverses.push(entry);
  }
  const [nearest] = mostSimilarFirst(compared.filter((x) => !x.cmp.duplicate && !x.cmp.contradiction));
  if (nearest) n.nearest = { entry: nearest.h.entry, similarity: nearest.cmp.similarity };
  return n;
}

/** By similarity, highest first; equals keep the search's order (its better-ranked hit wins a tie). */
function mostSimilarFirst<T extends { cmp: { similarity: number } }>(xs: T[]): T[] {
  return xs.sort((a, b) => b.cmp.similarity - a.cmp.similarity);
}

export type UpsertDecision =
  | { op: "reinforce"; target: Entry; similarity: number }
  | { op: "supersede"; target: Entry }
  | { op: "flag"; targets: Entry[] }
  | { op: "add" }
  | { op: "refuse"; target: Entry };

/** Entries people vouched for are never retired by a machine-made contradiction; they are flagged instead. */
export function isProtected(e: Entry): boolean {
  return e.lifecycle.status === "promoted" || Boolean(e.provenance.approved_at);
}

/**
 * Deterministic rules: duplicate → reinforce (a NOOP when the sighting adds nothing new);
 * reversed advice against one unprotected entry on the same subject → supersede it (kept,
 * linked, never deleted); a value-only conflict, a protected entry or several → add with a flag.
 */
export function decideUpsert(n: Neighbourhood): UpsertDecision {
  if (n.retired) return { op: "refuse", target: n.retired };
  if (n.duplicate) return { op: "reinforce", target: n.duplicate.entry, similarity: n.duplicate.similarity };
  // Only reversed advice retires the old lesson by itself; "another value" may be another component, so a person decides.
  if (n.contradicts.length === 1 && n.reverses.length === 1 && !isProtected(n.reverses[0]!)) return { op: "supersede", target: n.reverses[0]! };
  if (n.contradicts.length) return { op: "flag", targets: n.contradicts };
  return { op: "add" };
}

export function isAmbiguous(n: Neighbourhood): boolean {
  return !n.retired && !n.duplicate && n.contradicts.length === 0 && (n.nearest?.similarity ?? 0) >= AMBIGUOUS_SIMILARITY;
}
