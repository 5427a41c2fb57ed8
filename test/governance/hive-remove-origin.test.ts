// An agent removes or archives a hive lesson only when its own project put it there; removing a hive copy retires this project's original with it, as archiving or quarantining it does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import { isCairnError } from "../../src/errors.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { tool } from "./helpers.js";

const LINT = "Run eslint with --max-warnings 0 in the CI build so new warnings fail the pipeline before review.";
const MIGRATE = "Set a lock_timeout before ALTER TABLE in migration files; an ALTER queued behind a long transaction blocked writes.";

/** Two projects on one hive file, each seen by its agent. */
async function twoProjects(fn: (alpha: Cairn, beta: Cairn, person: { alpha: Cairn; beta: Cairn }) => Promise<void>): Promise<void> {
  const box = makeSandbox();
  const open = (name: string, actor: string) => openCairn({ projectDir: addProject(box, name), hivePath: box.hivePath, env: box.env, actor });
  const opened = [await open("alpha", "agent:coder"), await open("beta", "agent:coder"), await open("alpha", "human:alice"), await open("beta", "human:bob")];
  try {
    await fn(opened[0]!, opened[1]!, { alpha: opened[2]!, beta: opened[3]! });
  } finally {
    for (const c of opened) await c.close();
    removeSandbox(box);
  }
}

async function promoteFrom(c: Cairn, lesson: string): Promise<{ original: string; hive: string }> {
  const added = await tool(c, "knowledge_add", { lesson, category: "tooling" });
  assert.equal(added.data.action, "added", added.text);
  const up = await tool(c, "knowledge_promote", { id: added.data.handle });
  assert.match(up.text, /added H-\d+ to the hive/, up.text);
  return { original: String(added.data.id), hive: String((up.data as { id: string }).id) };
}

test("an agent of another project may not remove a hive lesson promoted from this one: FORBIDDEN, asking a person; both stay as they were", async () => {
  await twoProjects(async (alpha, beta) => {
    const { original, hive } = await promoteFrom(alpha, LINT);
    const handle = (await beta.get(hive)).handle;
    await assert.rejects(tool(beta, "knowledge_remove", { id: handle, reason: "looks wrong" }), (e: unknown) => {
      assert.ok(isCairnError(e) && e.code === "FORBIDDEN", String(e));
      assert.match(e.message, new RegExp(`${handle} came from another project`));
      assert.match(e.message, /only a person/);
      assert.match(e.message, /knowledge_quarantine/);
      return true;
    });
    assert.equal((await beta.get(hive)).lifecycle.status, "candidate", "the hive lesson is still there");
    assert.equal((await alpha.get(original)).lifecycle.status, "promoted");
  });
});

test("an agent removing its own project's hive lesson retires the original it was promoted from, which stops being recalled; a person may restore it", async () => {
  await twoProjects(async (alpha, _beta, person) => {
    const { original, hive } = await promoteFrom(alpha, LINT);
    const handle = (await alpha.get(hive)).handle;
    const removed = await tool(alpha, "knowledge_remove", { id: handle, reason: "the pipeline no longer runs eslint" });
    assert.match(removed.text, new RegExp(`removed ${handle} from the hive tier`));
    await assert.rejects(alpha.get(hive), (e: unknown) => isCairnError(e) && e.code === "NOT_FOUND");
    const left = await alpha.get(original);
    assert.equal(left.lifecycle.status, "archived", "no longer promoted to a hive lesson that is gone");
    assert.match(left.lifecycle.status_reason ?? "", new RegExp(`its hive copy ${handle} was removed: the pipeline no longer runs eslint`));
    assert.match(removed.text, new RegExp(`${left.handle}`), "the answer names the original it took along");
    assert.ok(!(await alpha.recall("eslint max warnings CI pipeline")).some((h) => h.entry.id === original), "the original is not recalled");
    // A person brings it back as a project lesson (its copy is gone), which may go up again.
    const back = await person.alpha.restore(original);
    assert.notEqual(back.lifecycle.status, "promoted");
    assert.notEqual(back.lifecycle.status, "archived");
  });
});

test("an agent may remove a hive lesson its own project wrote there directly; a person of any project may remove another's", async () => {
  await twoProjects(async (alpha, beta, person) => {
    const direct = await tool(beta, "knowledge_add", { lesson: MIGRATE, category: "tooling", tier: "hive" });
    assert.equal(direct.data.action, "added", direct.text);
    const gone = await tool(beta, "knowledge_remove", { id: direct.data.handle });
    assert.match(gone.text, /removed H-\d+ from the hive tier/);

    const { hive } = await promoteFrom(alpha, LINT);
    const e = await person.beta.remove(hive, { reason: "wrong for every project" });
    assert.equal(e.id, hive);
  });
});

test("an agent of another project may not archive a hive lesson promoted from this one either (every project stopped seeing it); its own project's agent and a person may", async () => {
  await twoProjects(async (alpha, beta, person) => {
    const { original, hive } = await promoteFrom(alpha, LINT);
    const handle = (await beta.get(hive)).handle;
    await assert.rejects(tool(beta, "knowledge_archive", { id: handle, reason: "not used in this project" }), (e: unknown) => {
      assert.ok(isCairnError(e) && e.code === "FORBIDDEN", String(e));
      assert.match(e.message, new RegExp(`${handle} came from another project`));
      assert.match(e.message, /only a person can archive/);
      assert.match(e.message, /knowledge_quarantine/);
      return true;
    });
    assert.equal((await beta.get(hive)).lifecycle.status, "candidate", "the hive lesson is still there");
    assert.ok((await alpha.recall("eslint max warnings CI pipeline")).some((h) => h.entry.id === hive || h.entry.id === original), "alpha still recalls it");

    // A person of the other project decides for the hive; the lesson's own project's agent may retire it too.
    assert.equal((await person.beta.archive(hive, "wrong for every project")).lifecycle.status, "archived");
    await person.beta.restore(hive);
    const archived = await tool(alpha, "knowledge_archive", { id: handle, reason: "the pipeline no longer runs eslint" });
    assert.match(archived.text, new RegExp(`archived ${handle}`));
    assert.equal((await alpha.get(hive)).lifecycle.status, "archived");
  });
});
