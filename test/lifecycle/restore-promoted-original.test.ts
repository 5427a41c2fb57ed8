// Restoring a promoted project original a person superseded brings back the status it had: promoted, the record of its hive copy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withCairn } from "../helpers/engine.js";

const ESLINT = "Run eslint with --max-warnings 0 in CI so new warnings fail the build";
const ESLINT_NEW = "Run eslint with --max-warnings 0 and --cache in CI so new warnings fail the build fast";

test("engine: `restore S-n` of a superseded promoted original brings it back promoted (not candidate), its hive copy unflagged and listed for both", async () => {
  await withCairn(async (c) => {
    const added = await c.add({ lesson: ESLINT, category: "tooling" });
    const promoted = await c.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    const { replacement } = await c.supersede(added.id!, { lesson: ESLINT_NEW, category: "tooling" }, "human:alice");
    assert.equal((await c.get(added.id!)).lifecycle.status, "superseded");
    const back = await c.restore(added.id!, "human:alice");
    assert.equal(back.lifecycle.status, "promoted", "restore brings back the status it had before the supersede");
    assert.match(back.lifecycle.status_reason ?? "", new RegExp(promoted.id!));
    assert.equal(back.lifecycle.superseded_by, undefined);
    assert.equal((await c.get(replacement.id)).lifecycle.supersedes, undefined);
    assert.deepEqual((await c.get(promoted.id!)).lifecycle.flags, []);
    const listed = await c.listLessons({});
    assert.equal(listed.filter((l) => l.entry.id === added.id || l.entry.id === promoted.id).length, 1, "the pair is listed once again, as its hive copy");
  });
});

test("engine: a superseded promoted original whose hive copy a person removed meanwhile comes back as a project lesson (it may go up again)", async () => {
  await withCairn(async (c) => {
    const added = await c.add({ lesson: ESLINT, category: "tooling" });
    const promoted = await c.promote({ id: added.id! });
    await c.supersede(added.id!, { lesson: ESLINT_NEW, category: "tooling" }, "human:alice");
    await c.remove(promoted.id!, { force: true, actor: "human:alice" });
    const back = await c.restore(added.id!, "human:alice");
    assert.ok(["candidate", "established"].includes(back.lifecycle.status), back.lifecycle.status);
  });
});
