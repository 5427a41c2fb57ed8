// Seed 003's memory-catcher on the paths agents really touch: deep trees, long folder names, route folders, dot segments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withWorld, GOOD_RUN } from "./helpers.js";

const EVALUATION = "Always validate the session token before reading the user id from the request.";

test("regression: a touched file deep in the tree (its folder over 200 characters) still leaves its lesson, scoped to a folder that fits", async () => {
  await withWorld(async ({ cairn }) => {
    const deep = `src/auth/${Array.from({ length: 45 }, (_, i) => `level${i}`).join("/")}/token.ts`;
    await cairn.recordOutcome({ id: "deep-1", task: "harden token checks", ...GOOD_RUN, evaluation: EVALUATION, files_touched: [deep] });
    const r = await cairn.reflect();
    assert.equal(r.dead + r.failed, 0, `the outcome failed: ${JSON.stringify((await cairn.queue("pending")).items.map((i) => i.last_error))}`);
    assert.equal(r.lessons_added, 1);
    const [e] = await cairn.list({ tier: "swarm" });
    assert.ok(e!.applicability.file_globs.length > 0 && e!.applicability.file_globs.every((g) => g.length <= 200 && deep.startsWith(g.replace(/\*\*$/, ""))), JSON.stringify(e!.applicability.file_globs));
  });
});

test("regression: a touched file in a folder whose name is longer than an entity may be still leaves its lesson", async () => {
  await withWorld(async ({ cairn }) => {
    const long = `src/${"authentication_and_session_management_".repeat(2)}module/token.ts`;
    await cairn.recordOutcome({ id: "long-1", task: "harden token checks", ...GOOD_RUN, evaluation: EVALUATION, files_touched: [long, "src/billing/x.ts"] });
    const r = await cairn.reflect();
    assert.equal(r.dead + r.failed, 0, `the outcome failed: ${JSON.stringify((await cairn.queue("pending")).items.map((i) => i.last_error))}`);
    assert.equal(r.lessons_added, 1);
    const [e] = await cairn.list({ tier: "swarm" });
    assert.ok(e!.entities.includes("feature:billing"), JSON.stringify(e!.entities));
  });
});

test("regression: a lesson from files in folders named with glob characters (app/[id]/, app/[...slug]/, {a,b}/) comes back for those files", async () => {
  await withWorld(async ({ cairn }) => {
    const files = ["app/[id]/page.tsx", "app/[...slug]/page.tsx", "src/{legacy,next}/x.ts", "src/a+(b)/y.ts", "src/what?/z.ts"];
    await cairn.recordOutcome({ id: "route-1", task: "harden token checks", ...GOOD_RUN, evaluation: EVALUATION, files_touched: files });
    assert.equal((await cairn.reflect()).lessons_added, 1);
    const [e] = await cairn.list({ tier: "swarm" });
    const { anyGlobMatcher } = await import("../../src/core/globs.js");
    for (const f of files) assert.ok(anyGlobMatcher(e!.applicability.file_globs)(f), `${f} is not matched by ${JSON.stringify(e!.applicability.file_globs)}`);
    // Literal: the folder [id] is not the class of "i" or "d".
    assert.equal(anyGlobMatcher(e!.applicability.file_globs)("app/i/page.tsx"), false);
  });
});

test("regression: dot segments in touched paths name no project '.' or '..' and scope the lesson to the folder the file is really in", async () => {
  await withWorld(async ({ cairn }) => {
    const files = ["packages/./billing/src/invoice.ts", "src/auth/../session/store.ts", "packages/../tools/x.ts"];
    await cairn.recordOutcome({ id: "dots-1", task: "harden token checks", ...GOOD_RUN, evaluation: EVALUATION, files_touched: files });
    assert.equal((await cairn.reflect()).lessons_added, 1);
    const [e] = await cairn.list({ tier: "swarm" });
    assert.deepEqual([...e!.entities].sort(), ["feature:session", "project:billing"]);
    assert.deepEqual([...e!.applicability.file_globs].sort(), ["packages/billing/src/**", "src/session/**", "tools/**"]);
  });
});

test("regression: folders named in other scripts (src/認証/, src/Zahlung/, packages/über-app/, macOS's decomposed Ü) give their entities like ASCII ones", async () => {
  const { entitiesFromPaths } = await import("../../src/learning/extract.js");
  assert.deepEqual(entitiesFromPaths(["src/認証/token.ts"]), ["feature:認証"]);
  assert.deepEqual(entitiesFromPaths(["packages/über-app/src/Zahlung/x.ts"]), ["project:über-app", "feature:zahlung"]);
  // A path from macOS's file system comes decomposed (U + combining diaeresis): the same entity as typed.
  assert.deepEqual(entitiesFromPaths(["src/U\u0308bersicht/x.ts"]), ["feature:übersicht"]);
});

test("regression: a touched file outside the project given by its absolute path (/tmp/scratch/…, /opt/…) scopes the lesson to no folder", async () => {
  await withWorld(async ({ cairn, sb }) => {
    const inside = `${sb.projectDir}/src/session/store.ts`;
    await cairn.recordOutcome({ id: "abs-1", task: "harden token checks", ...GOOD_RUN, evaluation: EVALUATION, files_touched: ["/tmp/scratch-cairn/notes/x.ts", "/opt/vendor/lib/y.ts", inside] });
    assert.equal((await cairn.reflect()).lessons_added, 1);
    const [e] = await cairn.list({ tier: "swarm" });
    // Read as the project's tmp/scratch-cairn/ and opt/vendor/ folders (a leading slash anchors a glob at the root), they named folders the file is not in.
    assert.deepEqual(e!.applicability.file_globs, ["src/session/**"]);
  });
});
