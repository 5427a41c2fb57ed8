// The optional LLM arbiter over a scripted local endpoint: consulted only for ambiguous upserts, followed for SUPERSEDE/ADD, never able to delete.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn, type ConfigInput } from "../../src/index.js";
import { AMBIGUOUS_SIMILARITY } from "../../src/lifecycle/upsert.js";
import { compareLessons } from "../../src/quality/similarity.js";
import { startLlmServer, type LlmServer, type Reply } from "../fixtures/llm-server.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { GOOD_RUN, T0, testConfig } from "./helpers.js";

const EXISTING = "Run the Playwright end-to-end suite against a production build so hydration bugs show up before release.";
// Related but not the same lesson, and not its opposite: the case the rules cannot settle. (Not "runs against
// the dev server hide hydration bugs the production build shows": that restates EXISTING, and semantic dedup merges it.)
const NEW = "Discovered that the Playwright suite against the production build misses hydration bugs behind feature flags that are off in release.";
const KEY = "sk-test-not-a-real-key";

test("precondition: the pair is ambiguous for the rules (similar, neither duplicate nor contradiction)", () => {
  const c = compareLessons(NEW, EXISTING);
  assert.equal(c.duplicate, false, c.reason);
  assert.equal(c.contradiction, false, c.reason);
  assert.ok(c.similarity >= AMBIGUOUS_SIMILARITY, `similarity ${c.similarity} ≥ ${AMBIGUOUS_SIMILARITY}`);
});

interface Run {
  cairn: Cairn;
  existing: string;
  /** Entry count after reflecting; the count before is 1. */
  total: number;
  learned?: string;
}

/** One existing lesson, one outcome that teaches NEW, one reflect() against the endpoint (or none). */
async function scenario(server: LlmServer, learning: ConfigInput["learning"], check: (r: Run) => Promise<void>): Promise<void> {
  const sb = makeSandbox();
  sb.env.TEST_LLM_KEY = KEY;
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: testConfig({ learning }), now: () => new Date(T0) });
  try {
    const existing = (await cairn.add({ lesson: EXISTING, category: "testing" })).id!;
    await cairn.recordOutcome({ id: "o-hydration", task: "Fix the checkout hydration bug", ...GOOD_RUN, files_touched: ["e2e/checkout.spec.ts"], evaluation: NEW });
    const report = await cairn.reflect();
    assert.deepEqual([report.processed, report.failed, report.dead], [1, 0, 0]);
    const all = await cairn.list({ limit: 10 });
    await check({ cairn, existing, total: all.length, learned: all.find((e) => e.lesson === NEW)?.id });
  } finally {
    await cairn.close();
    removeSandbox(sb);
    server.requests.length = 0;
  }
}

