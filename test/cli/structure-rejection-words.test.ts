// A lesson refused for its structure (an over-long tag) says so in plain words, as every other validation error does, not in zod's "Too big: expected string to have <=60 characters".
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("add with a tag past its limit is rejected naming the field and the limit in words", async () => {
  const p = sb.project("tags");
  const r = await sb.run(p, "add", "Run the migration dry-run against a copy of production before applying db/migrations.", "--tags", "t".repeat(100_000));
  assert.equal(r.code, 2, r.stdout + r.stderr);
  const said = r.stdout + r.stderr;
  assert.match(said, /tags\.0: is too long \(at most 60 characters\)/);
  assert.doesNotMatch(said, /Too big|expected string to have/);
  assert.ok(said.length < 2000, `the refusal does not echo the 100,000-character tag (${said.length} characters)`);
});
