// A lesson file that does not parse is refused with where it broke as one finished sentence, not a line cut off at the parser's colon.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("add --from-file with broken YAML names the file, the line and the column, and does not end on a colon", async () => {
  const p = sb.project("broken-yaml");
  const file = path.join(p, "lesson.yaml");
  fs.writeFileSync(file, "lesson: [unclosed\n");
  const r = await sb.json(p, "add", "--from-file", file);
  assert.equal(r.code, 2, r.stdout);
  const message: string = r.body.error.message;
  assert.match(message, /Cannot parse .*lesson\.yaml: .*at line 2, column 1/, message);
  assert.doesNotMatch(message, /:\s*$/, `a finished sentence: ${message}`);
});
