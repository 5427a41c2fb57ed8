// Quarantining or archiving a promoted lesson — its hive copy or its project original — retires both; restoring either brings both back.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { withCairn } from "../helpers/engine.js";
import { sandbox } from "../helpers/cli.js";
import { openCairn } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const LESSON = "Run the database migrations inside one transaction so a failed step leaves the schema unchanged.";
const TASK = { task: "Write the database migrations for the new schema so a failed step leaves it unchanged" };

test("engine: a person quarantining H-n quarantines this project's S-n it was promoted from; restoring H-n restores S-n as promoted", async () => {
  await withCairn(async (c) => {
    const added = await c.add({ lesson: LESSON, category: "architecture" });
    assert.equal(added.action, "added", added.reason);
    const promoted = await c.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    assert.equal((await c.get(added.id!)).lifecycle.status, "promoted");

    const q = await c.quarantine(promoted.id!, "wrong for our driver", "human:alice");
    assert.equal(q.lifecycle.status, "quarantined");
    const original = await c.get(added.id!);
    assert.equal(original.lifecycle.status, "quarantined", "the project original is hidden with its hive copy");
    assert.match(original.lifecycle.status_reason ?? "", new RegExp(q.handle));
    const history = await c.history(added.id!);
    assert.ok(history.some((ev) => ev.type === "quarantined" && ev.data.hive_id === promoted.id), JSON.stringify(history));
    const block = await c.inject(TASK, { recordShown: false });
    assert.ok(!block.entries.some((e) => e.id === added.id || e.id === promoted.id), block.text);

    const r = await c.restore(promoted.id!, "human:alice");
    assert.notEqual(r.lifecycle.status, "quarantined");
    assert.equal((await c.get(added.id!)).lifecycle.status, "promoted", "the original is back as the record of its promotion");
    const again = await c.inject(TASK, { recordShown: false });
    assert.ok(again.entries.some((e) => e.id === promoted.id), again.text);
  });
});

test("engine: quarantined from another project, the hive copy's original is no longer injected where it was promoted; restored, it is again", async () => {
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env });
  try {
    const added = await a.add({ lesson: LESSON, category: "architecture" });
    const promoted = await a.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    await b.quarantine(promoted.id!, "wrong for every driver", "human:bob");
    const block = await a.inject(TASK, { recordShown: false });
    assert.ok(!block.entries.some((e) => e.id === added.id || e.id === promoted.id), block.text);
    assert.ok(!(await a.recall(TASK.task)).some((h) => h.entry.id === added.id));
    await b.restore(promoted.id!, "human:bob");
    const again = await a.inject(TASK, { recordShown: false });
    assert.ok(again.entries.some((e) => e.id === promoted.id), again.text);
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
});

const sb = sandbox();
after(() => sb.cleanup());

test("cli: `cairn quarantine H-n` says the project original went with it; `cairn restore H-n` brings both back", async () => {
  const p = sb.project("lineage");
  const added = await sb.json(p, "add", LESSON, "--category", "architecture");
  assert.equal(added.body.action, "added", added.stderr);
  const promoted = await sb.json(p, "promote", "--from-swarm", added.body.handle);
  assert.equal(promoted.code, 0, promoted.stderr);
  const q = await sb.run(p, "quarantine", promoted.body.handle, "wrong for our driver");
  assert.equal(q.code, 0, q.stderr);
  assert.match(q.stdout, new RegExp(`${added.body.handle}\\b`));
  const shown = await sb.json(p, "show", added.body.handle);
  assert.match(JSON.stringify(shown.body), /"status":"quarantined"/);
  const r = await sb.json(p, "restore", promoted.body.handle);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.body.also?.map((a: { handle: string }) => a.handle), [added.body.handle]);
  const back = await sb.json(p, "show", added.body.handle);
  assert.match(JSON.stringify(back.body), /"status":"promoted"/);
});

