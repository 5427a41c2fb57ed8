// `cairn import` of an empty file says the file is empty, not that its format cannot be told (which sent the user looking for a --format to pass).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("import of an empty or blank file is refused as empty, naming the file; nothing is imported", async () => {
  const p = sb.project("import-empty");
  for (const [name, text] of [["empty.jsonl", ""], ["blank.jsonl", "\n  \n\n"]] as const) {
    const file = path.join(p, name);
    fs.writeFileSync(file, text);
    const r = await sb.json(p, "import", file);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.body.error.code, "IMPORT_ERROR", r.stdout);
    assert.match(r.body.error.message, new RegExp(`${name.replace(".", "\\.")} is empty`), r.body.error.message);
    assert.doesNotMatch(r.body.error.message, /Cannot tell the format|--format/, r.body.error.message);
  }
  assert.deepEqual((await sb.json(p, "list")).body, []);
});
