// A hive lesson its origin project superseded there waits for a person's decision for the hive: the review queue lists it, `cairn review` shows it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";
import { openCairn } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

const sb = sandbox();
after(() => sb.cleanup());

const OLD = "Run eslint with --max-warnings 0 in the CI build so new warnings fail the pipeline before review.";
const NEW = "Run eslint with --max-warnings 0 --cache in the CI build so new warnings fail the pipeline quickly.";

interface Item { entry: { id: string; handle: string }; reasons: Array<{ kind: string; note?: string }> }

test("cli: `cairn review --json` and `cairn review --list` show a hive lesson whose origin project superseded it, with the flag's words", async () => {
  const p = sb.project("review-origin");
  const added = await sb.json(p, "add", OLD);
  assert.equal(added.body.action, "added", added.stderr);
  const promoted = await sb.json(p, "promote", "--from-swarm", added.body.handle);
  assert.equal(promoted.code, 0, promoted.stderr);
  const sup = await sb.json(p, "supersede", added.body.handle, NEW);
  assert.equal(sup.code, 0, sup.stderr);

  const json = await sb.json(p, "review");
  assert.equal(json.code, 0, json.stdout + json.stderr);
  const item = (json.body.items as Item[]).find((i) => i.entry.id === promoted.body.id);
  assert.ok(item, JSON.stringify(json.body));
  const reason = item.reasons.find((r) => r.kind === "origin_superseded");
  assert.ok(reason, JSON.stringify(item.reasons));
  assert.match(reason.note ?? "", /origin project .*superseded it by S-\d+/);
  assert.equal(json.body.counts.origin_superseded, 1);

  const text = await sb.run(p, "review", "--list");
  assert.equal(text.code, 0, text.stdout + text.stderr);
  assert.match(text.stdout, new RegExp(`${promoted.body.handle}\\b.*origin superseded`), text.stdout);
  assert.match(text.stdout, /origin project .*superseded it by S-\d+/, text.stdout);
});

test("engine: the review queue of another project lists the flagged hive lesson too (the decision is for the hive); a person approving it (keep) takes it off", async () => {
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env, actor: "human:alice" });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env, actor: "human:bob" });
  try {
    const added = await a.add({ lesson: OLD, category: "tooling" });
    const promoted = await a.promote({ id: added.id! });
    await a.supersede(added.id!, { lesson: NEW, category: "tooling" });
    const queue = await b.reviewQueue();
    const item = queue.items.find((i) => i.entry.id === promoted.id);
    assert.ok(item?.reasons.some((r) => r.kind === "origin_superseded"), JSON.stringify(queue.items.map((i) => [i.entry.handle, i.reasons])));
    // A person of another project keeps it for the hive: approving it settles the note.
    const kept = await b.approve(promoted.id!);
    assert.ok(!kept.entry.lifecycle.flags.some((f) => f.startsWith("origin-superseded:")), kept.entry.lifecycle.flags.join("; "));
    assert.ok(!(await b.reviewQueue()).items.some((i) => i.entry.id === promoted.id), "kept: off the queue");
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
});

test("engine, team hive on PostgreSQL: the review queue lists the hive lesson its origin project superseded", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("originsup");
  const box = makeSandbox();
  const config = { hive_url: url, hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 } };
  const a = await openCairn({ projectDir: addProject(box, "alpha"), env: box.env, actor: "human:alice", config });
  try {
    const added = await a.add({ lesson: OLD, category: "tooling" });
    const promoted = await a.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    const before = await a.reviewQueue();
    assert.ok(!before.items.some((i) => i.entry.id === promoted.id));
    await a.supersede(added.id!, { lesson: NEW, category: "tooling" });
    const queue = await a.reviewQueue();
    const item = queue.items.find((i) => i.entry.id === promoted.id);
    assert.ok(item?.reasons.some((r) => r.kind === "origin_superseded"), JSON.stringify(queue.items.map((i) => [i.entry.handle, i.reasons])));
    assert.equal(queue.counts.origin_superseded, 1);
  } finally {
    await a.close();
    await dropSchema(url, schema);
    removeSandbox(box);
  }
});
