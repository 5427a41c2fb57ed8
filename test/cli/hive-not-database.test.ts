// A --hive file that is not a Cairn (SQLite) database, such as a user's notes, is refused by name before anything is written: never reported damaged, never moved aside by doctor --repair.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "In services/billing/worker.ts retry the ledger webhook at most 3 times before paging on-call; a retry storm took the ledger down.";

test("--hive notes.md (a user's file, not a database): every command, doctor and doctor --repair refuse it by name and leave it exactly as it was", async () => {
  const p = sb.project("hive-notes");
  assert.equal((await sb.json(p, "add", LESSON, "--category", "integration")).body.action, "added");
  const dir = path.join(sb.root, "notes");
  fs.mkdirSync(dir);
  const notes = path.join(dir, "notes.md");
  const text = "# Sprint notes\n\n- ask about the ledger retry storm\n".repeat(50);
  fs.writeFileSync(notes, text);
  const empty = path.join(dir, "todo.txt");
  fs.writeFileSync(empty, "");
  for (const file of [notes, empty]) {
    const name = path.basename(file);
    for (const args of [["list"], ["add", LESSON, "--category", "integration", "--tier", "hive"], ["doctor"], ["doctor", "--repair"]]) {
      const r = await sb.run(p, "--hive", file, ...args, "--json");
      const what = `${name} ${args.join(" ")}`;
      assert.notEqual(r.code, 0, `${what}: ${r.stdout}`);
      const body = JSON.parse(r.stdout);
      assert.notEqual(body.error?.code, "DAMAGED", what);
      assert.match(body.error.message, new RegExp(`${name.replace(".", "\\.")} is not a Cairn database`), what);
      assert.match(body.error.message, /new or existing \.db path/, what);
      assert.doesNotMatch(r.stderr + r.stdout, /doctor --repair/, `${what}: no advice to repair it`);
    }
    assert.deepEqual(fs.readdirSync(dir).sort(), ["notes.md", "todo.txt"], "nothing was written or moved beside it");
  }
  // Copying a hive to or from it is refused the same way, before any database is opened.
  for (const args of [["hive", "push", "--from", notes, "--to", "postgres://cairn@127.0.0.1:1/team"], ["hive", "pull", "--from", "postgres://cairn@127.0.0.1:1/team", "--to", notes]]) {
    const r = await sb.json(p, ...args);
    assert.notEqual(r.code, 0, args.join(" "));
    assert.match(r.body.error.message, /notes\.md is not a Cairn database/, args.join(" "));
  }
  assert.deepEqual(fs.readdirSync(dir).sort(), ["notes.md", "todo.txt"]);
  assert.equal(fs.readFileSync(notes, "utf8"), text, "the notes are untouched");
  assert.equal(fs.statSync(empty).size, 0);
  // The project's own tier is unaffected, and a new .db path still starts a hive.
  const listed = await sb.json(p, "list");
  assert.equal(listed.code, 0, listed.stderr);
  const fresh = path.join(dir, "team.db");
  const made = await sb.json(p, "--hive", fresh, "list", "--tier", "hive");
  assert.equal(made.code, 0, made.stdout + made.stderr);
});
