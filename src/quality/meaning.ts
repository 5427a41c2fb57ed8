// Closeness in meaning of two lessons for dedup: the built-in static model's cosine, blended with the words' similarity.
import { cosine } from "../embed/embedder.js";
import { builtinEmbedder } from "../embed/static-embedder.js";

/**
 * Share of the cosine in the blend with the lexical similarity. The built-in model is used whatever
 * `embedding.provider` says: it is local (~20 µs a lesson), so every write can afford it, and the
 * weight is calibrated on its vectors.
 */
export const MEANING_WEIGHT = 0.7;
/**
 * A merge on meaning must clear the dedup threshold by this much. The static model puts related but
 * different lessons on one topic ("run terraform plan with -lock-timeout in CI" / "pass -lock-timeout
 * to terraform apply in the deploy job") as close as real paraphrases, so only the clearest ones merge.
 * Weight and margin were chosen on the dedup eval with only the even-line paraphrase pairs (and every
 * distinct pair): the fewest false merges (none), then the most paraphrases; `npm run eval:dedup`
 * reports the odd-line half as held out.
 */
export const MEANING_MARGIN = 0.1;

/**
 * The share of a lesson's terms the model must know for its vector to stand for the lesson. Lessons
 * full of project names ("run pzkqmwe generate for the qwhfzkd service") keep only their generic
 * words in the vector, and two such lessons look alike whatever they say. (The eval's lessons: 86 %
 * or more known for nine in ten.)
 */
export const MIN_KNOWN_SHARE = 0.8;

const vectors = new WeakMap<object, Float32Array | null>();
let unavailable = false;

/**
 * The vector meaningSimilarity uses for `text` (a profile's NFKC text): null when the model knows too
 * few of its words. Throws when the model cannot be read. An import's worker thread computes it
 * ahead (rememberVector), so the thread that dedups does not.
 */
export function lessonVector(text: string): Float32Array | null {
  const e = builtinEmbedder().embedWithCoverage(text);
  return e.known >= MIN_KNOWN_SHARE * e.terms ? e.vector : null;
}

/** Supplies the vector of the text `key` stands for, computed elsewhere by lessonVector. */
export function rememberVector(key: object, vector: Float32Array | null): void {
  vectors.set(key, vector);
}

/** The vector computed for `key` so far, if any (undefined: not computed; null: the model knows too few words). */
export function knownVector(key: object): Float32Array | null | undefined {
  return vectors.get(key);
}

/** The lesson's vector in the built-in model; null when it knows too few of its words (or the table cannot be read). */
function vectorOf(key: object, text: string): Float32Array | null {
  let v = vectors.get(key);
  if (v === undefined) {
    v = null;
    if (!unavailable) {
      try {
        v = lessonVector(text);
      } catch (err) {
        // Dedup by words still works; a write is never refused because the model could not load.
        unavailable = true;
        process.stderr.write(`cairn: dedup compares words only (${(err as Error).message}).\n`);
      }
    }
    vectors.set(key, v);
  }
  return v;
}

/**
 * The blended similarity of two lessons (`key`: an object standing for each text, so its vector is
 * computed once), or undefined when either has no vector.
 */
export function meaningSimilarity(a: { key: object; text: string }, b: { key: object; text: string }, lexical: number): number | undefined {
  const va = vectorOf(a.key, a.text);
  const vb = va && vectorOf(b.key, b.text);
  if (!va || !vb) return undefined;
  return MEANING_WEIGHT * cosine(va, vb) + (1 - MEANING_WEIGHT) * lexical;
}
