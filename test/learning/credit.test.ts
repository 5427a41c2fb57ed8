// Credit assignment in outcome feedback: a failed task's blame goes mostly to the lesson known to precede failures, not equally to every lesson shown beside it.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { verdictShares } from "../../src/lifecycle/feedback.js";
import { openCairn } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { BAD_RUN, GOOD_RUN, T0, testConfig, withWorld } from "./helpers.js";

const close = (a: number, b: number, msg?: string) => assert.ok(Math.abs(a - b) < 1e-9, `${msg ?? ""} ${a} ≠ ${b}`);

const PROVEN = "Set a short lock_timeout at the top of each schema migration so a blocked ALTER TABLE fails fast.";
const SUSPECT = "Run database migrations automatically at application startup so every deploy applies pending changes.";
const UNKNOWN = "Name migration files with a UTC timestamp prefix so two branches never collide on a sequence number.";

test("shares: the likeliest lesson takes a whole verdict, the others in proportion; equal records each take a whole one", () => {
  assert.deepEqual(verdictShares([0.5, 0.5, 0.5], "harmful"), [1, 1, 1], "no record: every lesson shown takes the whole blame, as before");
  assert.deepEqual(verdictShares([0.5], "helpful"), [1]);
  const blame = verdictShares([0.9, 0.1, 0.5], "harmful");
  close(blame[1]!, 1, "the lesson at the floor is the prime suspect");
  close(blame[0]!, 0.1 / 0.9);
  close(blame[2]!, 0.5 / 0.9);
  const credit = verdictShares([0.9, 0.1, 0.5], "helpful");
  close(credit[0]!, 1, "a success is credited mostly to the lesson with the good record");
  close(credit[1]!, 0.1 / 0.9);
});

test("regression: a lesson with a good record shown beside a known bad one takes a fraction of the failure, the bad one all of it", async () => {
  await withWorld(async ({ cairn }) => {
    const ids: string[] = [];
    for (const lesson of [PROVEN, SUSPECT, UNKNOWN]) {
      const r = await cairn.add({ lesson, category: "process" });
      assert.equal(r.action, "added", r.reason);
      ids.push(r.id!);
    }
    const [proven, suspect, unknown] = ids as [string, string, string];
    // Records built by outcomes: three successes after the proven lesson alone, three failures after the suspect alone.
    for (let i = 0; i < 3; i++) {
      await cairn.recordOutcome({ task: `Migration ticket ${i}`, ...GOOD_RUN, shown_entry_ids: [proven] });
      await cairn.recordOutcome({ task: `Deploy ticket ${i}`, ...BAD_RUN, shown_entry_ids: [suspect] });
    }
    assert.equal((await cairn.reflect()).processed, 6);
    const before = await Promise.all(ids.map((id) => cairn.get(id)));
    assert.equal(before[0]!.usage.helpful, 3);
    assert.equal(before[1]!.usage.harmful, 3);

    // All three shown, and the task fails.
    await cairn.recordOutcome({ id: "o-shared-failure", task: "Deploy the pending migrations", ...BAD_RUN, shown_entry_ids: [proven, suspect, unknown] });
    assert.equal((await cairn.reflect()).processed, 1);
    const after = await Promise.all(ids.map((id) => cairn.get(id)));
    const blame = after.map((e, i) => e.usage.harmful - before[i]!.usage.harmful);
    close(blame[1]!, 1, "the suspect takes the whole verdict");
    assert.ok(blame[0]! > 0 && blame[0]! < 0.25, `the proven lesson takes a small share, not the whole blame (${blame[0]})`);
    assert.ok(blame[2]! > blame[0]! && blame[2]! < 1, `a lesson without a record lies between (${blame[2]})`);

    // The shares were decided once and saved with the item; each applied share is in its lesson's history.
    const [item] = (await cairn.queue("done", 100)).items.filter((q) => q.id === "o-shared-failure");
    assert.deepEqual(Object.keys(item!.shares ?? {}).sort(), [...ids].sort());
    for (const [i, id] of [proven, suspect, unknown].entries()) {
      const events = (await cairn.history(id)).filter((h) => h.type === "feedback" && h.data.outcome === "o-shared-failure");
      assert.equal(events.length, 1);
      close(Number(events[0]!.data.share), blame[i]!, `the event records the share applied to ${id}`);
      close(item!.shares![id]!, blame[i]!);
    }
    assert.ok(after[0]!.usage.helpful > after[0]!.usage.harmful, "the proven lesson keeps its good standing");
  });
});