async function withServer(fn: (s: LlmServer) => Promise<void>, reply?: Reply): Promise<void> {
  const server = await startLlmServer(reply);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

const endpoint = (s: LlmServer): ConfigInput["learning"] => ({ llm_url: s.url, llm_model: "local-arbiter", llm_api_key_env: "TEST_LLM_KEY" });

test("arbiter: SUPERSEDE is followed — the old lesson is kept, marked superseded and linked", async () => {
  await withServer(async (server) => {
    await scenario(server, endpoint(server), async ({ cairn, existing, total, learned }) => {
      assert.equal(server.requests.length, 1, "the endpoint was consulted once");
      const req = server.requests[0]!;
      assert.equal(req.path, "/v1/chat/completions");
      assert.equal(req.headers.authorization, `Bearer ${KEY}`, "the key comes from the named env var");
      const body = req.body as { model: string; messages: Array<{ role: string; content: string }> };
      assert.equal(body.model, "local-arbiter");
      assert.deepEqual(JSON.parse(body.messages.at(-1)!.content), { existing: EXISTING, new: NEW });
      assert.equal(total, 2);
      assert.ok(learned);
      assert.equal((await cairn.get(existing)).lifecycle.status, "superseded");
      assert.equal((await cairn.get(existing)).lifecycle.superseded_by, learned);
      assert.equal((await cairn.get(learned)).lifecycle.supersedes, existing);
    });
  }, { content: 'Sure. {"operation": "SUPERSEDE"}' });
});

test("arbiter: ADD is followed — two separate live lessons", async () => {
  await withServer(async (server) => {
    await scenario(server, endpoint(server), async ({ cairn, existing, total, learned }) => {
      assert.equal(server.requests.length, 1);
      assert.equal(total, 2);
      assert.equal((await cairn.get(existing)).lifecycle.status, "candidate");
      assert.equal((await cairn.get(learned!)).lifecycle.supersedes, undefined);
    });
  }, { content: '{"operation":"ADD"}' });
});

test("arbiter: REINFORCE merges the sighting into the existing lesson instead of adding one", async () => {
  await withServer(async (server) => {
    await scenario(server, endpoint(server), async ({ cairn, existing, total, learned }) => {
      assert.equal(server.requests.length, 1);
      assert.equal(total, 1);
      assert.equal(learned, undefined);
      assert.ok((await cairn.get(existing)).lifecycle.confirmations.some((c) => c.phase === "outcome:o-hydration"));
    });
  }, { content: '{"operation":"REINFORCE"}' });
});

for (const [name, reply] of [
  ["DELETE", { content: '{"operation":"DELETE"}' }],
  ["garbage", { content: "You should probably remove the old one, it is outdated." }],
  ["HTTP 500", { status: 500 }],
] as Array<[string, Reply]>) {
  test(`arbiter: ${name} is refused — nothing deleted, the rules decide (add)`, async () => {
    await withServer(async (server) => {
      await scenario(server, endpoint(server), async ({ cairn, existing, total, learned }) => {
        assert.equal(server.requests.length, 1, "it was asked");
        assert.equal(total, 2, "the entry count never decreases");
        assert.ok(learned, "the rules' decision (add) stands");
        const old = await cairn.get(existing);
        assert.equal(old.lifecycle.status, "candidate");
        assert.deepEqual((await cairn.history(existing)).map((h) => h.type), ["created"]);
      });
    }, reply);
  });
}

test("arbiter: an endpoint that never answers times out and the rules decide", async () => {
  await withServer(async (server) => {
    await scenario(server, { ...endpoint(server), llm_timeout_ms: 300 }, async ({ cairn, existing, total, learned }) => {
      assert.equal(server.requests.length, 1);
      // The server never answers, so reflect() finishing at all means the arbiter's own timeout fired.
      assert.equal(total, 2);
      assert.ok(learned);
      assert.equal((await cairn.get(existing)).lifecycle.status, "candidate");
    });
  }, { hang: true });
});

test("no endpoint configured: the rules decide and no HTTP request is made", async () => {
  await withServer(async (server) => {
    await scenario(server, {}, async ({ total, learned }) => {
      assert.equal(server.requests.length, 0);
      assert.equal(total, 2);
      assert.ok(learned);
    });
  }, { content: '{"operation":"SUPERSEDE"}' });
});

test("endpoint configured but the case is clear: duplicates and unrelated lessons never reach it", async () => {
  await withServer(async (server) => {
    const sb = makeSandbox();
    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: testConfig({ learning: endpoint(server) }), now: () => new Date(T0) });
    try {
      await cairn.add({ lesson: EXISTING, category: "testing" });
      await cairn.recordOutcome({ id: "o-dup", task: "t", ...GOOD_RUN, evaluation: `Discovered that we should ${EXISTING.charAt(0).toLowerCase()}${EXISTING.slice(1)}` });
      await cairn.recordOutcome({ id: "o-other", task: "t", ...GOOD_RUN, evaluation: "Discovered that the Terraform state lock in S3 needs a DynamoDB table or two applies can corrupt it." });
      await cairn.recordOutcome({ id: "o-same", task: "t", ...GOOD_RUN, evaluation: "Discovered that the Terraform state lock in S3 needs a DynamoDB table or two applies can corrupt it." });
      assert.equal((await cairn.reflect()).processed, 3);
      assert.equal(server.requests.length, 0);
    } finally {
      await cairn.close();
      removeSandbox(sb);
    }
  }, { content: '{"operation":"SUPERSEDE"}' });
});

test("arbiter: SUPERSEDE of a promoted lesson only flags the new one", async () => {
  await withServer(async (server) => {
    const sb = makeSandbox();
    sb.env.TEST_LLM_KEY = KEY;
    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: testConfig({ learning: endpoint(server) }), now: () => new Date(T0) });
    try {
      const existing = (await cairn.add({ lesson: EXISTING, category: "testing" })).id!;
      await cairn.promote({ id: existing });
      await cairn.recordOutcome({ id: "o-p", task: "t", ...GOOD_RUN, evaluation: NEW });
      await cairn.reflect();
      assert.equal(server.requests.length, 1);
      assert.equal((await cairn.get(existing)).lifecycle.status, "promoted");
      const learned = (await cairn.list({ tier: "swarm", limit: 10 })).find((e) => e.lesson === NEW)!;
      assert.ok(learned.lifecycle.flags.includes(`contradicts:${existing}`));
    } finally {
      await cairn.close();
      removeSandbox(sb);
    }
  }, { content: '{"operation":"SUPERSEDE"}' });
});
