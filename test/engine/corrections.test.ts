// Replacing a lesson with a better wording of itself: it works, and a supersede that fails changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

async function withCairn(fn: (c: Cairn) => Promise<void>): Promise<void> {
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
  try {
    await fn(cairn);
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
}

const OLD = "Run prisma generate after editing schema.prisma or the client is stale";
const REFINED = "Run prisma generate after every edit to prisma/schema.prisma, or the generated client is stale and queries fail";

test("supersede with a refined wording of the same lesson replaces it instead of failing", async () => {
  await withCairn(async (c) => {
    const old = await c.add({ lesson: OLD, category: "tooling" });
    assert.equal(old.action, "added");
    const before = await c.get(old.id!);
    const { old: retired, replacement } = await c.supersede(old.id!, { lesson: REFINED, category: "tooling" });
    assert.equal(retired.lifecycle.status, "superseded");
    assert.equal(retired.lifecycle.superseded_by, replacement.id);
    assert.notEqual(replacement.id, old.id);
    assert.equal(replacement.lesson, REFINED);
    assert.equal(replacement.lifecycle.supersedes, old.id);
    assert.equal(retired.lifecycle.confidence, before.lifecycle.confidence, "the old lesson was not reinforced on the way");
    assert.ok(!(await c.history(old.id!)).some((e) => e.type === "reinforced"));
    assert.deepEqual((await c.recall("prisma generate client stale")).map((h) => h.entry.id), [replacement.id]);
  });
});

test("a supersede that is refused leaves the old lesson exactly as it was", async () => {
  await withCairn(async (c) => {
    const old = await c.add({ lesson: OLD, category: "tooling" });
    const before = await c.get(old.id!);
    const eventsBefore = (await c.history(old.id!)).length;
    // The replacement carries a credential: the gate refuses it, and nothing else may change.
    await assert.rejects(
      c.supersede(old.id!, { lesson: `${REFINED}; the CI token is ghp_9aZ3kQ7mV1xR5tY8uW2pL6nB4cD0eF7gH2jK` }),
      (e: Error & { code?: string }) => e.code === "REJECTED",
    );
    const after = await c.get(old.id!);
    assert.equal(after.lifecycle.status, before.lifecycle.status);
    assert.equal(after.lifecycle.confidence, before.lifecycle.confidence);
    assert.equal((await c.history(old.id!)).length, eventsBefore);
  });
});

test("an entry already superseded cannot be superseded again: the links stay one chain", async () => {
  await withCairn(async (c) => {
    const old = await c.add({ lesson: OLD, category: "tooling" });
    const first = await c.supersede(old.id!, { lesson: REFINED });
    assert.equal(first.old.lifecycle.status, "superseded");
    const other = await c.add({ lesson: "Commit the generated Prisma client only in the docs example app, never in services/api.", category: "tooling" });
    const conflict = (e: Error & { code?: string }) => e.code === "CONFLICT" && e.message.includes(first.replacement.handle);
    await assert.rejects(c.supersede(old.id!, other.id!), conflict, "by an existing entry");
    await assert.rejects(c.supersede(old.id!, { lesson: "Run prisma generate in the postinstall script so a fresh clone never has a stale client." }), conflict, "by new text");
    const after = await c.get(old.id!);
    assert.equal(after.lifecycle.superseded_by, first.replacement.id);
    assert.equal((await c.get(other.id!)).lifecycle.supersedes, undefined);
    // A declared supersedes on add: the lesson is stored on its own, told why, and the chain is unchanged.
    const declared = await c.add({ lesson: "Run prisma generate from a git hook so the client never lags schema.prisma in anyone's clone.", category: "tooling", supersedes: old.id });
    assert.equal(declared.action, "added");
    assert.ok(declared.issues.some((i) => i.code === "already_superseded"), JSON.stringify(declared.issues));
    assert.equal((await c.get(declared.id!)).lifecycle.supersedes, undefined);
    assert.equal((await c.get(old.id!)).lifecycle.superseded_by, first.replacement.id);
  });
});

test("a near-duplicate add that brings structured fields the entry lacks says they were not applied, and how to apply them", async () => {
  await withCairn(async (c) => {
    const first = await c.add({ lesson: OLD, category: "tooling" });
    const again = await c.add({ lesson: OLD, category: "tooling", directive: { forbidden_actions: ["commit a stale generated client"] }, prevention: { rule: "Run prisma generate in postinstall." } });
    assert.equal(again.action, "reinforced");
    const note = again.issues.find((i) => i.code === "fields_not_merged");
    assert.ok(note, JSON.stringify(again.issues));
    assert.match(note.message, new RegExp(`${first.handle}.*prevention.*directive|${first.handle}.*directive.*prevention`));
    assert.match(note.message, /edit/);
    assert.deepEqual((await c.get(first.id!)).directive.forbidden_actions, [], "nothing merged silently");
    // A plain restatement brings nothing new: no note.
    const plain = await c.add({ lesson: OLD, category: "tooling", phase: "p9" });
    assert.ok(!plain.issues.some((i) => i.code === "fields_not_merged"));
  });
});

test("a decision phrased \"we chose X over Y\" is not superseded by a lesson that agrees with it (\"never Y; use X\")", async () => {
  // Seed 003 §6.2: DELETE (retire the old memory) is for a new memory that contradicts it; one that agrees must not retire it.
  await withCairn(async (c) => {
    const decision = await c.add({ lesson: "We chose Postgres advisory locks over Redis locks for the job scheduler leader election", category: "architecture", kind: "decision" });
    const agrees = await c.add({ lesson: "Never use Redis SETNX locks for leader election in the job scheduler; use Postgres advisory locks", category: "architecture", kind: "correction" });
    assert.notEqual(agrees.action, "rejected", agrees.reason);
    assert.ok(!agrees.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(agrees.issues));
    assert.equal((await c.get(decision.id!)).lifecycle.status, "candidate", "the decision stays in use");
    // The same decision reversed is still a contradiction.
    const reversed = await c.add({ lesson: "We chose Redis locks over Postgres advisory locks for the job scheduler leader election", category: "architecture", kind: "decision" });
    assert.ok(reversed.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(reversed.issues));
  });
});

test("a lesson that agrees with an older one in other words (\"use X instead of Y\" after \"avoid Y; use X\") reinforces it, never retires it as the opposite", async () => {
  // Seed 003 §6.2: DELETE is for a contradiction. Context after the prohibited thing ("for request
  // validation in the API") was read as prohibited too, so the agreeing lesson "said the opposite".
  await withCairn(async (c) => {
    const avoid = await c.add({ lesson: "Avoid mocking the database in integration tests; use a real Postgres container", category: "testing" });
    const same = await c.add({ lesson: "Use a real Postgres container in integration tests instead of mocking the database", category: "testing" });
    assert.ok(!same.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(same.issues));
    assert.equal(same.action, "reinforced", "the same advice is a sighting of the lesson");
    assert.equal((await c.get(avoid.id!)).lifecycle.status, "candidate");
    const zod = await c.add({ lesson: "We decided to use zod for request validation in the API instead of joi", category: "integration", kind: "decision" });
    const noJoi = await c.add({ lesson: "Do not use joi for request validation in the API; use zod", category: "integration" });
    assert.ok(!noJoi.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(noJoi.issues));
    assert.notEqual((await c.get(zod.id!)).lifecycle.status, "superseded");
    // The README's reversal still supersedes: "mock the database" after "avoid mocking the database".
    const mock = await c.add({ lesson: "Mock the database in integration tests; a real Postgres container is too slow", category: "testing" });
    assert.ok(mock.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(mock.issues));
  });
});

test("the reversed advice \"Never use npm ci in CI; use npm install\" is never merged into \"Never use npm install in CI; use npm ci\"", async () => {
  // Seed 003 §6.2: NOOP is for a duplicate. The reversal reinforced the lesson it reverses (its
  // confidence rose) and was never stored: "in CI" made "ci" a word both lessons refuse.
  await withCairn(async (c) => {
    for (const [first, reversed] of [
      ["Never use npm install in CI; use npm ci", "Never use npm ci in CI; use npm install"],
      ["Never use npm install in CI pipelines; use npm ci so the lockfile is respected", "Never use npm ci in CI pipelines; use npm install so the lockfile is respected"],
    ] as const) {
      const a = await c.add({ lesson: first, category: "tooling" });
      assert.equal(a.action, "added");
      const b = await c.add({ lesson: reversed, category: "tooling" });
      assert.notEqual(b.action, "reinforced", `${reversed} was merged into ${a.handle}`);
      assert.ok(b.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(b.issues));
    }
    // Agreeing lessons in the two orders still merge.
    const sql = await c.add({ lesson: "Use parameterised SQL queries in the reports service; never concatenate user input into SQL", category: "security" });
    const again = await c.add({ lesson: "Never concatenate user input into SQL queries in the reports service; use parameterised queries", category: "security" });
    assert.equal(again.action, "reinforced");
    assert.equal(again.id, sql.id);
  });
});

test("decisions written \"opted for X over Y\" or \"went with X over Y\" are not retired by a lesson that agrees (\"never Y; use X\")", async () => {
  // Seed 003 memory types: a decision stays a decision until one that reverses it comes.
  await withCairn(async (c) => {
    for (const [decision, agrees] of [
      ["Opted for Vitest over Jest in the web package tests", "Never use Jest in the web package tests; use Vitest"],
      ["Went with pnpm over yarn for the monorepo workspace installs", "Do not use yarn for the monorepo workspace installs; use pnpm"],
    ] as const) {
      const d = await c.add({ lesson: decision, category: "tooling", kind: "decision" });
      const a = await c.add({ lesson: agrees, category: "tooling" });
      assert.ok(!a.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), `${agrees}: ${JSON.stringify(a.issues)}`);
      assert.notEqual((await c.get(d.id!)).lifecycle.status, "superseded");
    }
  });
});

