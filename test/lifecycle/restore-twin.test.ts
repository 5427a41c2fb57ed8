// Audit finding 3 on the restore path: bringing a retired lesson back may not leave two live copies of one lesson.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const OLD = "Cache the compiled templates per worker; recompiling them on each request doubled p99 latency.";
const RELEARNED = "Cache compiled templates per worker, since recompiling them on every request doubled the p99 latency.";

test("regression: cairn restore of a lesson learned again meanwhile (archived, then re-added in other words) is refused, naming the live one", async () => {
  const p = sb.project("restore-twin");
  const old = (await sb.json(p, "add", OLD)).body;
  assert.equal((await sb.json(p, "archive", old.handle, "templates moved to the CDN")).code, 0);
  const again = (await sb.json(p, "--actor", "agent:coder", "add", RELEARNED)).body;
  assert.equal(again.action, "added");
  const r = await sb.json(p, "restore", old.handle);
  assert.equal(r.code, 2, r.stdout);
  assert.equal(r.body.error.code, "REJECTED");
  assert.match(r.body.error.message, new RegExp(`${again.handle}\\b`));
  assert.equal((await sb.json(p, "show", old.handle)).body.entry.lifecycle.status, "archived", "nothing restored");
  const live = (await sb.json(p, "list", "--status", "active")).body as Array<{ id: string; lesson: string }>;
  assert.deepEqual(live.filter((e) => /templates/.test(e.lesson)).map((e) => e.id), [again.id], "one live copy of the lesson");

  // Near misses: a retired lesson with no live twin comes back; one superseded by a rewording of it (a supersede by mistake) too.
  const other = (await sb.json(p, "add", "Set the worker pool size to the number of cores minus one on the render hosts.")).body;
  await sb.json(p, "archive", other.handle, "check");
  assert.equal((await sb.json(p, "restore", other.handle)).code, 0);
  assert.equal((await sb.json(p, "show", other.handle)).body.entry.lifecycle.status, "candidate");
  const first = (await sb.json(p, "add", "Run the database migrations before starting the integration test suite, otherwise fixtures fail to load.")).body;
  const sup = await sb.json(p, "supersede", first.handle, "Run database migrations before you start the integration tests, otherwise the fixtures fail to load.");
  assert.equal(sup.code, 0, sup.stderr);
  const back = await sb.json(p, "restore", first.handle);
  assert.equal(back.code, 0, back.stderr);
});
