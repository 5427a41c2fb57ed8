// Commands that only look (the queue listings, export, review --list, related, hive status) leave a folder with no database as they found it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("reflect --list, review --list, export -, related and hive status in a folder with no database create no .swarm", async () => {
  const p = sb.project("looking");
  const swarm = path.join(p, ".swarm");
  for (const args of [["reflect", "--list", "dead"], ["reflect", "--list", "pending"], ["review", "--list"], ["related", "--files", "src/a.ts"], ["hive", "status"], ["config"]]) {
    const r = await sb.json(p, ...args);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assert.equal(fs.existsSync(swarm), false, `${args.join(" ")} created ${swarm}`);
  }
  const listed = await sb.json(p, "reflect", "--list", "dead");
  assert.deepEqual(listed.body.items, [], "an empty queue, as with a database");
  const exported = await sb.run(p, "export", "-");
  assert.equal(exported.code, 0, exported.stderr);
  assert.equal(fs.existsSync(swarm), false, "export - created .swarm");
});