test("engine: a person quarantining the promoted S-n quarantines its hive copy too — the same lesson no longer reaches any agent, here or elsewhere; restoring S-n brings both back", async () => {
  // Seed 000: a quarantined lesson must not influence prompts; after a promotion agents read the hive copy, not the original.
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env });
  try {
    const added = await a.add({ lesson: LESSON, category: "architecture" });
    const promoted = await a.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    const q = await a.quarantine(added.id!, "wrong for our driver", "human:alice");
    assert.equal(q.lifecycle.status, "quarantined");
    assert.deepEqual(q.also?.map((x) => x.id), [promoted.id], "the hive copy went with its original");
    assert.equal((await a.get(promoted.id!)).lifecycle.status, "quarantined");
    for (const c of [a, b]) {
      const block = await c.inject(TASK, { recordShown: false });
      assert.ok(!block.entries.some((e) => e.id === added.id || e.id === promoted.id), block.text);
      assert.ok(!(await c.recall(TASK.task)).some((h) => h.entry.id === promoted.id || h.entry.id === added.id));
    }
    const r = await a.restore(added.id!, "human:alice");
    assert.equal(r.lifecycle.status, "promoted", "the original comes back as the record of its promotion");
    assert.notEqual((await a.get(promoted.id!)).lifecycle.status, "quarantined");
    assert.ok((await b.inject(TASK, { recordShown: false })).entries.some((e) => e.id === promoted.id));
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
});

test("cli: `cairn quarantine S-n` of a promoted lesson names its hive copy as gone with it, and `cairn recall` finds neither", async () => {
  const p = sb.project("lineage-original");
  const added = await sb.json(p, "add", LESSON, "--category", "architecture");
  const promoted = await sb.json(p, "promote", "--from-swarm", added.body.handle);
  assert.equal(promoted.code, 0, promoted.stderr);
  const q = await sb.run(p, "quarantine", added.body.handle, "wrong for our driver");
  assert.equal(q.code, 0, q.stderr);
  assert.match(q.stdout, new RegExp(`its hive copy ${promoted.body.handle} \\(quarantined\\)`), q.stdout);
  const found = await sb.json(p, "recall", TASK.task);
  assert.ok(!JSON.stringify(found.body).includes(promoted.body.id ?? promoted.body.handle), JSON.stringify(found.body));
  const r = await sb.run(p, "restore", added.body.handle);
  assert.match(r.stdout, new RegExp(`restored ${added.body.handle} \\(promoted\\)\\n  and its hive copy ${promoted.body.handle} \\(candidate\\)`), r.stdout);
});

test("engine: archiving a promoted lesson — its hive copy or its project original — retires both, so neither is recalled or injected; restoring either brings both back", async () => {
  // Seed 000: archived entries must never be recalled; after a promotion the original and its hive copy are one lesson.
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env });
  const gone = async (ids: string[]) => {
    for (const c of [a, b]) {
      const block = await c.inject(TASK, { recordShown: false });
      assert.ok(!block.entries.some((e) => ids.includes(e.id)), block.text);
      assert.ok(!(await c.recall(TASK.task)).some((h) => ids.includes(h.entry.id)));
    }
  };
  try {
    const added = await a.add({ lesson: LESSON, category: "architecture" });
    const promoted = await a.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    const ids = [added.id!, promoted.id!];

    const viaCopy = await a.archive(promoted.id!, "not true", "human:alice");
    assert.deepEqual(viaCopy.also?.map((x) => x.id), [added.id]);
    assert.equal((await a.get(added.id!)).lifecycle.status, "archived");
    await gone(ids);
    await a.restore(promoted.id!, "human:alice");
    assert.equal((await a.get(added.id!)).lifecycle.status, "promoted");

    const viaOriginal = await a.archive(added.id!, "not true", "human:alice");
    assert.equal(viaOriginal.lifecycle.status, "archived");
    assert.equal((await a.get(promoted.id!)).lifecycle.status, "archived", "the hive copy went with its original");
    await gone(ids);
    const back = await a.restore(added.id!, "human:alice");
    assert.equal(back.lifecycle.status, "promoted");
    assert.ok((await b.inject(TASK, { recordShown: false })).entries.some((e) => e.id === promoted.id));
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
});

