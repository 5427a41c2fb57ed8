// A JSONL file whose format cannot be told: the error says which --format reads rows like its own, and that advice works.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("rows holding only a lesson and a category: the error names --format opencode-swarm, which then imports them", async () => {
  const p = sb.project("hint");
  const file = path.join(p, "lessons.jsonl");
  const rows = [
    { lesson: "Run prisma migrate deploy before starting the API container in CI", category: "tooling" },
    { lesson: "Use pnpm install --frozen-lockfile in CI pipelines for reproducible installs", category: "tooling" },
  ];
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");

  const guessed = await sb.json(p, "import", file);
  assert.equal(guessed.code, 1);
  assert.equal(guessed.body.error.code, "IMPORT_ERROR");
  assert.match(guessed.body.error.message, /--format opencode-swarm/, guessed.body.error.message);

  const told = await sb.json(p, "import", file, "--format", "opencode-swarm");
  assert.equal(told.code, 0, told.stderr);
  assert.equal(told.body.imported, 2, JSON.stringify(told.body));
});

test("rows that look like no format: the error says what each format is known by", async () => {
  const p = sb.project("unknown");
  const file = path.join(p, "notes.jsonl");
  fs.writeFileSync(file, JSON.stringify({ text: "Run prisma migrate deploy before starting the API container in CI" }) + "\n");
  const r = await sb.json(p, "import", file);
  assert.equal(r.code, 1);
  assert.match(r.body.error.message, /"lesson"/, r.body.error.message);
  assert.match(r.body.error.message, /"information"/, r.body.error.message);
});
