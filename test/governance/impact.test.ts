// Usage and impact: preventions judged at outcome time, marked directly, and the document's success metrics.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { APPROVAL_ON, AUTH_STRUCTURED, openEnv } from "./helpers.js";
import { openCairn } from "../../src/index.js";
import { addProject } from "../fixtures/workers/sandbox.js";

const QUIET = { learning: { reflect_in_background: false } };

function write(projectDir: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(projectDir, rel)), { recursive: true });
  fs.writeFileSync(path.join(projectDir, rel), text);
}

test("an advisory counts as a prevention when the task succeeds and the pattern is gone from the files it touched", async () => {
  const env = await openEnv(QUIET);
  try {
    const r = await env.human.add({ ...AUTH_STRUCTURED });
    await env.human.approve(r.id!);
    const globOnly = await env.human.add({ lesson: "Session cookies set in src/auth must be httpOnly and sameSite=lax, or the admin panel leaks them to scripts.", applicability: { file_globs: ["src/auth/**"] } });
    await env.human.approve(globOnly.id!);

    const file = "src/auth/session.ts";
    write(env.sb.projectDir, file, "export const exp = token.exp * 1000;\n");
    const adv = await env.agent.checkAdvisories({ tool: "edit", files: [file], text: "export const exp = token.exp * 1000;\n" });
    assert.deepEqual(adv.map((a) => a.matched).sort(), ["glob", "pattern"]);
    // The agent followed the rule: the file no longer reads token properties unguarded.
    write(env.sb.projectDir, file, "export const exp = token ? readExpiry(token) : undefined;\n");
    await env.agent.recordOutcome({ id: "o-fixed", task: "fix session expiry", success: true, duration_ms: 60_000, files_touched: [file] });
    await env.agent.reflect();
    assert.equal((await env.human.get(r.id!)).usage.prevented, 1);
    assert.equal((await env.human.get(globOnly.id!)).usage.prevented, 0, "a glob match alone is not evidence");

    // The same consultation is never counted twice, by a re-run or by another outcome in the window.
    await env.agent.recordOutcome({ id: "o-again", task: "tidy session module", success: true, duration_ms: 60_000, files_touched: [file] });
    await env.agent.reflect();
    assert.equal((await env.human.get(r.id!)).usage.prevented, 1);

    // The pattern came back, or the task failed: no prevention.
    await env.agent.checkAdvisories({ files: [file], text: "token.claims" });
    write(env.sb.projectDir, file, "export const sub = token.claims.sub;\n");
    await env.agent.recordOutcome({ id: "o-regressed", task: "read the subject", success: true, duration_ms: 60_000, files_touched: [file] });
    await env.agent.reflect();
    assert.equal((await env.human.get(r.id!)).usage.prevented, 1);
    await env.agent.checkAdvisories({ files: [file], text: "token.payload" });
    write(env.sb.projectDir, file, "export const x = 1;\n");
    await env.agent.recordOutcome({ id: "o-failed", task: "refactor", success: false, duration_ms: 60_000, files_touched: [file] });
    await env.agent.reflect();
    assert.equal((await env.human.get(r.id!)).usage.prevented, 1);
    // Files outside the project are never read, so they are no evidence either.
    const exit = await env.human.add({ lesson: "Never call process.exit inside request handlers of the api server; it drops every in-flight request.", prevention: { detection_pattern: "process\\.exit\\(" } });
    await env.human.approve(exit.id!);
    await env.agent.checkAdvisories({ tool: "bash", text: "node -e 'process.exit(1)'" });
    fs.writeFileSync(path.join(env.sb.root, "outside.ts"), "export {};\n");
    await env.agent.recordOutcome({ id: "o-escape", task: "x", success: true, duration_ms: 60_000, files_touched: ["../outside.ts"] });
    await env.agent.reflect();
    assert.equal((await env.human.get(exit.id!)).usage.prevented, 0);

    assert.equal(await env.agent.markPrevented(r.handle!, { note: "the coder changed its patch after the advisory" }), 1);
    assert.equal((await env.human.get(r.id!)).usage.prevented, 2);
  } finally {
    await env.close();
  }
});

