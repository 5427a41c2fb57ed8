// Seed 000 finding 3 on the lossless import: a Cairn export brought into a project that already holds the same lesson in other words merges, as every other import does.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const HERE = "Run the database migrations before starting the integration test suite, otherwise fixtures fail to load.";
const THERE = "Run database migrations before you start the integration tests, otherwise fixtures fail to load.";
const OTHER = "Close the Kafka producer in the SIGTERM handler or the last batch of events is lost on deploy.";

const active = async (p: string) => ((await sb.json(p, "list", "--status", "active")).body as Array<{ id: string; lesson: string }>).map((e) => e.lesson).sort();

test("regression: cairn import of another project's export reinforces the lesson this project holds in other words instead of storing a second copy", async () => {
  const a = sb.project("a");
  const b = sb.project("b");
  assert.equal((await sb.json(a, "add", HERE)).body.action, "added");
  for (const lesson of [THERE, OTHER]) assert.equal((await sb.json(b, "add", lesson)).body.action, "added");
  const file = path.join(sb.root, "b.jsonl");
  assert.equal((await sb.run(b, "export", file, "--tier", "swarm")).code, 0);

  const r = await sb.json(a, "import", file);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([r.body.imported, r.body.reinforced], [1, 1], JSON.stringify(r.body));
  assert.deepEqual(await active(a), [OTHER, HERE].sort(), "the paraphrase is not a second live lesson; the new lesson is in");

  // Near miss: the same export restores exactly into an empty project, paraphrase and all.
  const c = sb.project("c");
  const restored = await sb.json(c, "import", file);
  assert.deepEqual([restored.body.imported, restored.body.reinforced], [2, 0]);
  assert.deepEqual(await active(c), [THERE, OTHER].sort());
});
