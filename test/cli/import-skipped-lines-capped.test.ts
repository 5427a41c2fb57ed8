// `cairn import` of a file that is not in the format given lists the first skipped lines and counts the rest on stderr, as it does for rejected rows, instead of one stderr line per line of the file; --json still lists every one.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("a file of 3,000 unreadable lines gives at most 100 of them on stderr and the count of the rest; --json lists all", async () => {
  const project = sb.project("wrong-file");
  const file = path.join(sb.root, "notes.txt");
  fs.writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `plain note ${i + 1}, not a JSON record`).join("\n") + "\n");
  const r = await sb.run(project, "import", file, "--format", "cairn");
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /skipped 3000 line\(s\)/);
  const listed = r.stderr.split("\n").filter((l) => /^line \d+:/.test(l));
  assert.equal(listed.length, 100, `stderr lists ${listed.length} lines`);
  assert.match(r.stderr, /… and 2900 more skipped lines \(--json lists every one\)/);
  const json = await sb.json(project, "import", file, "--format", "cairn");
  assert.equal(json.body.skipped_lines.length, 3000);
});
