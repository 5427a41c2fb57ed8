// Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM…): batches, a timeout per request, retries.
import { CairnError } from "../errors.js";
import type { Embedder } from "./embedder.js";

export interface EndpointOptions {
  /** Base URL (`http://127.0.0.1:11434/v1`) or the full `…/embeddings` URL. */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  batchSize: number;
  /** Further attempts after a failed request. */
  retries: number;
}

/** The id of an endpoint model's vector space; the dimension is learnt from its first answer. */
export function endpointModelId(model: string): string {
  return `openai:${model}`;
}

function embeddingsUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, "");
  return /\/embeddings$/.test(trimmed) ? trimmed : `${trimmed}/embeddings`;
}

/** Unit length, or null for a vector with no direction (never stored: a zero vector is noise). */
export function normalised(values: ArrayLike<number>): Float32Array | null {
  const v = Float32Array.from(values as ArrayLike<number>);
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return v;
}

/**
 * A failure throws CairnError UNAVAILABLE after the retries: the caller (see EmbeddingService)
 * decides what answers instead, so this class never invents a vector.
 */
export class EndpointEmbedder implements Embedder {
  readonly modelId: string;
  #dimension = 0;
  readonly #url: string;

  constructor(readonly opts: EndpointOptions) {
    this.modelId = endpointModelId(opts.model);
    this.#url = embeddingsUrl(opts.url);
  }

  /** 0 until the endpoint has answered once: a model's dimension is whatever it returns. */
  get dimension(): number {
    return this.#dimension;
  }

  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    const out: (Float32Array | null)[] = [];
    for (let i = 0; i < texts.length; i += this.opts.batchSize) out.push(...(await this.#batch(texts.slice(i, i + this.opts.batchSize))));
    return out;
  }

  async #batch(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    let last: unknown;
    for (let attempt = 0; attempt <= this.opts.retries; attempt++) {
      try {
        return await this.#request(texts);
      } catch (e) {
        last = e;
      }
    }
    throw new CairnError("UNAVAILABLE", `The embeddings endpoint ${this.#url} did not answer (${(last as Error)?.message ?? last}).`);
  }

  async #request(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    const res = await fetch(this.#url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.opts.model, input: texts }),
      signal: AbortSignal.timeout(this.opts.timeoutMs),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { data?: Array<{ embedding?: unknown; index?: number }> };
    const data = body.data;
    if (!Array.isArray(data) || data.length !== texts.length) throw new Error("answer does not hold one embedding per input");
    const vectors: (Float32Array | null)[] = new Array(texts.length).fill(null);
    data.forEach((d, i) => {
      if (!Array.isArray(d.embedding) || d.embedding.some((x) => typeof x !== "number")) throw new Error("an embedding is not a list of numbers");
      vectors[typeof d.index === "number" ? d.index : i] = normalised(d.embedding as number[]);
    });
    const dims = new Set(vectors.filter((v): v is Float32Array => v !== null).map((v) => v.length));
    if (dims.size > 1) throw new Error("embeddings of different dimensions in one answer");
    const [dim] = dims;
    // A model swapped behind the same name changes dimension: a new space, which `cairn reindex` fills.
    if (dim) this.#dimension = dim;
    return vectors;
  }
}
