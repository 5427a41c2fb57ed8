// swarm-tools memories written by Memory Lane (seed 003) keep its memory type, entities and confidence, kept in `metadata`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseFile } from "../../src/io/parse.js";
import { collect, writeTmp } from "./helpers.js";

const row = (metadata: unknown, information = "OAuth login requires JWT tokens with a 5 minute refresh buffer to prevent race conditions.") =>
  JSON.stringify({ id: "mem_1", information, created_at: "1766343300618.0", tags: "oauth,jwt", metadata });

test("regression: a Memory Lane memory keeps its type, entity slugs and confidence (metadata as a JSON string or an object)", async () => {
  const lane = { lane_version: "1.0", memory_type: "correction", entity_slugs: ["feature:auth", "project:web"], confidence_score: 95, feedback_score: 1, feedback_count: 0 };
  const file = writeTmp("memories.jsonl", [row(JSON.stringify(lane)), row({ ...lane, memory_type: "pattern_seed", confidence_score: 40 }, "Workers that batch their writes finish faster than ones writing each row.")].join("\n") + "\n");
  const { ok, bad } = await collect(parseFile(file, "swarm-tools"));
  assert.deepEqual(bad, []);
  const [a, b] = ok.map((r) => r.input!);
  assert.equal(a!.kind, "correction", "Memory Lane said correction (1.0); the text guess said otherwise");
  assert.deepEqual(a!.entities, ["feature:auth", "project:web"]);
  assert.equal(a!.confidence, 0.95);
  assert.equal(b!.kind, "pattern", "pattern_seed is Cairn's pattern");
  assert.equal(b!.confidence, 0.4);
});

test("metadata that is not Memory Lane's, or holds values out of range, changes nothing", async () => {
  const file = writeTmp(
    "memories.jsonl",
    [
      row({ kind: "pattern", is_negative: false }),
      row({ memory_type: "rumour", entity_slugs: ["feature auth!", 7], confidence_score: 400 }),
      row("not json"),
    ].join("\n") + "\n",
  );
  const { ok, bad } = await collect(parseFile(file, "swarm-tools"));
  assert.deepEqual(bad, []);
  const plain = (await collect(parseFile(writeTmp("plain.jsonl", row(undefined) + "\n"), "swarm-tools"))).ok[0]!.input!;
  for (const r of ok) {
    assert.equal(r.input!.kind, plain.kind);
    assert.deepEqual(r.input!.entities ?? [], plain.entities ?? []);
    assert.equal(r.input!.confidence, plain.confidence);
  }
});

test("regression: a Memory Lane memory keeps its feedback (feedback_score, feedback_count): one voted harmful three times is not handed to agents after migration", async () => {
  const { withWorld, T0, DAY } = await import("../learning/helpers.js");
  await withWorld(async ({ cairn }) => {
    const at = String(T0 - DAY);
    const mem = (id: string, information: string, feedback_score: number, feedback_count: number) =>
      JSON.stringify({ id, information, created_at: at, tags: "billing", metadata: { lane_version: "1.0", memory_type: "learning", feedback_score, feedback_count } });
    const file = writeTmp(
      "memories.jsonl",
      [
        // 0.5³: three harmful votes. 1.1²: two helpful. 1.1 × 0.5: one of each. 1.0 with no votes.
        mem("mem_bad", "Retry the billing webhook by replaying the raw request body into the queue by hand.", 0.125, 3),
        mem("mem_good", "Verify the billing webhook signature against the raw request body before parsing it.", 1.21, 2),
        mem("mem_mixed", "Log the billing webhook event id so duplicate deliveries can be told apart later.", 0.55, 2),
        mem("mem_none", "Keep the billing webhook handler idempotent; providers deliver the same event twice.", 1, 0),
      ].join("\n") + "\n",
    );
    const report = await cairn.importFile(file, { format: "swarm-tools" });
    assert.equal(report.imported, 4, JSON.stringify(report));
    const listed = await cairn.list();
    assert.equal(listed.length, 4, JSON.stringify(listed.map((e) => [e.lesson, e.lifecycle.status])));
    const usage = (start: string) => listed.find((e) => e.lesson.startsWith(start))!.usage;
    assert.deepEqual([usage("Retry the billing").helpful, usage("Retry the billing").harmful], [0, 3], "three harmful votes");
    assert.deepEqual([usage("Verify the billing").helpful, usage("Verify the billing").harmful], [2, 0], "two helpful votes");
    assert.deepEqual([usage("Log the billing").helpful, usage("Log the billing").harmful], [1, 1], "one of each");
    assert.deepEqual([usage("Keep the billing").helpful, usage("Keep the billing").harmful], [0, 0], "no votes");
    const block = (await cairn.inject({ task: "handle the billing webhook request body" }, { recordShown: false })).text ?? "";
    assert.doesNotMatch(block, /replaying the raw request body/, "the memory voted harmful three times came back at full strength");
    assert.match(block, /signature against the raw request body/);
  });
});

test("Memory Lane feedback values out of range carry no votes or a bounded number, never a crash", async () => {
  const { laneVotes } = await import("../../src/io/formats/swarm-tools.js");
  for (const feedback_score of [0, -1, Number.NaN, 1, "0.5", null]) assert.equal(laneVotes({ feedback_score, feedback_count: 3 }), undefined, String(feedback_score));
  assert.deepEqual(laneVotes(JSON.stringify({ feedback_score: 0.25 })), { helpful: 0, harmful: 2 }, "no count: a score below 1 is harmful votes");
  assert.deepEqual(laneVotes({ feedback_score: 1.1 ** 3, feedback_count: -4 }), { helpful: 3, harmful: 0 }, "an odd count is ignored");
  const huge = laneVotes({ feedback_score: 1e300, feedback_count: 1e9 })!;
  assert.ok(huge.helpful + huge.harmful <= 1000, JSON.stringify(huge));
  assert.deepEqual(laneVotes({ feedback_score: 1e-300 }), { helpful: 0, harmful: 997 });
});

test("regression: Memory Lane votes on a memory with no date still fade: their clock starts at the import", async () => {
  const { withWorld, T0, DAY } = await import("../learning/helpers.js");
  await withWorld(async ({ cairn, clock }) => {
    const line = JSON.stringify({ id: "mem_x", information: "Retry the billing webhook by replaying the raw request body into the queue by hand.", metadata: { memory_type: "learning", feedback_score: 0.125, feedback_count: 3 } });
    await cairn.importFile(writeTmp("memories.jsonl", line + "\n"), { format: "swarm-tools" });
    const [e] = await cairn.list();
    assert.equal(e!.usage.harmful, 3);
    assert.equal(e!.usage.last_feedback_at, new Date(T0).toISOString(), "without a clock the three votes never decay");
    clock.t = T0 + 400 * DAY;
    const block = (await cairn.inject({ task: "replay the billing webhook raw request body" }, { recordShown: false })).text ?? "";
    assert.match(block, /replaying the raw request body/, "votes 400 days old (over four half-lives) no longer silence it");
  });
});
