// A model whose unrelated texts sit at a high cosine (an endpoint such as many real ones) keeps the relevance floor: similarities are read on the built-in model's scale.
import assert from "node:assert/strict";
import { test } from "node:test";
import { openCairn } from "../../src/index.js";
import { cosineScale, IDENTITY_CALIBRATION, REFERENCE_TEXTS } from "../../src/embed/calibration.js";
import { EndpointEmbedder } from "../../src/embed/endpoint-embedder.js";
import { EmbeddingService, ENDPOINT_RETRY_AFTER_MS } from "../../src/embed/service.js";
import { builtinEmbedder } from "../../src/embed/static-embedder.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { startEmbeddingServer } from "../fixtures/embedding-server.js";

const LESSONS = [
  "Run database migrations before starting the API server in CI.",
  "Quote shell variables that may hold paths with spaces.",
  "Set a timeout on every outbound HTTP request to the payment provider.",
  "Keep feature flags out of the shared config file.",
  "Use a read replica for the nightly analytics export.",
  "Rotate the signing keys of the webhook every ninety days.",
];

test("regression 13.5: with an endpoint model whose unrelated texts score ~0.75, an unrelated task gets an empty block and a related one its lesson", async () => {
  const server = await startEmbeddingServer({ dim: 64, bias: 0.5 });
  const sb = makeSandbox();
  try {
    const config = { embedding: { provider: "openai" as const, url: server.url, model: "biased-embed", timeout_ms: 5000, retries: 0 } };
    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config });
    try {
      for (const lesson of LESSONS) assert.equal((await cairn.add({ lesson, category: "tooling" })).action, "added");
      const [tier] = (await cairn.stats()).tiers;
      assert.equal(tier!.vectors?.current?.modelId, "openai:biased-embed", "the lessons carry the endpoint's vectors");
      // No word of it is in any lesson: only the vectors could bring a lesson, and they must not.
      const unrelated = { task: "Paint the garden fence blue before winter arrives" };
      const block = await cairn.inject(unrelated, { recordShown: false });
      assert.deepEqual(block.entries, [], `an unrelated task got ${block.entries.length} lessons`);
      assert.deepEqual(await cairn.recall(unrelated.task, { limit: 5, retrieval: "semantic" }), [], "no lesson is near in meaning");
      const related = await cairn.inject({ task: "The outbound HTTP request to the payment provider hangs with no timeout" }, { recordShown: false });
      assert.ok(related.text.includes("Set a timeout on every outbound HTTP request"), related.text);
    } finally {
      await cairn.close();
    }
  } finally {
    await server.close();
    removeSandbox(sb);
  }
});

test("calibration: the built-in model reads as it is; another model's unrelated cosines land where the built-in model's do, in the same order", async () => {
  const server = await startEmbeddingServer({ dim: 64, bias: 0.5 });
  try {
    const service = new EmbeddingService(new EndpointEmbedder({ url: server.url, model: "biased-embed", timeoutMs: 5000, batchSize: 64, retries: 0 }));
    const b = builtinEmbedder();
    assert.equal(await service.calibration({ modelId: b.modelId, dimension: b.dimension }), IDENTITY_CALIBRATION);

    const { space, vectors } = await service.embed(REFERENCE_TEXTS);
    assert.equal(space.modelId, "openai:biased-embed");
    const model = cosineScale(vectors)!;
    const reference = cosineScale(REFERENCE_TEXTS.map((t) => b.embedSync(t)))!;
    assert.ok(model.mean > 0.6 && reference.mean < 0.15, `unrelated texts: ${model.mean.toFixed(2)} for the endpoint, ${reference.mean.toFixed(2)} built in`);
    const cal = (await service.calibration(space))!;
    assert.equal(cal.identity, false);
    assert.ok(Math.abs(cal.toReference(model.mean) - reference.mean) < 1e-9, "the endpoint's unrelated mean reads as the built-in one");
    assert.ok(Math.abs(cal.fromReference(cal.toReference(0.8)) - 0.8) < 1e-9, "the two directions agree");
    const xs = [0.5, 0.7, 0.75, 0.8, 0.9, 1];
    const mapped = xs.map((x) => cal.toReference(x));
    assert.deepEqual([...mapped].sort((a, c) => a - c), mapped, "increasing: a ranking by cosine is unchanged");
    assert.ok(mapped.every((x) => x >= -1 && x <= 1));
  } finally {
    await server.close();
  }
});

test("calibration: measured with one request per model and process, and measured again once an endpoint that was down answers", async () => {
  const server = await startEmbeddingServer({ status: 503 });
  try {
    let now = 0;
    const service = new EmbeddingService(new EndpointEmbedder({ url: server.url, model: "biased-embed", timeoutMs: 5000, batchSize: 64, retries: 0 }), builtinEmbedder, () => now);
    const space = { modelId: "openai:biased-embed", dimension: 64 };
    const quiet = process.stderr.write;
    process.stderr.write = () => true;
    try {
      assert.equal(await service.calibration(space), undefined, "no scale while the endpoint is down");
    } finally {
      process.stderr.write = quiet;
    }
    server.reply({ dim: 64, bias: 0.5 });
    now += ENDPOINT_RETRY_AFTER_MS + 1;
    const requests = server.batches.length;
    const first = await service.calibration(space);
    assert.ok(first && !first.identity, "measured once the endpoint answers");
    assert.equal(await service.calibration(space), first, "kept for the process");
    assert.equal(server.batches.length, requests + 1, "one request for the reference texts");
  } finally {
    await server.close();
  }
});