test("an outcome that names no lessons is laid on what this project was shown, never on hive lessons another project was shown meanwhile", async () => {
  // Seed 003 §6.3: implicit feedback from *this* task's outcome. The hive is shared (a user's projects,
  // a team's PostgreSQL): a failure in one repo sank the hive lessons injected into another repo's session.
  const sb = makeSandbox("project-a");
  const clock = { t: T0 };
  const open = (projectDir: string) =>
    openCairn({ projectDir, hivePath: sb.hivePath, env: sb.env, config: testConfig(), now: () => new Date(clock.t) });
  const a = await open(sb.projectDir);
  const b = await open(addProject(sb, "project-b"));
  try {
    const hive = await b.add({ lesson: "Set a short lock_timeout at the top of each schema migration so a blocked ALTER TABLE fails fast.", category: "tooling" }, { tier: "hive" });
    assert.equal(hive.action, "added");
    const shownInB = await b.inject({ task: "write the schema migration that adds an index; ALTER TABLE lock_timeout" });
    assert.ok(shownInB.entries.some((e) => e.id === hive.id), "project B was shown the hive lesson");
    clock.t += 60_000;
    await a.recordOutcome({ id: "o-other-project", task: "Fix the flaky checkout page test", ...BAD_RUN });
    assert.equal((await a.reflect()).processed, 1);
    const after = await a.get(hive.id!);
    assert.equal(after.usage.harmful, 0, "project A's failure is not laid on a lesson only project B saw");
  } finally {
    await a.close();
    await b.close();
    removeSandbox(sb);
  }
});

test("a prevention is claimed by the project whose agent was warned: another project's success does not count a hive lesson's consultation elsewhere", async () => {
  // Seed 004 usage metrics (times_prevented: issues prevented by this knowledge) on a hive shared by projects.
  const sb = makeSandbox("project-a");
  const clock = { t: T0 };
  const open = (projectDir: string, actor: string) =>
    openCairn({ projectDir, hivePath: sb.hivePath, env: sb.env, actor, config: testConfig(), now: () => new Date(clock.t) });
  const a = await open(sb.projectDir, "agent:coder");
  const bDir = addProject(sb, "project-b");
  const b = await open(bDir, "agent:coder");
  const person = await open(bDir, "human:alice");
  try {
    const hive = await person.add(
      { lesson: "Never call process.exit inside request handlers of the api server; it drops every in-flight request.", category: "integration", prevention: { rule: "Throw an error and let the server close gracefully", detection_pattern: "process\\.exit\\(" } },
      { tier: "hive" },
    );
    await person.approve(hive.id!);
    const told = await b.checkAdvisories({ text: "if (bad) process.exit(1)" });
    assert.equal(told.length, 1, "project B's agent was warned");
    fs.mkdirSync(path.join(sb.projectDir, "src"), { recursive: true });
    fs.writeFileSync(path.join(sb.projectDir, "src", "server.ts"), "export const ok = true;\n");
    clock.t += 60_000;
    await a.recordOutcome({ id: "o-a-success", task: "Tidy the server module", ...GOOD_RUN, files_touched: ["src/server.ts"] });
    assert.equal((await a.reflect()).processed, 1);
    assert.equal((await person.get(hive.id!)).usage.prevented, 0, "project A's task prevented nothing it was never warned about");
  } finally {
    await a.close();
    await b.close();
    await person.close();
    removeSandbox(sb);
  }
});

test("an outcome that names no lessons but says its agent is laid only on what that agent was shown, not on lessons another agent of the project was shown meanwhile", async () => {
  // Seed 003 §6.3: implicit feedback from *this* task's outcome. Two agents of one project work at once:
  // agent:b's failure sank every lesson injected into agent:a's turns in the same window.
  await withWorld(async ({ cairn }) => {
    const forA = await cairn.add({ lesson: "Set a short lock_timeout at the top of each schema migration so a blocked ALTER TABLE fails fast.", category: "tooling" });
    const forB = await cairn.add({ lesson: "Run the checkout page e2e tests with a fixed viewport so the sticky footer never covers the pay button.", category: "testing" });
    const shownToA = await cairn.inject({ task: "write the schema migration that adds an index; ALTER TABLE lock_timeout", agent: "a" }, { actor: "agent:a" });
    assert.deepEqual(shownToA.entries.map((e) => e.id), [forA.id], "agent:a was shown its lesson");
    const shownToB = await cairn.inject({ task: "fix the flaky checkout page e2e test; sticky footer covers the pay button viewport", agent: "b" }, { actor: "agent:b" });
    assert.deepEqual(shownToB.entries.map((e) => e.id), [forB.id], "agent:b was shown its lesson");

    await cairn.recordOutcome({ id: "o-b-failed", task: "Fix the flaky checkout page test", ...BAD_RUN, error_count: 5, agent: "b" });
    assert.equal((await cairn.reflect()).processed, 1);
    assert.equal((await cairn.get(forA.id!)).usage.harmful, 0, "agent:b's failure is not laid on a lesson only agent:a saw");
    assert.equal((await cairn.get(forB.id!)).usage.harmful, 1, "the lesson agent:b saw takes the verdict");

    // An outcome that does not say whose it is cannot be told apart: every lesson shown in its window, as before.
    await cairn.recordOutcome({ id: "o-unknown", task: "Ship the release", ...BAD_RUN });
    assert.equal((await cairn.reflect()).processed, 1);
    assert.ok((await cairn.get(forA.id!)).usage.harmful > 0, "a share of it");
    assert.ok((await cairn.get(forB.id!)).usage.harmful > 1, "a share of it");
  });
});

