// Two projects sharing one hive: swarm entries stay in their project; hive entries are shared and carry their source.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";

const A_LESSONS = [
  "The zephyrquartz importer in alpha truncates CSV headers longer than 64 bytes; validate header width first.",
  "Alpha's zephyrquartz cache must be flushed after a schema migration or stale rows leak into reports.",
];
const B_LESSONS = [
  "The moonbadger scheduler in beta double-fires jobs when the clock jumps; store the last run time in UTC.",
];
const SHARED_TEXT = "Pin the Node major version in CI with an .nvmrc file so local and CI builds use the same runtime.";

async function openBoth(sb: Sandbox): Promise<{ a: Cairn; b: Cairn }> {
  const a = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
  const b = await openCairn({ projectDir: addProject(sb, "project-b"), hivePath: sb.hivePath, env: sb.env });
  return { a, b };
}

test("a project's swarm entries are invisible to another project on the same hive", async () => {
  const sb = makeSandbox("project-a");
  const { a, b } = await openBoth(sb);
  try {
    assert.notEqual(a.project.id, b.project.id);
    assert.notEqual(a.swarmPath, b.swarmPath);
    assert.equal(a.hivePath, b.hivePath);
    const aIds: string[] = [];
    for (const lesson of A_LESSONS) {
      const r = await a.add({ lesson, category: "debugging" });
      assert.equal(r.action, "added");
      aIds.push(r.id!);
    }
    for (const lesson of B_LESSONS) assert.equal((await b.add({ lesson, category: "process" })).action, "added");

    // A sees its own (so the query itself is fine) …
    assert.equal((await a.recall("zephyrquartz importer cache")).length, 2);
    // … and B sees none of it, by any route.
    assert.deepEqual(await b.recall("zephyrquartz importer cache"), []);
    assert.deepEqual(await b.recall("zephyrquartz", { tier: "all", statuses: ["candidate", "established", "archived", "quarantined"] }), []);
    const bList = await b.list({ tier: "all", limit: 1000 });
    assert.equal(bList.length, 1);
    assert.ok(bList.every((e) => !e.lesson.includes("zephyrquartz")));
    const injected = await b.inject({ task: "fix the zephyrquartz importer cache", files: ["src/zephyrquartz/importer.ts"] });
    assert.ok(!injected.text.includes("zephyrquartz"), injected.text);
    for (const id of aIds) {
      await assert.rejects(b.get(id), (e: Error & { code?: string }) => e.code === "NOT_FOUND");
      await assert.rejects(b.remove(id), (e: Error & { code?: string }) => e.code === "NOT_FOUND");
    }
    // A's handles (S-1, S-2) mean B's own rows in B, never A's.
    const bFirst = await b.get("S-1");
    assert.equal(bFirst.lesson, B_LESSONS[0]);
    await assert.rejects(b.get("S-2"), (e: Error & { code?: string }) => e.code === "NOT_FOUND");
  } finally {
    await a.close();
    await b.close();
    removeSandbox(sb);
  }
});

test("the same lesson in two projects is two swarm entries, not a cross-project merge", async () => {
  const sb = makeSandbox("project-a");
  const { a, b } = await openBoth(sb);
  try {
    const ra = await a.add({ lesson: SHARED_TEXT, category: "tooling" });
    const rb = await b.add({ lesson: SHARED_TEXT, category: "tooling" });
    assert.equal(ra.action, "added");
    assert.equal(rb.action, "added");
    assert.notEqual(ra.id, rb.id);
    assert.equal((await a.get(ra.id!)).provenance.source_project_id, a.project.id);
    assert.equal((await b.get(rb.id!)).provenance.source_project_id, b.project.id);
  } finally {
    await a.close();
    await b.close();
    removeSandbox(sb);
  }
});

test("hive entries are shared between projects and carry their source project name", async () => {
  const sb = makeSandbox("project-a");
  const { a, b } = await openBoth(sb);
  try {
    const local = await a.add({ lesson: "Alpha keeps its wombatflux feature flags in flags.yaml; edit that file, not the database rows.", category: "tooling" });
    const promoted = await a.promote({ lesson: { lesson: SHARED_TEXT, category: "tooling" } });
    assert.equal(promoted.action, "added");
    assert.equal(promoted.tier, "hive");

    const hits = await b.recall("pin node version nvmrc CI runtime");
    const hit = hits.find((h) => h.entry.id === promoted.id);
    assert.ok(hit, "B recalls A's hive entry");
    assert.equal(hit.tier, "hive");
    assert.equal(hit.entry.provenance.source_project_name, "project-a");
    assert.equal(hit.entry.provenance.source_project_id, a.project.id);
    assert.equal((await b.get(promoted.id!)).id, promoted.id);

    const block = await b.inject({ task: "set up CI to pin the node version with nvmrc", lastMessage: "CI runtime differs from local" });
    assert.ok(block.entries.some((e) => e.id === promoted.id), block.text);
    assert.match(block.text, /hive from project-a/);

    // Hive sharing never drags the swarm entry along.
    await assert.rejects(b.get(local.id!), (e: Error & { code?: string }) => e.code === "NOT_FOUND");
    assert.deepEqual((await b.recall("wombatflux flags")).map((h) => h.entry.id), []);
  } finally {
    await a.close();
    await b.close();
    removeSandbox(sb);
  }
});
