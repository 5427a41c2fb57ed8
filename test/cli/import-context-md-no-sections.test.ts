// A context.md whose bullets all sit outside the sections Cairn reads says so, instead of "imported 0, skipped 0".
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const BULLETS = "- Use pg_dump --format=custom for postgres backups so pg_restore can select tables\n- Pin the terraform provider version in required_providers to avoid surprise upgrades\n";

test("bullets only under other headings (or none): the import reports them, naming the sections it reads", async () => {
  const p = sb.project("notes");
  const file = path.join(p, "context.md");
  fs.writeFileSync(file, `# Project context\n## Notes\n${BULLETS}`);
  const r = await sb.json(p, "import", file, "--format", "context-md");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.body.imported, 0);
  assert.equal(r.body.skipped_lines.length, 1, JSON.stringify(r.body));
  assert.equal(r.body.skipped_lines[0].line, 3, "the first bullet Cairn did not read");
  assert.match(r.body.skipped_lines[0].error, /2 bullets/);
  assert.match(r.body.skipped_lines[0].error, /## Lessons Learned/);

  const text = await sb.run(p, "import", file, "--format", "context-md");
  assert.match(text.stderr, /## Lessons Learned/, "the person at the terminal reads it too");
});

test("a file with a section Cairn reads: bullets under other headings are left out quietly, as before", async () => {
  const p = sb.project("mixed");
  const file = path.join(p, "context.md");
  fs.writeFileSync(file, `## Agent Activity\n- coder finished task 2.1\n## Lessons Learned\n${BULLETS}`);
  const r = await sb.json(p, "import", file, "--format", "context-md");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.body.imported, 2, JSON.stringify(r.body));
  assert.deepEqual(r.body.skipped_lines, []);
});