test("\"do not deploy before running migrations\" agrees with \"run migrations before deploying\": a sighting, not a reversal that retires it", async () => {
  // Seed 003 §6.2: DELETE only for a contradiction; one order of steps written both ways is the same memory.
  await withCairn(async (c) => {
    const first = await c.add({ lesson: "Run database migrations before deploying the API so the schema matches the code", category: "process" });
    const same = await c.add({ lesson: "Do not deploy the API before running database migrations, or the schema will not match the code", category: "process" });
    assert.ok(!same.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(same.issues));
    assert.equal((await c.get(first.id!)).lifecycle.status, "candidate", "the first lesson stays in use");
    const other = await c.add({ lesson: "Always await the database transaction commit before sending the HTTP response", category: "debugging" });
    const again = await c.add({ lesson: "Never send the HTTP response before the database transaction commit is awaited", category: "debugging" });
    assert.ok(!again.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(again.issues));
    assert.notEqual((await c.get(other.id!)).lifecycle.status, "superseded");
    // The reversed order is still a contradiction.
    const reversed = await c.add({ lesson: "Do not run database migrations before deploying the API; deploy first so the old code keeps working", category: "process" });
    assert.ok(reversed.issues.some((i) => i.code === "superseded" || i.code === "contradiction"), JSON.stringify(reversed.issues));
  });
});
