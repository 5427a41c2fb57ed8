// Reads every model's cosines on the built-in model's scale, so the one set of similarity thresholds in retrieval/weights.ts holds for any model.
import { cosine } from "./embedder.js";

/**
 * Texts about unrelated things, each on its own subject: the cosines between them are where a model
 * puts texts that have nothing to do with each other. The built-in model puts them around 0; many
 * endpoint models put them far higher (their vectors share a strong common direction), where fixed
 * thresholds would call every lesson related to every task.
 */
export const REFERENCE_TEXTS: readonly string[] = [
  "Run database migrations before the API server starts.",
  "Quote shell variables that may hold paths with spaces.",
  "Rotate the webhook signing keys every ninety days.",
  "Pin the Node version with an nvmrc file in the repository.",
  "Prefer CSS grid for two-dimensional page layouts.",
  "Close Kafka consumers on shutdown so the group rebalances.",
  "Resize uploaded images in a background worker.",
  "Name Terraform workspaces after their environment.",
  "Debounce the search box so typing does not flood the backend.",
  "Vacuum the SQLite file after large deletes.",
  "The bakery on the corner sells rye bread on Sundays.",
  "Tulips need a cold winter to flower in spring.",
  "The orchestra tuned to the oboe before the concert.",
  "Glaciers carve U-shaped valleys over thousands of years.",
  "She knitted a scarf from undyed alpaca wool.",
  "The ferry to the island leaves twice a day in summer.",
  "Translate the onboarding emails into Portuguese.",
  "Monthly invoices are due on the fifth business day.",
  "Garbage collection pauses grew after the cache doubled.",
  "Keyboard shortcuts should be listed in the help dialog.",
  "The chess club meets on Thursday evenings.",
  "A comet's tail always points away from the sun.",
  "Store passwords only as salted slow hashes.",
  "Lighthouses once burned whale oil in their lamps.",
];

/** Where a model's cosines between unrelated texts sit: their mean and standard deviation. */
export interface CosineScale {
  mean: number;
  spread: number;
}

/** A map of one model's cosines onto the built-in model's scale; increasing, so rankings never change. */
export interface Calibration {
  /** True for the built-in model itself: cosines are already on its scale. */
  identity: boolean;
  toReference(similarity: number): number;
  fromReference(similarity: number): number;
}

export const IDENTITY_CALIBRATION: Calibration = { identity: true, toReference: (x) => x, fromReference: (x) => x };

/** Fewer texts with a vector than this give no trustworthy scale. */
const MIN_VECTORS = 12;
/** A model whose unrelated cosines spread less than this tells texts apart too little to be read at all. */
const MIN_SPREAD = 1e-3;
/** The steepest and flattest map allowed: beyond them one model's noise would be read as meaning. */
const MAX_SLOPE = 20;
const MIN_SLOPE = 0.05;

/** The scale of the cosines between every pair of `vectors` (texts without a vector left out); undefined when too few have one. */
export function cosineScale(vectors: ReadonlyArray<Float32Array | null>): CosineScale | undefined {
  const vs = vectors.filter((v): v is Float32Array => v !== null);
  if (vs.length < MIN_VECTORS) return undefined;
  const sims: number[] = [];
  for (let i = 0; i < vs.length; i++) for (let j = i + 1; j < vs.length; j++) sims.push(cosine(vs[i]!, vs[j]!));
  const mean = sims.reduce((a, b) => a + b, 0) / sims.length;
  const spread = Math.sqrt(sims.reduce((a, b) => a + (b - mean) ** 2, 0) / sims.length);
  return spread < MIN_SPREAD ? undefined : { mean, spread };
}

/** The affine map taking `model`'s unrelated-text scale onto `reference`'s (the built-in model's). */
export function calibrationBetween(model: CosineScale, reference: CosineScale): Calibration {
  const slope = Math.min(MAX_SLOPE, Math.max(MIN_SLOPE, reference.spread / model.spread));
  return {
    identity: false,
    toReference: (x) => Math.max(-1, Math.min(1, reference.mean + (x - model.mean) * slope)),
    fromReference: (x) => model.mean + (x - reference.mean) / slope,
  };
}
