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
