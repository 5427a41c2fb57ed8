// Error messages must never echo line content: a token inside a malformed line stays out of every error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseFile } from "../../src/io/parse.js";
import { IMPORT_FORMATS } from "../../src/io/types.js";
import { collect, writeTmp } from "./helpers.js";

const TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

const malformed = [
  `{"id":"1","information":"token ${TOKEN}"`, // cut off
  `{"id":"1","information":"token ${TOKEN}"}{"id":"2"}`, // two objects
  `{"id":"1","information":"x"} ${TOKEN}`, // trailing junk
  `${TOKEN}`, // bare word
  `{"id":"1", ${TOKEN}: "x"}`, // unquoted key
  `"${TOKEN}"`, // a JSON string, not an object
  JSON.stringify({ id: TOKEN, information: 5, lesson: 5, tier: TOKEN, category: 5 }), // wrong types
  JSON.stringify({ id: "x", information: [TOKEN], lesson: [TOKEN], tags: TOKEN, handle: 1 }),
  JSON.stringify({ cairn_export: 1, schema_version: 2, note: TOKEN }),
];

test("no error message contains the token, in any format", async () => {
  assert.equal(TOKEN.length, 40);
  for (const format of IMPORT_FORMATS.filter((f) => f !== "context-md")) {
    const file = writeTmp("data.jsonl", malformed.join("\n") + "\n");
    const { bad } = await collect(parseFile(file, format));
    assert.equal(bad.length, malformed.length, `${format}: every line should be reported`);
    for (const b of bad) {
      assert.ok(!b.error.includes("ghp_"), `${format} line ${b.line}: ${b.error}`);
      assert.ok(!b.error.includes(TOKEN.slice(10, 20)), `${format} line ${b.line}: ${b.error}`);
      assert.ok(b.error.length > 0);
    }
  }
});

test("the two-objects line gets the helpful wording", async () => {
  const file = writeTmp("memories.jsonl", malformed[1] + "\n");
  const { bad } = await collect(parseFile(file, "swarm-tools"));
  assert.deepEqual(bad, [{ line: 1, error: "not valid JSON (two objects on one line?)" }]);
});
