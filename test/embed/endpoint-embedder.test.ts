// The endpoint embedder against a scripted local HTTP server: batching, timeout and retries, fallback to the built-in model, a dimension change.
import assert from "node:assert/strict";
import { test } from "node:test";
import { openCairn } from "../../src/index.js";
import { EndpointEmbedder } from "../../src/embed/endpoint-embedder.js";
import { EmbeddingService } from "../../src/embed/service.js";
import { builtinEmbedder } from "../../src/embed/static-embedder.js";
import type { SqliteStore } from "../../src/store/sqlite-store.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { startEmbeddingServer } from "../fixtures/embedding-server.js";

const LESSONS = [
  "Run database migrations before starting the API server in CI.",
  "Quote shell variables that may hold paths with spaces.",
  "Set a timeout on every outbound HTTP request.",
  "Keep feature flags out of the shared config file.",
  "Use a read replica for the nightly analytics export.",
];

function embedding(url: string, extra: Record<string, unknown> = {}) {
  return { embedding: { provider: "openai" as const, url, model: "test-embed", timeout_ms: 5000, batch_size: 2, retries: 1, ...extra } };
}

test("endpoint: texts go in batches of batch_size, vectors come back unit-length in order, the dimension is learnt", async () => {
  const server = await startEmbeddingServer({ dim: 8 });
  try {
    const e = new EndpointEmbedder({ url: server.url, model: "test-embed", timeoutMs: 30_000, batchSize: 3, retries: 0 });
    assert.equal(e.dimension, 0);
    const texts = ["alpha beta", "gamma", "delta epsilon", "zeta", "eta theta", "iota", "kappa"];
    const vectors = await e.embed(texts);
    assert.deepEqual(server.batches.map((b) => b.length), [3, 3, 1]);
    assert.deepEqual(server.batches.flat(), texts);
    assert.equal(e.dimension, 8);
    assert.equal(e.modelId, "openai:test-embed");
    for (const v of vectors) {
      assert.ok(v);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    }
    // Same text, same vector: order is kept across batches.
    const again = await e.embed(["kappa"]);
    assert.deepEqual([...again[0]!], [...vectors[6]!]);
  } finally {
    await server.close();
  }
});

test("endpoint: a hanging server times out, is retried, then the built-in model answers under its own id (never a zero vector)", async () => {
  const server = await startEmbeddingServer({ hang: true });
  try {
    const service = new EmbeddingService(new EndpointEmbedder({ url: server.url, model: "test-embed", timeoutMs: 1000, batchSize: 10, retries: 2 }));
    const { space, vectors } = await service.embed(["Set a timeout on every outbound HTTP request."]);
    // Under heavy load an attempt can time out before its request reaches the server: at least one retry did.
    assert.ok(server.requests >= 2 && server.requests <= 3, `one request and two retries (server saw ${server.requests})`);
    const seen = server.requests;
    assert.equal(space.modelId, builtinEmbedder().modelId);
    assert.equal(space.dimension, builtinEmbedder().dimension);
    assert.ok(vectors[0]);
    assert.ok(vectors[0]!.some((x) => x !== 0));
    // While it is down the endpoint is not waited on again for every text.
    await service.embed(["Quote shell variables."]);
    assert.equal(server.requests, seen);
    assert.equal(service.endpointDown, true);
  } finally {
    await server.close();
  }
});

test("endpoint down: writes succeed, their vectors are stored under the built-in model, and a reindex gives them the endpoint's once it is back", async () => {
  const server = await startEmbeddingServer({ status: 503 });
  const sb = makeSandbox();
  try {
    const config = embedding(server.url);
    let cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config });
    for (const lesson of LESSONS) assert.equal((await cairn.add({ lesson, category: "tooling" })).action, "added");
    await cairn.close();
    const swarm = () => (cairn as unknown as { services: { swarm: SqliteStore } }).services.swarm;

    server.reply({ dim: 8 });
    cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config });
    const counts = await swarm().vectorCounts();
    assert.deepEqual(counts.map((c) => [c.modelId, c.entries]), [[builtinEmbedder().modelId, LESSONS.length]]);
    const [before] = (await cairn.stats()).tiers;
    assert.equal(before!.vectors?.current?.modelId, "openai:test-embed");
    assert.equal(before!.vectors?.reindexNeeded, true);
    assert.equal(before!.vectors?.missing, LESSONS.length);

    server.batches.length = 0;
    const [report] = await cairn.reindex({ tier: "swarm" });
    assert.equal(report!.embedded, LESSONS.length);
    assert.deepEqual(server.batches.slice(-3).map((b) => b.length), [2, 2, 1], "reindex sends batch_size texts per request");
    const [after] = (await cairn.stats()).tiers;
    assert.equal(after!.vectors?.reindexNeeded, false);
    await cairn.close();
  } finally {
    await server.close();
    removeSandbox(sb);
  }
});

test("dimension change behind the same model name: a new space, reported as needing a reindex, never compared with the old vectors", async () => {
  const server = await startEmbeddingServer({ dim: 8 });
  const sb = makeSandbox();
  try {
    const config = embedding(server.url);
    let cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config });
    for (const lesson of LESSONS) await cairn.add({ lesson, category: "tooling" });
    await cairn.close();

    server.reply({ dim: 12 });
    cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config });
    const [tier] = (await cairn.stats()).tiers;
    assert.deepEqual(tier!.vectors?.current, { modelId: "openai:test-embed", dimension: 12 });
    assert.deepEqual(tier!.vectors?.counts.map((c) => [c.dimension, c.entries]), [[8, LESSONS.length]]);
    assert.equal(tier!.vectors?.reindexNeeded, true);
    // Recall still works (through the text index) and never mixes the 8- and 12-dimension vectors.
    const hits = await cairn.recall("timeout on outbound HTTP request", { tier: "swarm" });
    assert.equal(hits[0]?.entry.lesson, LESSONS[2]);
    assert.equal(hits[0]?.similarity, undefined, "no 12-dimension vector exists yet: nothing to compare");

    await cairn.reindex();
    const [done] = (await cairn.stats()).tiers;
    assert.equal(done!.vectors?.reindexNeeded, false);
    const semantic = await cairn.recall("timeout on outbound HTTP request", { tier: "swarm", retrieval: "semantic" });
    assert.equal(semantic[0]?.entry.lesson, LESSONS[2]);
    assert.ok(semantic[0]?.similarity !== undefined);
    await cairn.close();
  } finally {
    await server.close();
    removeSandbox(sb);
  }
});