test("engine: superseding a hive copy supersedes this project's promoted original too, so the replaced text is not recalled where it was learned; restoring the copy brings both back", async () => {
  // Seed 000 / 004: a superseded lesson is never recalled or injected; the original is the same lesson as its copy.
  await withCairn(async (c) => {
    const added = await c.add({ lesson: LESSON, category: "architecture" });
    const promoted = await c.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    const { old, replacement } = await c.supersede(
      promoted.id!,
      { lesson: "Run the database migrations inside one transaction per file, so a failed step leaves that file's schema unchanged.", category: "architecture" },
      "human:alice",
    );
    assert.equal(old.lifecycle.status, "superseded");
    const original = await c.get(added.id!);
    assert.equal(original.lifecycle.status, "superseded", "the project original went with its hive copy");
    assert.equal(original.lifecycle.superseded_by, replacement.id);
    const block = await c.inject(TASK, { recordShown: false });
    assert.ok(!block.entries.some((e) => e.id === added.id || e.id === promoted.id), block.text);
    assert.ok(!(await c.recall(TASK.task)).some((h) => h.entry.id === added.id || h.entry.id === promoted.id));
    await c.restore(promoted.id!, "human:alice");
    const back = await c.get(added.id!);
    assert.equal(back.lifecycle.status, "promoted");
    assert.equal(back.lifecycle.superseded_by, undefined);
    // Superseded again, then undone from the original's side: the copy comes back, unlinked from its replacement.
    const again = await c.supersede(promoted.id!, replacement.id, "human:alice");
    assert.equal(again.old.lifecycle.status, "superseded");
    assert.equal((await c.get(added.id!)).lifecycle.status, "superseded");
    const viaOriginal = await c.restore(added.id!, "human:alice");
    assert.equal(viaOriginal.lifecycle.status, "promoted");
    assert.notEqual((await c.get(promoted.id!)).lifecycle.status, "superseded");
    assert.equal((await c.get(replacement.id)).lifecycle.supersedes, undefined);
  });
});

test("engine: superseded from another project, the hive copy's original is no longer recalled where it was promoted; its replacement is", async () => {
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env });
  try {
    const added = await a.add({ lesson: LESSON, category: "architecture" });
    const promoted = await a.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    const { replacement } = await b.supersede(
      promoted.id!,
      { lesson: "Give every database migration a down script and test it in CI before the schema change ships.", category: "architecture" },
      "human:bob",
    );
    const block = await a.inject(TASK, { recordShown: false });
    assert.ok(!block.entries.some((e) => e.id === added.id || e.id === promoted.id), block.text);
    const hits = await a.recall(TASK.task);
    assert.ok(!hits.some((h) => h.entry.id === added.id), hits.map((h) => h.entry.lesson).join("\n"));
    assert.ok(hits.some((h) => h.entry.id === replacement.id), hits.map((h) => h.entry.lesson).join("\n"));
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
});

const ESLINT = "Run eslint with --max-warnings 0 in CI so new warnings fail the build";
const ESLINT_NEW = "Run eslint with --max-warnings 0 and --cache in CI so new warnings fail the build fast";

