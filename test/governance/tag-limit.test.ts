// A tag's length limit holds for the tag as stored (lower-cased): `İ` lower-cases to two code units.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openCairn } from "../../src/index.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const LESSON = "Run the database migrations before starting the integration test server, or the first request fails on a missing column.";
/** 60 code units as typed, 61 once lower-cased ("İ" → "i̇"). */
const GROWS_PAST = "a".repeat(59) + "İ";
/** 60 code units once lower-cased. */
const FITS = "a".repeat(58) + "İ";

test("a tag at the limit that grows past it when lower-cased is refused when added, not stored over the limit", async () => {
  const sb = makeSandbox("tag-limit");
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:alice" });
  try {
    const refused = await cairn.add({ lesson: LESSON, category: "tooling", tags: [GROWS_PAST] });
    assert.equal(refused.action, "rejected", JSON.stringify(refused));
    assert.match(refused.reason ?? "", /tags.*60/);
    const ok = await cairn.add({ lesson: LESSON, category: "tooling", tags: [FITS] });
    const stored = (await cairn.list()).find((e) => e.id === ok.id)!;
    assert.deepEqual(stored.tags, [FITS.toLowerCase()]);
    assert.ok(stored.tags[0]!.length <= 60);
    // The stored tag passes the gates again: an edit of the lesson text goes through.
    const edited = await cairn.edit(ok.id!, { lesson: LESSON.replace("first request", "first API request") });
    assert.deepEqual(edited.changed, ["lesson"]);
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});

test("a lesson stored with a tag over the limit (written before the check moved) can still be edited", async () => {
  const sb = makeSandbox("tag-limit-stored");
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:alice" });
  try {
    const added = await cairn.add({ lesson: LESSON, category: "tooling", tags: ["db", "migrations"] });
    const store = new SqliteStore(path.join(sb.projectDir, ".swarm", "cairn.db"), "swarm");
    await store.updateEntry(added.id!, (e) => ({ ...e, tags: ["db", GROWS_PAST.toLowerCase()] }), { type: "updated", actor: "test" });
    await store.close();
    const edited = await cairn.edit(added.id!, { lesson: LESSON.replace("first request", "first API request") });
    assert.deepEqual(edited.changed, ["lesson"]);
    assert.deepEqual(edited.entry.tags, ["db", GROWS_PAST.toLowerCase()], "the stored tag is kept as it was");
    // A new tag over the limit is still refused beside it.
    await assert.rejects(cairn.edit(added.id!, { tags: ["db", GROWS_PAST.toLowerCase(), "b".repeat(59) + "İ"] }), /60/);
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});
