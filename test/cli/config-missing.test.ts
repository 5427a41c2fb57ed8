// `--config` (or CAIRN_CONFIG) naming no file: one plain sentence saying which and what to do, not Node's "ENOENT: …, open '…'".
import { after, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("--config naming a missing file or a folder is INVALID_CONFIG in plain words, with the flag and the variable to check", async () => {
  const p = sb.project("config-missing");
  const missing = path.join(sb.root, "no-such-config.json");
  const r = await sb.json(p, "--config", missing, "list");
  assert.equal(r.code, 2, r.stdout);
  assert.equal(r.body.error.code, "INVALID_CONFIG");
  assert.ok(r.body.error.message.includes(missing), r.body.error.message);
  assert.match(r.body.error.message, /no such file/);
  assert.match(r.body.error.message, /--config|CAIRN_CONFIG/);
  assert.doesNotMatch(r.body.error.message, /ENOENT|open '/);

  const folder = await sb.json(p, "--config", sb.root, "list");
  assert.equal(folder.body.error.code, "INVALID_CONFIG");
  assert.match(folder.body.error.message, /is a folder/);
  assert.doesNotMatch(folder.body.error.message, /EISDIR/);
});
