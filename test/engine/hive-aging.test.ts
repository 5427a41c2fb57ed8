// Issue 11 item 1: the hive's aging rule — no project's phases age it; an established hive lesson follows you everywhere.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const LESSON = "Pin the Node major version in an .nvmrc file so local shells and CI build with the same runtime.";

test("regression 11.1: a hive lesson established by three projects survives 12 phase completions in one of them; a fourth project recalls it", async () => {
  const sb = makeSandbox();
  const open: Cairn[] = [];
  const project = async (name: string) => {
    const c = await openCairn({ projectDir: addProject(sb, name), hivePath: sb.hivePath, env: sb.env });
    open.push(c);
    return c;
  };
  try {
    const [a, b, c] = [await project("alpha"), await project("beta"), await project("gamma")];
    const first = await a.add({ lesson: LESSON, category: "tooling" }, { tier: "hive" });
    assert.equal(first.action, "added", first.reason);
    for (const other of [b, c]) assert.equal((await other.add({ lesson: LESSON, category: "tooling" }, { tier: "hive" })).action, "reinforced");
    assert.equal((await a.get(first.id!)).lifecycle.status, "established");
    // An ordinary project lesson beside it still ages and expires: the TTL itself is unchanged.
    const local = await a.add({ lesson: "Seed the currency table before the invoice tests or totals round to zero.", category: "testing" });

    let archivedHive: string[] = [];
    for (let phase = 1; phase <= 12; phase++) {
      const report = await a.completePhase(`phase-${phase}`);
      archivedHive.push(...(report.sweep.find((r) => r.tier === "hive")?.archived ?? []));
    }
    assert.deepEqual(archivedHive, []);
    const hive = await a.get(first.id!);
    assert.equal(hive.lifecycle.status, "established");
    assert.equal(hive.lifecycle.phases_alive, 0, "one project's phases do not age the hive");
    assert.equal((await a.get(local.id!)).lifecycle.status, "archived");

    const d = await project("delta");
    const hits = await d.recall("pin the node version in .nvmrc for CI builds");
    assert.deepEqual(hits.map((h) => h.entry.id), [first.id]);
    const block = await d.inject({ task: "Set up the CI build with the same Node runtime as local shells" }, { recordShown: false });
    assert.ok(block.entries.some((e) => e.id === first.id), block.text);
  } finally {
    for (const c of open) await c.close();
    removeSandbox(sb);
  }
});

test("the hive ages only by lack of use across projects: an unused auto-generated candidate is archived, an established lesson never by a machine", async () => {
  const sb = makeSandbox();
  const a = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { knowledge: { auto_archive_min_shown: 3 } } });
  const b = await openCairn({ projectDir: addProject(sb, "beta"), hivePath: sb.hivePath, env: sb.env });
  const c = await openCairn({ projectDir: addProject(sb, "gamma"), hivePath: sb.hivePath, env: sb.env });
  try {
    const candidate = await a.add({ lesson: "Warm the Gradle daemon in the CI image so the first build does not pay its start-up.", category: "tooling", auto_generated: true }, { tier: "hive" });
    const established = await a.add({ lesson: LESSON, category: "tooling", auto_generated: true }, { tier: "hive" });
    for (const other of [b, c]) await other.add({ lesson: LESSON, category: "tooling" }, { tier: "hive" });
    assert.equal((await a.get(established.id!)).lifecycle.status, "established");
    const hive = a["services"].hive!;
    for (let i = 0; i < 4; i++) await hive.recordUsage([candidate.id!, established.id!], "shown", "test");

    const report = await a.completePhase("p1");
    assert.deepEqual(report.sweep.find((r) => r.tier === "hive")!.archived_unused, [candidate.id]);
    assert.equal((await a.get(candidate.id!)).lifecycle.status, "archived");
    assert.equal((await a.get(established.id!)).lifecycle.status, "established");
  } finally {
    for (const x of [a, b, c]) await x.close();
    removeSandbox(sb);
  }
});