test("governance metrics: lessons per resolved task, approval rate, consultations per lesson, prevented, median time to approve", async () => {
  let now = Date.parse("2026-05-01T08:00:00Z");
  const env = await openEnv({ ...QUIET, ...APPROVAL_ON }, { now: () => new Date(now) });
  try {
    const empty = await env.human.governanceStats();
    assert.equal(empty.lessons_per_resolved_task, null);
    assert.equal(empty.approval_rate, null);
    assert.equal(empty.median_time_to_approve_ms, null);

    const a = await env.agent.add({ ...AUTH_STRUCTURED });
    const b = await env.agent.add({ lesson: "Run prisma generate after editing schema.prisma in packages/db, or the generated client is stale and builds fail.", applicability: { file_globs: ["packages/db/**"] } });
    const c = await env.agent.add({ lesson: "The billing worker must read STRIPE_WEBHOOK_TOLERANCE from config; the hard-coded 300s broke replays in staging." });
    await env.agent.recordOutcome({ id: "o-1", task: "t1", success: true });
    await env.agent.recordOutcome({ id: "o-2", task: "t2", success: true });
    await env.agent.recordOutcome({ id: "o-3", task: "t3", success: false });
    now += 2 * 60_000;
    await env.human.approve(a.id!);
    now += 2 * 60_000;
    await env.human.approve(b.id!);
    await env.human.reject(c.id!, "not specific enough");
    await env.agent.checkAdvisories({ files: ["src/auth/x.ts"] });
    await env.agent.checkAdvisories({ files: ["src/auth/y.ts"] });
    await env.agent.checkAdvisories({ files: ["packages/db/schema.prisma"] });
    await env.human.markPrevented(a.id!);

    const m = await env.human.governanceStats();
    assert.equal(m.lessons, 3);
    assert.equal(m.resolved_tasks, 2);
    assert.equal(m.lessons_per_resolved_task, 1.5);
    assert.equal(m.approvals, 2);
    assert.equal(m.rejections, 1);
    assert.equal(m.approval_rate, 2 / 3);
    assert.equal(m.drafts_pending, 0);
    assert.equal(m.vetted_lessons, 2);
    assert.equal(m.consultations, 3);
    assert.equal(m.mean_consultations_per_lesson, 1.5);
    assert.equal(m.prevented_total, 1);
    assert.equal(m.median_time_to_approve_ms, 3 * 60_000);
  } finally {
    await env.close();
  }
});

test("mean consultations per vetted lesson counts a promoted lesson once, not as its project original and its hive copy", async () => {
  const env = await openEnv(QUIET);
  try {
    const original = await env.human.add({ ...AUTH_STRUCTURED });
    await env.human.approve(original.id!);
    const copy = await env.human.promote({ id: original.id! });
    assert.equal(copy.action, "added", copy.reason);
    await env.human.approve(copy.id!);
    // A hive lesson another project put there, and this project's lesson promoted onto it (reinforced: no promoted_from).
    const shared = "Run prisma generate after editing schema.prisma in packages/db, or the generated client is stale and builds fail.";
    const theirs = await env.human.promote({ lesson: { lesson: shared, applicability: { file_globs: ["packages/db/**"] } } });
    assert.equal(theirs.action, "added", theirs.reason);
    await env.human.approve(theirs.id!);
    const ours = await env.human.add({ lesson: shared, applicability: { file_globs: ["packages/db/**"] } });
    await env.human.approve(ours.id!);
    const reinforced = await env.human.promote({ id: ours.id! });
    assert.equal(reinforced.action, "reinforced", reinforced.reason);
    const alone = await env.human.add({ lesson: "Session cookies set in src/auth must be httpOnly and sameSite=lax, or the admin panel leaks them to scripts.", applicability: { file_globs: ["src/auth/**"] } });
    await env.human.approve(alone.id!);
    await env.agent.checkAdvisories({ files: ["src/auth/x.ts"] });
    await env.agent.checkAdvisories({ files: ["packages/db/schema.prisma"] });

    const m = await env.human.governanceStats();
    // Three lessons: the promoted pair, the reinforced pair, the one never promoted.
    assert.equal(m.vetted_lessons, 3, `vetted ${m.vetted_lessons}`);
    assert.equal(m.consultations, 3);
    assert.equal(m.mean_consultations_per_lesson, 1);
    const page = (await env.human.dashboard()).governance;
    assert.equal(page.vetted_lessons, 3, "the dashboard counts the same lessons");
    assert.equal(page.mean_consultations_per_lesson, 1);
  } finally {
    await env.close();
  }
});

test("governance metrics: a promoted original whose hive lesson another project quarantined is no vetted lesson here (it advises no more)", async () => {
  const env = await openEnv(QUIET);
  const other = await openCairn({ projectDir: addProject(env.sb, "project-other"), hivePath: env.sb.hivePath, env: env.sb.env, config: QUIET, actor: "human:bob" });
  try {
    const original = await env.human.add({ ...AUTH_STRUCTURED });
    await env.human.approve(original.id!);
    const copy = await env.human.promote({ id: original.id! });
    assert.equal(copy.action, "added", copy.reason);
    await env.human.approve(copy.id!);
    assert.equal((await env.human.governanceStats()).vetted_lessons, 1, "before: one lesson, promoted");
    await other.quarantine(copy.id!, "wrong for every project", "human:bob");
    assert.equal((await env.human.get(original.id!)).lifecycle.status, "promoted", "out of the other project's reach, the original stays promoted here");
    assert.deepEqual(await env.agent.checkAdvisories({ files: ["src/auth/x.ts"] }), [], "and advises no more");
    const m = await env.human.governanceStats();
    assert.equal(m.vetted_lessons, 0, `vetted ${m.vetted_lessons}`);
    assert.equal((await env.human.dashboard()).governance.vetted_lessons, 0, "the dashboard counts the same lessons");
  } finally {
    await other.close();
    await env.close();
  }
});
