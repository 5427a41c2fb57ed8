// The dedup search: for a lesson, the stored entries it repeats (exactly or in other words) or contradicts; add, edit, restore and import ask it.
import type { Entry, Status } from "../core/entry.js";
import { fingerprintLesson } from "../core/ids.js";
import { queryTerms } from "../core/text.js";
import { knownVector, rememberVector } from "../quality/meaning.js";
import { fullProfile, judgeLessons, lessonKey, profileLesson, type LessonKey, type LessonProfile } from "../quality/similarity.js";
import { DEDUP_STATUSES, type Store } from "../store/store.js";
import type { BulkNeighbours, NeighbourCandidate } from "./bulk-neighbours.js";

/** Statuses a new lesson may merge into or supersede; retired entries do not absorb new sightings. */
export const MERGEABLE: readonly Status[] = DEDUP_STATUSES;
const CANDIDATES = 12;

export interface Neighbourhood {
  duplicate?: { entry: Entry; similarity: number };
  /** An exact match that was quarantined or superseded: re-learning it is refused. */
  retired?: Entry;
  /**
   * An exact match that was archived (aged out, or archived by hand). A new add may learn it again, so it
   * does not decide; an import re-run must not store its row a second time (write.ts placeLesson).
   */
  archived?: Entry;
  contradicts: Entry[];
  /** Of `contradicts`, those that reverse the advice (not merely state another value). */
  reverses: Entry[];
  /** The most similar live entry that is neither duplicate nor contradiction (read only if asked for: only an arbiter looks at it). */
  nearest?: { entry: () => Promise<Entry | undefined>; similarity: number };
}

/**
 * Keys (similarity.ts LessonKey) of stored lessons met as neighbours, for one bulk write (an import).
 * Its rows meet the same neighbours over and over (they share a vocabulary): building each again was
 * ~0.3 ms of a 2.3 ms row. A key depends on the text alone, so a cached one is the same answer. Most
 * pairs are told apart by their keys; the whole profile (~5 KB of small objects, against a key's
 * ~0.5 KB) is built only for a pair that gets further, and at most 2,048 are kept (~10 MB: at 512 the bench's
 * 5,000 rows built 3,995 profiles of 2,593 texts, at 2,048 they build 2,693). Keys are kept for 16,384
 * texts (~1 KB each, ~2 KB with the vector a key stands for): an import's rows meet neighbours from the
 * whole tier, and at 4,096 the bench's 20,000 rows built 68,616 keys again on the thread that dedups
 * (2,485 at 16,384), for no less memory at its peak. Held by the bulk operation, not the process, so a
 * long-running server keeps no such memory.
 */
export class NeighbourProfiles {
  private readonly byText = new Map<string, LessonKey>();
  private readonly profiles = new Map<LessonKey, LessonProfile>();
  /**
   * Dedup vectors (meaning.ts) of texts without a key now, by text: computed ahead by an import's
   * worker, or kept from a key pushed out (~1.2 KB), so a neighbour met again is not embedded again.
   * The oldest go first.
   */
  private readonly vectors = new Map<string, Float32Array | null>();
  /** Keys computed ahead by an import's worker thread, until the row they belong to is compared. */
  private readonly offered = new Map<string, LessonKey>();
  constructor(private readonly max = 16_384, private readonly maxVectors = 16_384, private readonly maxProfiles = 2048) {}

  of(text: string): LessonKey {
    let k = this.byText.get(text);
    if (k) return k;
    // Full: the oldest goes (a Map keeps insertion order). Dropping all at once made a long import
    // key (and embed) its candidates again every 4,096 rows.
    if (this.byText.size >= this.max) {
      const [oldText, old] = this.byText.entries().next().value!;
      this.byText.delete(oldText);
      this.profiles.delete(old);
      const vector = knownVector(old);
      if (vector !== undefined) this.keepVector(oldText, vector);
    }
    k = this.offered.get(text);
    if (k) this.offered.delete(text);
    else k = lessonKey(text);
    this.byText.set(text, k);
    const vector = this.vectors.get(text);
    if (vector !== undefined) {
      this.vectors.delete(text);
      rememberVector(k, vector);
    }
    return k;
  }

  /** The whole profile of a key this cache gave out (judgeLessons asks for it past the keys' test). */
  readonly profileOf = (key: LessonKey): LessonProfile => {
    let p = this.profiles.get(key);
    if (p) return p;
    if (this.profiles.size >= this.maxProfiles) this.profiles.delete(this.profiles.keys().next().value!);
    this.profiles.set(key, (p = fullProfile(key)));
    return p;
  };

  /**
   * The key and vector (meaning.ts lessonVector of its profileText) of `text`, computed by an import's
   * worker thread: the row's comparison takes them instead of computing them again (~50 µs a row off
   * the thread that dedups). The key is held until that row asks for it (the next, as rows go in order).
   */
  offer(text: string, key: LessonKey | undefined, vector: Float32Array | null | undefined): void {
    if (this.byText.has(text)) return;
    if (vector !== undefined) this.keepVector(text, vector);
    if (key) {
      // Bounded all the same: a row that never reaches the comparison (refused, an exact twin) leaves its key here.
      if (this.offered.size >= 64) this.offered.delete(this.offered.keys().next().value!);
      this.offered.set(text, key);
    }
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
  const archived = exact.find((e) => e.lifecycle.status === "archived");

  // A trusted import asks its in-memory copy of the index (same terms, same ranking) instead of one query per row.
  const hits: NeighbourCandidate[] = index
    ? await index.candidates(queryTerms(lesson, 24), MERGEABLE, CANDIDATES)
    : (await store.searchEntries(queryTerms(lesson, 24), { statuses: MERGEABLE }, CANDIDATES)).map((h) => ({ id: h.entry.id, lesson: h.entry.lesson, relevance: h.relevance, entry: async () => h.entry }));
  // Cached too: in an import this row is the neighbour of the rows after it.
  const profile = profiles ? profiles.of(lesson) : profileLesson(lesson);
  const compared = hits
    .filter((h) => h.id !== exclude)
    .map((h) => ({ h, cmp: profiles ? judgeLessons(profile, profiles.of(h.lesson), threshold, profiles.profileOf) : judgeLessons(profile, profileLesson(h.lesson), threshold) }));
  // Entries are read only for the hits the decision names. One that has left the database since the
  // index saw it is passed over, as if never found: the most similar duplicate that is still there.
  const n: Neighbourhood = { contradicts: [], reverses: [], ...(archived ? { archived } : {}) };
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
