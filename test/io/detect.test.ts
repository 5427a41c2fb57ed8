// detectFormat: by file name first, then by the first parseable JSON line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { detectFormat } from "../../src/io/detect.js";

test("by file name", () => {
  assert.equal(detectFormat("/x/.swarm/context.md", []), "context-md");
  assert.equal(detectFormat("/x/.swarm/knowledge.jsonl", []), "opencode-swarm");
  assert.equal(detectFormat("shared-learnings.jsonl", []), "opencode-swarm");
  assert.equal(detectFormat("hive-knowledge.jsonl", []), "opencode-swarm");
  assert.equal(detectFormat("knowledge-rejected.jsonl", []), "opencode-swarm");
  assert.equal(detectFormat("/x/.hive/memories.jsonl", []), "swarm-tools");
});

test("by content, skipping blank and unparseable leading lines", () => {
  assert.equal(detectFormat("dump.jsonl", ["", "not json", '{"id":"1","information":"x"}']), "swarm-tools");
  assert.equal(detectFormat("a.jsonl", ['{"schema_version":1,"lifecycle":{},"lesson":"x"}']), "cairn");
  assert.equal(detectFormat("a.jsonl", ['{"cairn_export":1,"schema_version":1}']), "cairn");
  assert.equal(detectFormat("a.jsonl", ['{"lesson":"x","confirmed_by":[]}']), "opencode-swarm");
  assert.equal(detectFormat("a.jsonl", ['{"lesson":"x","phases_alive":2}']), "opencode-swarm");
  assert.equal(detectFormat("a.jsonl", ['{"lesson":"x","tier":"swarm"}']), "opencode-swarm");
  assert.equal(detectFormat("a.jsonl", ['{"lesson":"x"}']), undefined);
  assert.equal(detectFormat("a.jsonl", ['{"foo":1}', '{"information":"x"}']), undefined);
  assert.equal(detectFormat("a.txt", ["hello"]), undefined);
});
