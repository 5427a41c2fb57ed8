// The Embedder contract: text → unit vectors in one named space. Vectors from different spaces are never compared.

export interface Embedder {
  /**
   * The vector space: a stable id such as `cairn-static-v1` or `openai:nomic-embed-text`.
   * A stored vector is only ever compared with a query vector of the same `modelId` and `dimension`.
   */
  readonly modelId: string;
  readonly dimension: number;
  /**
   * One unit-length vector per text, in order. Never returns a zero vector: a text with no
   * known token gets `null`, so callers fall back to the text index instead of storing noise.
   */
  embed(texts: readonly string[]): Promise<(Float32Array | null)[]>;
}

/** An embedder that answers in-process without I/O (the built-in model): usable on the hot path. */
export interface SyncEmbedder extends Embedder {
  embedSync(text: string): Float32Array | null;
}

/** Cosine similarity of two unit vectors of one space (a dot product). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`Vectors of different dimensions (${a.length} vs ${b.length}) are not comparable.`);
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}
