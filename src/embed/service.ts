// Which embedder answers for a config, and the fallback to the built-in model while an endpoint is down.
import type { EmbeddingConfig } from "../config.js";
import { isUnavailable } from "../errors.js";
import type { SpaceVectors, VectorSpace } from "../store/store.js";
import { calibrationBetween, cosineScale, IDENTITY_CALIBRATION, REFERENCE_TEXTS, type Calibration } from "./calibration.js";
import type { Embedder, SyncEmbedder } from "./embedder.js";
import { EndpointEmbedder } from "./endpoint-embedder.js";
import { builtinEmbedder } from "./static-embedder.js";


/**
 * After a failed request the endpoint is left alone this long: every write and every turn would
 * otherwise wait out its timeout again while it is down.
 */
export const ENDPOINT_RETRY_AFTER_MS = 30_000;

function spaceOf(e: Embedder): VectorSpace {
  return { modelId: e.modelId, dimension: e.dimension };
}

export class EmbeddingService {
  #downUntil = 0;
  #warned = false;
  /** Per space measured (see calibration); a measurement that could not be made is dropped, so it is tried again. */
  readonly #calibrations = new Map<string, Promise<Calibration | undefined>>();

  /** `primary` undefined: the built-in model is the current model. */
  constructor(
    readonly primary: Embedder | undefined,
    readonly builtin: () => SyncEmbedder = builtinEmbedder,
    readonly clock: () => number = Date.now,
  ) {}

  /** The model recall prefers and reindex fills. */
  get currentModelId(): string {
    return this.primary?.modelId ?? this.builtin().modelId;
  }

  /**
   * The current space. An endpoint's dimension is known once it has answered; until then it is
   * asked once here (`cairn doctor`, reindex). Undefined when the endpoint cannot be reached.
   */
  async currentSpace(): Promise<VectorSpace | undefined> {
    if (!this.primary) return spaceOf(this.builtin());
    if (!this.primary.dimension) {
      try {
        await this.primary.embed(["cairn"]);
      } catch {
        return undefined;
      }
    }
    return spaceOf(this.primary);
  }

  /** Vectors for texts, from the endpoint when it answers, else from the built-in model (never zero vectors). */
  async embed(texts: readonly string[]): Promise<SpaceVectors> {
    if (this.primary && this.clock() >= this.#downUntil) {
      try {
        const vectors = await this.primary.embed(texts);
        return { space: spaceOf(this.primary), vectors };
      } catch (e) {
        if (!isUnavailable(e)) throw e;
        this.#downUntil = this.clock() + ENDPOINT_RETRY_AFTER_MS;
        if (!this.#warned) process.stderr.write(`cairn: ${(e as Error).message} Using the built-in model meanwhile; \`cairn reindex\` re-embeds later.\n`);
        this.#warned = true;
      }
    }
    const b = this.builtin();
    return { space: spaceOf(b), vectors: texts.map((t) => b.embedSync(t)) };
  }

  /**
   * How cosines of `space` read on the built-in model's scale (the scale retrieval's thresholds are set
   * on): the identity for the built-in model; for another, measured once per process on REFERENCE_TEXTS
   * (one request to the endpoint). Undefined while it cannot be measured (the endpoint is down, or the
   * model's cosines do not spread).
   */
  calibration(space: VectorSpace): Promise<Calibration | undefined> {
    const b = this.builtin();
    if (space.modelId === b.modelId && space.dimension === b.dimension) return Promise.resolve(IDENTITY_CALIBRATION);
    const key = `${space.modelId}\u0000${space.dimension}`;
    let measured = this.#calibrations.get(key);
    if (!measured) {
      measured = this.#measureCalibration(space).then((c) => {
        if (!c) this.#calibrations.delete(key);
        return c;
      });
      this.#calibrations.set(key, measured);
    }
    return measured;
  }

  async #measureCalibration(space: VectorSpace): Promise<Calibration | undefined> {
    const { space: got, vectors } = await this.embed(REFERENCE_TEXTS);
    // The endpoint went down in between: its vectors are not the ones asked about.
    if (got.modelId !== space.modelId || got.dimension !== space.dimension) return undefined;
    const model = cosineScale(vectors);
    const b = this.builtin();
    const reference = cosineScale(REFERENCE_TEXTS.map((t) => b.embedSync(t)));
    return model && reference ? calibrationBetween(model, reference) : undefined;
  }

  /** True while the endpoint is being skipped after a failure. */
  get endpointDown(): boolean {
    return Boolean(this.primary) && this.clock() < this.#downUntil;
  }
}

/** The embedding service for a config; undefined when vectors are off (`provider: none`). */
export function embeddingFor(cfg: EmbeddingConfig, env: NodeJS.ProcessEnv = process.env): EmbeddingService | undefined {
  if (cfg.provider === "none") return undefined;
  if (cfg.provider === "builtin") return new EmbeddingService(undefined);
  const apiKey = cfg.api_key_env ? env[cfg.api_key_env] : undefined;
  return new EmbeddingService(
    new EndpointEmbedder({
      url: cfg.url!,
      model: cfg.model,
      ...(apiKey ? { apiKey } : {}),
      timeoutMs: cfg.timeout_ms,
      batchSize: cfg.batch_size,
      retries: cfg.retries,
    }),
  );
}
