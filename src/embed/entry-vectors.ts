// Keeping entries' vectors current: embedded after every write that creates or changes a lesson's text, and re-embedded by reindex.
import type { Entry } from "../core/entry.js";
import { vectorRowsOf, type Store, type VectorCount, type VectorSpace } from "../store/store.js";
import type { EmbeddingService } from "./service.js";

/** What a lesson's vector is made of: what it is about, not its bookkeeping. */
export function embeddingTextOf(e: Entry): string {
  return e.title ? `${e.title}. ${e.lesson}` : e.lesson;
}

/** Embeds entries in one call (one request per batch to an endpoint) and stores the vectors in the space they came from. */
export async function embedEntries(store: Store, service: EmbeddingService, entries: readonly Entry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const { space, vectors } = await service.embed(entries.map(embeddingTextOf));
  if (!space.dimension) return 0;
  const rows = vectorRowsOf(entries, vectors);
  await store.putVectors(space, rows);
  return rows.length;
}

/** Texts already embedded in this process, so status and counter updates do not re-embed (bounded). */
const SEEN_LIMIT = 50_000;

/**
 * Subscribes `store` so inserted and edited lessons get a vector once their write has committed.
 * The built-in model answers in-process, so the vector is there when the write returns; an
 * endpoint's writes are queued and sent in batches (an import sends a few requests, not one per
 * row) — `drain()` waits for them. A failure to embed never fails the write: the lesson is found
 * through the text index until `cairn reindex` gives it a vector.
 */
export function attachEmbedding(store: Store, service: EmbeddingService, batchSize: number): { detach: () => void; drain: () => Promise<void> } {
  const seen = new Map<string, string>();
  let queue: Entry[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let scheduled = false;

  const flush = (): Promise<void> => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return flushing;
    flushing = flushing
      .then(() => embedEntries(store, service, batch))
      .then(() => undefined)
      .catch((e: unknown) => {
        for (const en of batch) seen.delete(en.id);
        process.stderr.write(`cairn: lessons were stored without a vector (${(e as Error).message}); \`cairn reindex\` adds them.\n`);
      });
    return flushing;
  };

  const detach = store.subscribe(async (c) => {
    if (c.type === "delete") seen.delete(c.id);
    if (c.type !== "insert" && c.type !== "update") return;
    const text = embeddingTextOf(c.entry);
    if (seen.get(c.entry.id) === text) return;
    if (seen.size >= SEEN_LIMIT) seen.clear();
    seen.set(c.entry.id, text);
    queue.push(c.entry);
    if (!service.primary) return flush();
    if (queue.length >= batchSize) void flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(() => void flush());
    }
  });
  return {
    detach,
    drain: async () => {
      await flush();
      await flushing;
    },
  };
}

export interface ReindexProgress {
  tier: string;
  done: number;
  total: number;
}

export interface ReindexReport {
  tier: string;
  space: VectorSpace;
  embedded: number;
  /** Entries whose text gave no vector (no word the model knows): found through the text index only. */
  skipped: number;
  remaining: number;
  /** Stopped by the signal before every batch was done: what `embedded` counts is stored, `remaining` is not. */
  interrupted?: true;
}

/**
 * Gives every entry without a vector of the current model one, in batches, walking entries by seq:
 * interrupted, it resumes where vectors are still missing. An endpoint that fails stops the run (no
 * fallback vectors here: they would not be the current model's). `signal` stops it between batches,
 * each batch's vectors written whole or not at all.
 */
export async function reindexStore(
  store: Store,
  service: EmbeddingService,
  space: VectorSpace,
  batchSize: number,
  onProgress?: (p: ReindexProgress) => void,
  signal?: AbortSignal,
): Promise<ReindexReport> {
  const embedder = service.primary ?? service.builtin();
  const total = await countMissing(store, space);
  let done = 0;
  let skipped = 0;
  let embedded = 0;
  let after = 0;
  let interrupted = false;
  onProgress?.({ tier: store.tier, done, total });
  for (;;) {
    // The store and the built-in model answer without a turn of the event loop: give the signal's handler one.
    if (signal) await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted) {
      interrupted = true;
      break;
    }
    const batch = await store.entriesWithoutVector(space, batchSize, after);
    if (batch.length === 0) break;
    const vectors = await embedder.embed(batch.map((b) => embeddingTextOf(b.entry)));
    const rows = batch.flatMap((b, i) => (vectors[i] && vectors[i]!.length === space.dimension ? [{ id: b.entry.id, vector: vectors[i]! }] : []));
    await store.putVectors(space, rows);
    embedded += rows.length;
    skipped += batch.length - rows.length;
    done += batch.length;
    after = batch[batch.length - 1]!.seq;
    onProgress?.({ tier: store.tier, done, total });
  }
  const remaining = Math.max(0, (await countMissing(store, space)) - skipped);
  return { tier: store.tier, space, embedded, skipped, remaining, ...(interrupted ? { interrupted: true as const } : {}) };
}

async function countMissing(store: Store, space: VectorSpace): Promise<number> {
  const have = (await store.vectorCounts()).find((c) => c.modelId === space.modelId && c.dimension === space.dimension)?.entries ?? 0;
  return Math.max(0, (await store.totalEntries()) - have);
}

/** What doctor and stats say about one tier's vectors. */
export interface VectorStatus {
  tier: string;
  current?: VectorSpace;
  counts: VectorCount[];
  /** Entries without a vector of the current model. */
  missing: number;
  /** True when vectors of another model are stored and entries lack the current one (a model change). */
  reindexNeeded: boolean;
}

export async function vectorStatus(store: Store, current: VectorSpace | undefined): Promise<VectorStatus> {
  const counts = await store.vectorCounts();
  const total = await store.totalEntries();
  const have = current ? (counts.find((c) => c.modelId === current.modelId && c.dimension === current.dimension)?.entries ?? 0) : 0;
  const missing = current ? Math.max(0, total - have) : total;
  const others = counts.some((c) => !current || c.modelId !== current.modelId || c.dimension !== current.dimension);
  return { tier: store.tier, ...(current ? { current } : {}), counts, missing, reindexNeeded: missing > 0 && (others || have === 0) };
}