test("an outcome that says its session takes what that session was shown, whichever agent's turn it was", async () => {
  // Two sessions of the same agent in one project (two OpenCode windows, two MCP HTTP sessions of one client).
  await withWorld(async ({ cairn }) => {
    const one = await cairn.add({ lesson: "Set a short lock_timeout at the top of each schema migration so a blocked ALTER TABLE fails fast.", category: "tooling" });
    const two = await cairn.add({ lesson: "Run the checkout page e2e tests with a fixed viewport so the sticky footer never covers the pay button.", category: "testing" });
    await cairn.inject({ task: "write the schema migration that adds an index; ALTER TABLE lock_timeout", agent: "coder" }, { actor: "agent:coder", sessionId: "ses_one" });
    await cairn.inject({ task: "fix the flaky checkout page e2e test; sticky footer covers the pay button viewport", agent: "coder" }, { actor: "agent:coder", sessionId: "ses_two" });
    await cairn.recordOutcome({ id: "o-two", task: "Fix the flaky checkout page test", ...BAD_RUN, agent: "coder", session_id: "ses_two" });
    assert.equal((await cairn.reflect()).processed, 1);
    assert.equal((await cairn.get(one.id!)).usage.harmful, 0, "the other session's lesson is not blamed");
    assert.equal((await cairn.get(two.id!)).usage.harmful, 1);
  });
});

test("a lesson consulted through an advisory check takes the task's outcome like a shown one, within its session and project", async () => {
  // Seed 004's pre-action checks: the lesson an agent was warned with before acting is one the task used.
  const sb = makeSandbox("project-a");
  const clock = { t: T0 };
  const open = (projectDir: string, actor: string) =>
    openCairn({ projectDir, hivePath: sb.hivePath, env: sb.env, actor, config: testConfig(), now: () => new Date(clock.t) });
  const person = await open(sb.projectDir, "human:alice");
  const agent = await open(sb.projectDir, "agent:coder");
  const bDir = addProject(sb, "project-b");
  const other = await open(bDir, "agent:coder");
  try {
    const rule = { category: "integration", prevention: { rule: "Throw an error and let the server close gracefully", detection_pattern: "process\\.exit\\(" } } as const;
    const local = await person.add({ lesson: "Never call process.exit inside request handlers of the api server; it drops every in-flight request.", ...rule });
    await person.approve(local.id!);
    const hive = await person.add(
      { lesson: "Never block the event loop with fs.readFileSync inside request handlers; every other request waits.", category: "integration", prevention: { rule: "Use fs.promises.readFile", detection_pattern: "readFileSync\\(" } },
      { tier: "hive" },
    );
    await person.approve(hive.id!);
    assert.deepEqual((await agent.checkAdvisories({ text: "if (bad) process.exit(1)", sessionId: "ses_one" })).map((a) => a.id), [local.id]);
    assert.deepEqual((await agent.checkAdvisories({ text: "const s = fs.readFileSync(p)", sessionId: "ses_two" })).map((a) => a.id), [hive.id]);
    // Another project's agent consulted the hive lesson too: not this project's task.
    assert.deepEqual((await other.checkAdvisories({ text: "fs.readFileSync(x)", sessionId: "ses_one" })).map((a) => a.id), [hive.id]);
    clock.t += 60_000;
    await agent.recordOutcome({ id: "o-one", task: "Harden the api server's error path", ...BAD_RUN, agent: "coder", session_id: "ses_one" });
    assert.equal((await agent.reflect()).processed, 1);
    assert.equal((await person.get(local.id!)).usage.harmful, 1, "the lesson consulted in that session takes the verdict");
    assert.equal((await person.get(hive.id!)).usage.harmful, 0, "one consulted in another session, or by another project, does not");
    await agent.recordOutcome({ id: "o-two", task: "Serve the static files", ...GOOD_RUN, agent: "coder", session_id: "ses_two" });
    assert.equal((await agent.reflect()).processed, 1);
    assert.equal((await person.get(hive.id!)).usage.helpful, 1, "this project's session that consulted the hive lesson credits it");
  } finally {
    await person.close();
    await agent.close();
    await other.close();
    removeSandbox(sb);
  }
});
