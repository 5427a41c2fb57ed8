// `cairn list` shows a lesson promoted to the hive once: the hive copy, saying which project lesson it came from.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("cairn list shows a promoted lesson once, its hive copy naming the project original; --tier swarm still shows the original", async () => {
  const p = sb.project("list-once");
  const added = await sb.json(p, "add", "Run prisma migrate deploy before starting the api container; the app crashes on a missing column.");
  const promoted = await sb.json(p, "promote", "--from-swarm", added.body.handle);
  assert.equal(promoted.body.action, "added", promoted.stdout);

  const json = await sb.json(p, "list");
  assert.deepEqual(json.body.map((e: { id: string }) => e.id), [promoted.body.id], json.stdout);
  assert.equal(json.body[0].promoted_from?.handle, added.body.handle);

  const table = await sb.run(p, "list");
  assert.equal(table.code, 0, table.stderr);
  assert.doesNotMatch(table.stdout, new RegExp(`\\b${added.body.handle}\\b.*promoted`), table.stdout);
  assert.match(table.stdout, new RegExp(`promoted from this project's ${added.body.handle}`), table.stdout);

  const swarm = await sb.json(p, "list", "--tier", "swarm");
  assert.deepEqual(swarm.body.map((e: { id: string }) => e.id), [added.body.id]);
});
