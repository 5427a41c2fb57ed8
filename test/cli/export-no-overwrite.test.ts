// `cairn export <file>` never replaces a file that is already there unless --force says so; the refusal names the file and the flag.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "In services/billing/worker.ts retry the ledger webhook at most 3 times before paging on-call; a retry storm took the ledger down.";

test("export over an existing file is refused (file untouched, nothing left beside it) unless --force, which replaces it", async () => {
  const p = sb.project("export-exists");
  assert.equal((await sb.json(p, "add", LESSON, "--category", "integration")).body.action, "added");
  const out = path.join(sb.root, "out");
  fs.mkdirSync(out);
  const target = path.join(out, "notes.jsonl");
  fs.writeFileSync(target, "a file the user keeps\n");

  const plain = await sb.run(p, "export", target);
  assert.notEqual(plain.code, 0, plain.stdout);
  assert.match(plain.stderr, /notes\.jsonl/);
  assert.match(plain.stderr, /already exists/);
  assert.equal(plain.stderr.match(/--force/g)?.length, 1, `the flag is named once: ${plain.stderr}`);
  const json = await sb.json(p, "export", target);
  assert.equal(json.body.error.code, "FORCE_REQUIRED", json.stdout);
  assert.equal(fs.readFileSync(target, "utf8"), "a file the user keeps\n", "the file is untouched");
  assert.deepEqual(fs.readdirSync(out), ["notes.jsonl"], "no temp file left behind");

  const forced = await sb.json(p, "export", target, "--force");
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.equal(forced.body.written, 1);
  assert.match(fs.readFileSync(target, "utf8"), /ledger webhook/);
  assert.deepEqual(fs.readdirSync(out), ["notes.jsonl"]);

  // A new file needs no flag.
  const fresh = path.join(out, "fresh.jsonl");
  const made = await sb.json(p, "export", fresh);
  assert.equal(made.code, 0, made.stdout + made.stderr);
  assert.match(fs.readFileSync(fresh, "utf8"), /ledger webhook/);
});

test("removing an approved lesson names --force once", async () => {
  const p = sb.project("remove-approved");
  const added = await sb.json(p, "add", LESSON, "--category", "integration", "--actor", "agent:coder");
  assert.equal((await sb.run(p, "approve", added.body.handle)).code, 0);
  const plain = await sb.run(p, "remove", added.body.handle);
  assert.equal(plain.code, 4, plain.stderr);
  assert.equal(plain.stderr.match(/--force/g)?.length, 1, `the flag is named once: ${plain.stderr}`);
});
