// Ranking from context: task and files over chatter, specific context signals, stacks, triggers, project applicability.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildContextQuery, weightedContextTerms } from "../../src/retrieval/context.js";
import { insertRaw, makeSandbox, withWorld, type RawEntry } from "./helpers.js";

async function ranked(entries: RawEntry[], ctx: Parameters<import("../../src/engine.js").Cairn["recall"]>[0], sbName?: string): Promise<string[]> {
  const sb = makeSandbox(sbName);
  const rows = await insertRaw(sb, entries);
  const byId = new Map(rows.map((r, i) => [r.id, i]));
  let out: string[] = [];
  await withWorld(
    async ({ cairn }) => {
      out = (await cairn.recall(ctx, { limit: 10, diverse: false })).map((h) => String(byId.get(h.entry.id)));
    },
    {},
    sb,
  );
  return out;
}

test("query building: task terms first, then files; 'Phase N:' numbering and folder/extension noise dropped", () => {
  const ctx = { phase: "Phase 3: Observability", task: "Trace checkout requests", files: ["src/lib/logger.ts"], lastMessage: "thanks, looks good", techStack: ["node"] };
  const terms = buildContextQuery(ctx);
  assert.deepEqual(terms.slice(0, 3), ["trace", "checkout", "requests"]);
  assert.ok(terms.includes("logger"));
  for (const noise of ["phase", "3", "src", "lib", "ts"]) assert.ok(!terms.includes(noise), `${noise} is not a query term`);
  const weights = new Map(weightedContextTerms(ctx).map((t) => [t.term, t.weight]));
  assert.ok(weights.get("trace")! > weights.get("logger")! && weights.get("logger")! > weights.get("thanks")!, "task > files > chatter");
});

test("with the same overlap, a lesson sharing words with the task outranks one sharing words with the chatter", async () => {
  const order = await ranked(
    [
      { lesson: "Standup notes belong in the team thread, not in direct messages." },
      { lesson: "Invoice sync jobs stop after three attempts and park the failure." },
    ],
    { task: "Invoice sync attempts", lastMessage: "standup notes thread" },
  );
  assert.deepEqual(order, ["1", "0"]);
});

test("a lesson scoped to the files in play outranks an equally worded one scoped elsewhere", async () => {
  const order = await ranked(
    [
      { lesson: "Validate webhook payloads before queueing them.", globs: ["src/billing/**"] },
      { lesson: "Validate webhook payloads before queueing them!", globs: ["src/webhooks/**"] },
    ],
    { task: "Validate webhook payloads", files: ["src/webhooks/stripe.ts"] },
  );
  assert.deepEqual(order.slice(0, 2), ["1", "0"]);
});

test("a lesson declared for another stack gives way to a stack-neutral one with the same words", async () => {
  const order = await ranked(
    [
      { lesson: "Connection pool exhaustion: close every result set after reading it.", stack: ["go"] },
      { lesson: "Connection pool exhaustion: close every result set after reading it!" },
      { lesson: "Connection pool exhaustion: close every result set after reading it?", stack: ["python"] },
    ],
    { task: "Connection pool exhaustion in the reports API", techStack: ["python", "django"] },
  );
  assert.equal(order[order.length - 1], "0", `order ${order}`);
  assert.equal(order[0], "2", "the matching stack first");
});

test("triggers fire on whole words only", async () => {
  const order = await ranked(
    [
      { lesson: "Token verification: pin the expected signing method.", triggers: ["alg"] },
      { lesson: "Token verification: pin the expected signing method!", triggers: ["none algorithm"] },
    ],
    { task: "Token verification for the algorithm migration", lastMessage: "header says none algorithm" },
  );
  assert.equal(order[0], "1", "'none algorithm' is in the context; 'alg' only inside 'algorithm'");
});

test("entries restricted to other projects never reach this one", async () => {
  const order = await ranked(
    [
      { lesson: "Release notes for the mobile app are drafted from merged PR titles.", tier: "hive" as const, source: "x" },
      { lesson: "Release notes for the mobile app list every migration.", tier: "hive" as const, source: "y" },
    ].map((e, i) => (i === 0 ? { ...e, projects: ["someone-else"] } : e)),
    { task: "Draft the release notes for the mobile app" },
  );
  assert.deepEqual(order, ["1"]);
});

test("regression 10.14: recall hits carry their rank; the order is best first after diversity, not by score", async () => {
  const sb = makeSandbox();
  const rows = await insertRaw(sb, [
    { lesson: "Vitest fake timers must be restored in afterEach or later tests in the file hang on setTimeout.", kind: "correction" },
    // A restatement of the first: it scores high, but MMR lets a different lesson go before it.
    { lesson: "Vitest fake timers must be restored in afterEach, or later tests in that file hang on setTimeout calls.", kind: "correction" },
    { lesson: "Vitest snapshot files go stale after renaming a test; run vitest with -u to rewrite them.", kind: "learning" },
  ]);
  await withWorld(
    async ({ cairn }) => {
      const hits = await cairn.recall("vitest fake timers hang afterEach setTimeout", { limit: 3 });
      assert.deepEqual(hits.map((h) => h.rank), [1, 2, 3]);
      const order = hits.map((h) => rows.findIndex((r) => r.id === h.entry.id));
      assert.deepEqual(order.slice(1), [2, 1], "the restatement gives way to the different lesson");
      assert.ok(hits[2]!.score > hits[1]!.score, `scores ${hits.map((h) => h.score.toFixed(4)).join(", ")}: the order is not by score, so rank is what says it`);
    },
    {},
    sb,
  );
});

test("Memory Lane's kind weights order equally worded lessons: corrections, decisions, commitments (1.0) before insights and learnings (0.7) before workflow notes and gaps (0.4)", async () => {
  const kinds = ["workflow_note", "learning", "correction", "gap", "insight", "decision"] as const;
  const order = await ranked(
    kinds.map((kind, i) => ({ lesson: `Retry the nightly ledger export with a fresh session token${".!?;…,"[i]}`, kind })),
    // No intent word: only the kinds' weights tell these lessons apart.
    { task: "Nightly ledger export session token retry" },
  );
  const tierOf = (i: string) => ({ correction: 0, decision: 0, learning: 1, insight: 1, workflow_note: 2, gap: 2 })[kinds[Number(i)]!];
  assert.equal(order.length, kinds.length, `every lesson found: ${order}`);
  assert.deepEqual(order.map(tierOf), [0, 0, 1, 1, 2, 2], `order ${order.map((i) => kinds[Number(i)]).join(", ")}`);
});

test("explicit feedback reorders equally worded lessons: a helpful one rises above its neutral twin, a harmful one sinks below it (Memory Lane re-ranking)", async () => {
  const sb = makeSandbox();
  const rows = await insertRaw(sb, [".", "!", "?"].map((end) => ({ lesson: `Retry the nightly ledger export with a fresh session token${end}`, kind: "learning" as const })));
  await withWorld(
    async ({ cairn }) => {
      const order = async () => (await cairn.recall({ task: "Nightly ledger export session token retry" }, { limit: 3, diverse: false })).map((h) => rows.findIndex((r) => r.id === h.entry.id));
      const [helpful, neutral, harmful] = [2, 0, 1];
      await cairn.feedback(rows[helpful]!.id, "helpful");
      await cairn.feedback(rows[harmful]!.id, "harmful");
      assert.deepEqual(await order(), [helpful, neutral, harmful]);
    },
    {},
    sb,
  );
});
