// `cairn import` of a context.md saved as Latin-1: the bullet whose bytes are not UTF-8 is reported with the fix, as JSONL lines are, never stored with U+FFFD.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

// "café" and "naïve" as Windows-1252 writes them: é = 0xE9, ï = 0xEF, bytes UTF-8 never allows alone.
const LATIN1_BULLET = Buffer.from("- Restart the caf\xe9 worker after changing its queue settings; a na\xefve reload kept the old consumer group\n", "latin1");
const GOOD = "- Run npm run db:migrate before the integration tests in test/integration; the schema_version table comes from migration 0003\n";
const ALSO_GOOD = "- Pin the Node version in .nvmrc so CI and laptops build with the same runtime, café machines included\n";

test("a context.md bullet that is not UTF-8 is skipped and reported by line with the iconv fix; the UTF-8 bullets are imported as written", async () => {
  const p = sb.project("context-latin1");
  const file = path.join(p, "context.md");
  fs.writeFileSync(file, Buffer.concat([Buffer.from("# Context\n\n## Lessons Learned\n\n" + GOOD), LATIN1_BULLET, Buffer.from("  continued on an indented line\n" + ALSO_GOOD)]));
  const r = await sb.json(p, "import", file, "--format", "context-md");
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.body.imported, 2, r.stdout);
  assert.equal(r.body.skipped_lines.length, 1, r.stdout);
  assert.equal(r.body.skipped_lines[0].line, 6, "the line holding the bytes");
  assert.match(r.body.skipped_lines[0].error, /not UTF-8/);
  assert.match(r.body.skipped_lines[0].error, /iconv -f windows-1252 -t utf-8/);
  const listed = await sb.json(p, "list");
  const stored = listed.body.map((e: { lesson: string }) => e.lesson) as string[];
  assert.ok(!stored.some((l) => l.includes("\uFFFD")), `no replacement characters stored: ${JSON.stringify(stored)}`);
  assert.ok(stored.some((l) => l.includes("café machines")), "a UTF-8 bullet keeps its é");
  assert.ok(!stored.some((l) => l.includes("continued on an indented line")), "no part of the skipped bullet is stored");
});
