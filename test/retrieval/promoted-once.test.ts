// Issue 11 item 3: a lesson held by both tiers (promoted, or learned in each) is injected and recalled once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { withWorld } from "./helpers.js";

const PRISMA = "Run prisma generate after every change to schema.prisma, or the build uses a stale client and fails type checks.";
const OTHERS = [
  "Prisma migrate deploy must run before the app starts in the release container.",
  "Share one Prisma client per process; each instance opens its own connection pool.",
];
const CTX = { task: "Change schema.prisma and run prisma generate for the architect", agent: "architect" };

const mentions = (text: string, needle: string) => text.split(needle).length - 1;

test("regression 11.3: right after promote --from-swarm, the block and recall hold the lesson once (the hive copy)", async () => {
  await withWorld(async ({ cairn }) => {
    const added = await cairn.add({ lesson: PRISMA, category: "tooling" });
    for (const lesson of OTHERS) await cairn.add({ lesson, category: "tooling" });
    const promoted = await cairn.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    assert.equal((await cairn.get(added.id!)).lifecycle.status, "promoted");

    const block = await cairn.inject(CTX, { recordShown: false });
    assert.equal(mentions(block.text, "prisma generate after every change"), 1, block.text);
    const prisma = block.entries.filter((e) => e.id === added.id || e.id === promoted.id);
    // The hive copy carries every project's confirmations and feedback from now on; the project copy is its record of origin.
    assert.deepEqual(prisma.map((e) => e.id), [promoted.id]);
    assert.ok(block.entries.length >= 2, "the other lessons still fill the block");

    const hits = await cairn.recall(CTX.task);
    assert.deepEqual(hits.filter((h) => h.entry.lesson.includes("prisma generate after every")).map((h) => h.entry.id), [promoted.id]);
    const raw = await cairn.recall(CTX.task, { diverse: false });
    assert.equal(raw.filter((h) => h.entry.lesson.includes("prisma generate after every")).length, 1);
  });
});

test("regression 11.3: the same lesson learned separately in the hive and in this project is shown once", async () => {
  const sb = makeSandbox();
  const other = await openCairn({ projectDir: addProject(sb, "project-b"), hivePath: sb.hivePath, env: sb.env });
  const here = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
  try {
    const hive = await other.add({ lesson: PRISMA, category: "tooling" }, { tier: "hive" });
    assert.equal(hive.action, "added", hive.reason);
    // Reworded here, with no lineage to the hive entry: only the text says it is the same lesson.
    const local = await here.add({ lesson: `Always ${PRISMA.charAt(0).toLowerCase()}${PRISMA.slice(1)}`, category: "tooling" });
    assert.equal(local.action, "added", local.reason);
    for (const lesson of OTHERS) await here.add({ lesson, category: "tooling" });

    const block = await here.inject(CTX, { recordShown: false });
    assert.equal(mentions(block.text, "prisma generate after every change"), 1, block.text);
    const hits = await here.recall(CTX.task);
    assert.equal(hits.filter((h) => h.entry.lesson.includes("prisma generate after every")).length, 1);

    // Lessons that differ in a meaningful value are two lessons, in whichever tiers: both still appear.
    const retry = (n: number) => `Retry the prisma engine download ${n} times in CI; the mirror drops connections under load.`;
    assert.equal((await other.add({ lesson: retry(3), category: "tooling" }, { tier: "hive" })).action, "added");
    assert.equal((await here.add({ lesson: retry(10), category: "tooling" })).action, "added");
    const both = await here.recall("retry the prisma engine download in CI");
    assert.deepEqual(both.filter((h) => h.entry.lesson.startsWith("Retry the prisma engine")).map((h) => h.tier).sort(), ["hive", "swarm"]);
  } finally {
    await other.close();
    await here.close();
    removeSandbox(sb);
  }
});
