// A lesson file or a config file holding a value of the wrong type is told so in plain words naming the field ("lesson should be a string"), as every other validation error is, not in zod's "Invalid input: expected string, received number".
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const ZOD_WORDING = /Invalid input: expected|received (number|string)|Too (big|small):|Invalid option/;

test("add --from-file with a number for the lesson, or a priority not among its values: the field and what it should be, in plain words", async () => {
  const p = sb.project("lesson-file");
  const cases: [string, unknown, RegExp][] = [
    ["number.json", { lesson: 5 }, /lesson should be a string/],
    ["priority.json", { lesson: "In src/db/pool.ts set the pool max to 10; more connections exhausted Postgres in staging.", priority: 5 }, /priority should be one of low, medium, high, critical/],
  ];
  for (const [name, doc, said] of cases) {
    const file = path.join(p, name);
    fs.writeFileSync(file, JSON.stringify(doc));
    const r = await sb.json(p, "add", "--from-file", file);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(r.body.error.code, "INVALID_INPUT", r.stdout);
    assert.match(r.body.error.message, said, r.body.error.message);
    assert.doesNotMatch(r.body.error.message, ZOD_WORDING, r.body.error.message);
  }
});

test("a config value of the wrong type names the key and what it should be, in plain words", async () => {
  const p = sb.project("config-type");
  fs.mkdirSync(path.join(p, ".swarm"));
  fs.writeFileSync(path.join(p, ".swarm", "cairn.json"), JSON.stringify({ knowledge: { dedup_threshold: "high" } }));
  const r = await sb.json(p, "list");
  assert.equal(r.code, 2, r.stdout);
  assert.equal(r.body.error.code, "INVALID_CONFIG", r.stdout);
  assert.match(r.body.error.message, /knowledge\.dedup_threshold should be a number/, r.body.error.message);
  assert.doesNotMatch(r.body.error.message, ZOD_WORDING, r.body.error.message);
});