test("engine: superseding a promoted original leaves its hive copy out of this project's recall and inject, flags it for a person, and keeps it for other projects", async () => {
  const box = makeSandbox();
  const a = await openCairn({ projectDir: addProject(box, "alpha"), hivePath: box.hivePath, env: box.env });
  const b = await openCairn({ projectDir: addProject(box, "beta"), hivePath: box.hivePath, env: box.env });
  try {
    const added = await a.add({ lesson: ESLINT, category: "tooling" });
    const promoted = await a.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    const { replacement } = await a.supersede(added.id!, { lesson: ESLINT_NEW, category: "tooling" }, "human:alice");
    const task = { task: "eslint max-warnings CI build" };
    const hits = await a.recall(task.task);
    assert.ok(!hits.some((h) => h.entry.id === promoted.id), hits.map((h) => `${h.entry.handle} ${h.entry.lesson}`).join("\n"));
    assert.ok(hits.some((h) => h.entry.id === replacement.id), hits.map((h) => h.entry.lesson).join("\n"));
    const block = await a.inject(task, { recordShown: false });
    assert.ok(!block.entries.some((e) => e.id === promoted.id), block.text);
    const copy = await a.get(promoted.id!);
    assert.notEqual(copy.lifecycle.status, "superseded", "the hive copy stays for every other project");
    assert.ok(copy.lifecycle.flags.some((f) => f.includes("origin project") && f.includes(replacement.handle)), copy.lifecycle.flags.join("; "));
    assert.ok((await b.recall(task.task)).some((h) => h.entry.id === promoted.id), "another project still recalls the hive lesson");
    await a.restore(added.id!, "human:alice");
    assert.deepEqual((await a.get(promoted.id!)).lifecycle.flags, [], "restoring the original takes the flag back");
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
});

test("cli: `cairn supersede S-n` of a promoted lesson: `cairn recall` ranks the replacement, not the old hive copy; `cairn show H-m` says the origin superseded it", async () => {
  const p = sb.project("lineage-supersede-original");
  const added = await sb.json(p, "add", ESLINT);
  assert.equal(added.body.action, "added", added.stderr);
  const promoted = await sb.json(p, "promote", "--from-swarm", added.body.handle);
  assert.equal(promoted.code, 0, promoted.stderr);
  const sup = await sb.json(p, "supersede", added.body.handle, ESLINT_NEW);
  assert.equal(sup.code, 0, sup.stderr);
  const found = await sb.json(p, "recall", "eslint max-warnings CI build");
  const text = JSON.stringify(found.body);
  assert.ok(!text.includes(`"${promoted.body.handle}"`), text);
  assert.ok(text.includes("--cache"), text);
  const shown = await sb.run(p, "show", promoted.body.handle);
  assert.match(shown.stdout, /origin project .*superseded it by S-\d+/, shown.stdout);
});

const CSP = "Set a Content-Security-Policy header with nonces on every HTML response in server/headers.ts";

test("engine: a hive copy a person archived from another project takes its promoted original out of recall where it was promoted; one the sweep archived for lack of use does not", async () => {
  const box = makeSandbox();
  const config = { knowledge: { auto_archive_min_shown: 1 } };
  const a = await openCairn({ projectDir: addProject(box, "p16"), hivePath: box.hivePath, env: box.env, config });
  const b = await openCairn({ projectDir: addProject(box, "p17"), hivePath: box.hivePath, env: box.env, config });
  const task = "Content-Security-Policy header nonces HTML response";
  try {
    const added = await a.add({ lesson: CSP, category: "security" });
    const promoted = await a.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    await b.archive(promoted.id!, "wrong", "human:bob");
    const hits = await a.recall(task);
    assert.ok(!hits.some((h) => h.entry.id === added.id || h.entry.id === promoted.id), hits.map((h) => `${h.entry.handle} ${h.entry.lesson}`).join("\n"));
    assert.ok(!(await a.inject({ task }, { recordShown: false })).entries.some((e) => e.id === added.id));

    // The sweep's archive is no verdict: a lesson it archived for lack of use stays recalled where it was learned.
    const other = await a.add({ lesson: "Pin the Node version in .nvmrc and read it in the CI setup-node step so local and CI builds match", category: "tooling", auto_generated: true });
    const up = await a.promote({ id: other.id! });
    assert.equal(up.action, "added", up.reason);
    await b.inject({ task: "Node version nvmrc CI setup-node" }, { recordShown: true });
    await b.sweep();
    const swept = await b.get(up.id!);
    assert.equal(swept.lifecycle.status, "archived", JSON.stringify(swept.lifecycle));
    assert.ok((await a.recall("Node version nvmrc CI setup-node")).some((h) => h.entry.id === other.id || h.entry.id === up.id));
  } finally {
    await a.close();
    await b.close();
    removeSandbox(box);
  }
});
