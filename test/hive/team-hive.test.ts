// The engine with its hive on PostgreSQL: promotion, recall, injection, approval and advisories across teammates, and a hive that goes away.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import { setTimeout as sleep } from "node:timers/promises";
import { replayOutbox, teamHive } from "../../src/hive/outbox.js";
import { CACHE_SYNC_EVERY_MS } from "../../src/hive/team-hive.js";
import type { Services } from "../../src/services.js";
import { addProject, makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { startProxy, viaProxy, type TcpProxy } from "../helpers/tcp-proxy.js";

interface World {
  sb: Sandbox;
  url: string;
  schema: string;
  open(projectDir: string, url?: string, actor?: string): Promise<Cairn>;
  done(): Promise<void>;
}

/**
 * Reads wait long enough for a busy shared machine (a slow answer is not what these tests are
 * about); the hung-hive test sets its own short timeout.
 */
async function world(tag: string, readTimeoutMs = 10_000): Promise<World> {
  const url = pgTestUrl()!;
  const schema = uniqueSchema(tag);
  const sb = makeSandbox();
  const opened: Cairn[] = [];
  return {
    sb,
    url,
    schema,
    async open(projectDir, hiveUrl = url, actor = "human:ann") {
      const c = await openCairn({
        projectDir, env: sb.env, actor,
        config: { hive_url: hiveUrl, hive_postgres: { schema, retry_after_ms: 200, read_timeout_ms: readTimeoutMs, connect_timeout_ms: 30_000 } },
      });
      opened.push(c);
      return c;
    },
    async done() {
      for (const c of opened) await c.close().catch(() => {});
      await dropSchema(url, schema);
      removeSandbox(sb);
    },
  };
}

/** The engine's services, for tests that inspect the outbox beneath the facade. */
function services(c: Cairn): Services {
  return (c as unknown as { services: Services }).services;
}

/** Captures what Cairn writes to stderr while `fn` runs. */
async function stderrOf<T>(fn: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: await fn(), lines };
  } finally {
    process.stderr.write = write;
  }
}

const LESSON = "Run the Prisma migrate deploy step before the app container starts, or the new columns are missing at boot.";

test("a lesson promoted by one teammate reaches another teammate's recall and injection; handles and confirmations are the team's", pgTestOptions(), async () => {
  const w = await world("share");
  try {
    const ann = await w.open(w.sb.projectDir);
    const bob = await w.open(addProject(w.sb, "project-b"), w.url, "human:bob");
    const local = await ann.add({ lesson: LESSON, category: "tooling" });
    const promoted = await ann.promote({ id: local.id! });
    assert.equal(promoted.action, "added");
    assert.match(promoted.handle ?? "", /^H-\d+$/);
    assert.equal((await ann.get(local.id!)).lifecycle.status, "promoted");

    const recalled = await bob.recall("prisma migrate deploy before the container starts");
    assert.equal(recalled[0]?.entry.id, promoted.id, "bob's recall finds ann's hive lesson");
    const block = await bob.inject({ task: "deploy the api container with prisma migrations" });
    assert.ok(block.entries.some((e) => e.id === promoted.id));
    await teamHive(services(bob))!.flush(5000);
    assert.equal((await bob.get(promoted.id!)).usage.shown, 1, "the shown count reached the team database");

    const again = await bob.promote({ lesson: { lesson: LESSON, category: "tooling" } });
    assert.equal(again.action, "reinforced", "the same lesson from a second project confirms, not duplicates");
    const hiveEntry = await ann.get(promoted.id!);
    assert.deepEqual(new Set(hiveEntry.lifecycle.confirmations.map((c) => c.project_id)).size, 2);
    const rows = await adminQuery<{ n: number }>(w.url, `SELECT count(*)::int AS n FROM "${w.schema}".entries`);
    assert.equal(rows[0]!.n, 1);
  } finally {
    await w.done();
  }
});

test("an approved rule reaches a teammate's next advisory check without a restart", pgTestOptions(), async () => {
  const w = await world("rules");
  try {
    const ann = await w.open(w.sb.projectDir);
    const bob = await w.open(addProject(w.sb, "project-b"), w.url, "agent:coder");
    const q = { tool: "edit", files: ["db/migrations/001_init.sql"], record: false };
    assert.deepEqual(await bob.checkAdvisories(q), [], "no rule yet (and bob's rule cache is now warm)");
    const r = await ann.promote({ lesson: { lesson: "Never edit a migration that already ran in production; add a new one.", category: "process", applicability: { file_globs: ["db/migrations/**"] } } });
    assert.equal(r.action, "added");
    assert.equal((await bob.checkAdvisories(q)).length, 0, "a candidate is not a rule yet");
    await ann.approve(r.id!);
    const seen = await bob.checkAdvisories(q);
    assert.deepEqual(seen.map((a) => a.id), [r.id], "bob's next check sees the approved rule");
  } finally {
    await w.done();
  }
});

test("a hive lesson a teammate quarantined, archived, edited or removed before the outage is not injected from this engine's recent results", pgTestOptions(), async () => {
  const w = await world("others");
  let proxy: TcpProxy | undefined;
  try {
    proxy = await startProxy(Number(new URL(w.url).port || 5432));
    const ann = await w.open(w.sb.projectDir);
    const bob = await w.open(addProject(w.sb, "project-b"), viaProxy(w.url, proxy.port), "human:bob");
    const lessons = [
      LESSON,
      "Run the Prisma generate step in the container build, or the deploy ships a stale client that crashes at boot.",
      "Give the Prisma migrate deploy job its own database role; the app role must not alter tables in the container.",
      "Seed the Prisma container database after migrate deploy, never before it, or the seed writes to missing columns.",
    ];
    const promoted: Array<Awaited<ReturnType<Cairn["promote"]>>> = [];
    for (const lesson of lessons) promoted.push(await ann.promote({ lesson: { lesson, category: "tooling" } }));
    const ctx = { task: "deploy the api container: prisma migrate deploy, generate and seed before the container starts" };
    const before = await bob.inject(ctx);
    for (const p of promoted) assert.ok(before.entries.some((e) => e.id === p.id), `${p.handle} reaches bob while the hive is up`);
    const bobHive = teamHive(services(bob))!;
    await bobHive.cacheSynced();

    // Ann, another process and project, retires three of them and rewrites the fourth.
    await ann.quarantine(promoted[0]!.handle!, "wrong about the order", "human:ann");
    await ann.archive(promoted[1]!.handle!, "superseded by the build docs", "human:ann");
    await ann.remove(promoted[2]!.handle!, { actor: "human:ann", force: true });
    await ann.edit(promoted[3]!.id!, { lesson: "Seed the Prisma container database only from the release job, after migrate deploy has finished." }, "human:ann");
    // Bob's next turn while the hive is up refreshes his recent results (once the sync interval has passed).
    await sleep(CACHE_SYNC_EVERY_MS + 100);
    await bob.inject({ task: "prisma container seed" });
    await bobHive.cacheSynced();
    await proxy.cut();

    const down = await bob.inject(ctx);
    const hive = down.entries.filter((e) => e.tier === "hive");
    assert.deepEqual(hive.filter((e) => e.id !== promoted[3]!.id).map((e) => e.handle), [], "none of the retired lessons comes back from bob's recent results");
    assert.ok(!/stale client|its own database role|missing at boot|never before it/.test(down.text), "no retired or replaced wording in the block");
    assert.deepEqual(hive.map((e) => e.id), [promoted[3]!.id], "the edited lesson still answers from the recent results");
    assert.match(down.text, /release job/, "as ann rewrote it");
  } finally {
    await proxy?.close();
    await w.done();
  }
});

test("with the hive unreachable, injection answers from the project and recent hive results, logs one line, and writes wait in the outbox", pgTestOptions(), async () => {
  const w = await world("down");
  let proxy: TcpProxy | undefined;
  try {
    proxy = await startProxy(Number(new URL(w.url).port || 5432));
    const ann = await w.open(w.sb.projectDir, viaProxy(w.url, proxy.port));
    const hiveLesson = await ann.promote({ lesson: { lesson: LESSON, category: "tooling" } });
    const local = await ann.add({ lesson: "Tag the container image with the git sha before the Prisma deploy job runs.", category: "tooling" });
    const other = await ann.add({ lesson: "Keep the Renovate schedule to weekends so the deploy queue stays quiet.", category: "tooling" });
    const ctx = { task: "deploy the api container: prisma migrate deploy before the container starts" };
    const before = await ann.inject(ctx);
    assert.ok(before.entries.some((e) => e.id === hiveLesson.id), "the hive lesson is injected while the hive is up");
    await teamHive(services(ann))!.flush(5000);

    await proxy.cut();
    const { value: during, lines } = await stderrOf(async () => {
      const out = [];
      for (let i = 0; i < 5; i++) out.push(await ann.inject({ ...ctx, task: `${ctx.task} (turn ${i})` }));
      return out;
    });
    for (const block of during) {
      assert.ok(block.entries.some((e) => e.id === local.id), "the project's own lessons still come");
      assert.ok(block.entries.some((e) => e.id === hiveLesson.id), "and the hive lesson from the recent results");
    }
    assert.equal(lines.filter((l) => /team hive .* unreachable/.test(l)).length, 1, `one log line, not one per call: ${lines.join("")}`);
    assert.doesNotMatch(lines.join(""), /password/i);

    // Writes while down: a promotion, feedback on the hive lesson, and the shown counts of those turns.
    const queued = await ann.promote({ id: other.id! });
    assert.equal(queued.action, "queued");
    const fb = await ann.feedback(hiveLesson.handle!, "helpful", "saved the deploy");
    assert.equal(fb.id, hiveLesson.id);
    const waiting = (await ann.outbox()).counts.pending;
    assert.ok(waiting >= 3, `queued writes wait in the outbox (${waiting})`);
    assert.equal((await ann.get(other.id!)).lifecycle.status, "candidate", "not marked promoted before the hive has it");

    await proxy.restore();
    const report = await ann.syncOutbox();
    assert.equal(report.pending, 0);
    assert.equal(report.dead, 0);
    const promotedNow = await ann.get(queued.id!);
    assert.equal(promotedNow.tier, "hive", "the queued promotion landed under the id it was given");
    assert.equal((await ann.get(other.id!)).lifecycle.status, "promoted");
    const hiveNow = await ann.get(hiveLesson.id!);
    assert.equal(hiveNow.usage.helpful, 1, "the feedback applied once");
    assert.equal(hiveNow.usage.shown, 6, "every turn's shown count arrived, once");

    // A replay cut short after the hive took the writes (before they left the outbox) changes nothing the second time.
    const s = services(ann);
    const events = await teamHive(s)!.remote.listEvents(hiveLesson.id!, 1000);
    const feedbackEvent = events.find((e) => e.type === "feedback" && e.data.verdict === "helpful")!;
    assert.ok(feedbackEvent.db_role, "the database role is recorded beside the actor");
    const replayedId = (await teamHive(s)!.remote.listEvents(undefined, 1000)).length;
    await s.swarm.enqueueOutbox("again-1", "feedback", { ref: hiveLesson.handle, verdict: "helpful", actor: "human:ann", at: "2025-01-01T00:00:00.000Z" }, "2025-01-01T00:00:00.000Z");
    await replayOutbox(s, teamHive(s)!.remote);
    await s.swarm.enqueueOutbox("again-1", "feedback", { ref: hiveLesson.handle, verdict: "helpful", actor: "human:ann", at: "2025-01-01T00:00:00.000Z" }, "2025-01-01T00:00:00.000Z");
    await replayOutbox(s, teamHive(s)!.remote);
    assert.equal((await ann.get(hiveLesson.id!)).usage.helpful > 1, true);
    const helpfulEvents = (await teamHive(s)!.remote.listEvents(hiveLesson.id!, 1000)).filter((e) => e.data.queued_at === "2025-01-01T00:00:00.000Z");
    assert.equal(helpfulEvents.length, 1, "the same outbox item replayed twice took effect once");
    assert.ok((await teamHive(s)!.remote.listEvents(undefined, 1000)).length > replayedId);
  } finally {
    await proxy?.close();
    await w.done();
  }
});

test("a hung hive (no answer at all) costs one read timeout, then the fallback answers at once", pgTestOptions(), async () => {
  const w = await world("hung", 1000);
  let proxy: TcpProxy | undefined;
  try {
    proxy = await startProxy(Number(new URL(w.url).port || 5432));
    const ann = await w.open(w.sb.projectDir, viaProxy(w.url, proxy.port));
    await ann.promote({ lesson: { lesson: LESSON, category: "tooling" } });
    const ctx = { task: "prisma migrate deploy before the container starts" };
    assert.equal((await ann.recall(ctx.task)).length, 1);
    proxy.stall();
    const { value, lines } = await stderrOf(async () => [await ann.recall(ctx.task), await ann.recall(ctx.task)]);
    assert.equal(value[0]!.length, 1, "the cached hive result answers");
    assert.equal(value[1]!.length, 1);
    assert.equal(lines.filter((l) => /unreachable \(no answer within \d+ ms\)/.test(l)).length, 1);
    assert.equal(teamHive(services(ann))!.health, "down");
    proxy.resume();
  } finally {
    await proxy?.close();
    await w.done();
  }
});

test("a replay that keeps failing the same way logs one line, not one per turn, and nothing waiting is lost", pgTestOptions(), async () => {
  const w = await world("loud");
  try {
    const ann = await w.open(w.sb.projectDir);
    const hiveLesson = await ann.promote({ lesson: { lesson: LESSON, category: "tooling" } });
    const ctx = { task: "deploy the api container: prisma migrate deploy before the container starts" };
    assert.ok((await ann.inject(ctx)).entries.some((e) => e.id === hiveLesson.id));
    await teamHive(services(ann))!.flush(5000);
    // Break the hive beneath the session: every usage event now fails in the database, the same way each time.
    await adminQuery(w.url, `ALTER TABLE "${w.schema}".event_days RENAME TO event_days_away`);
    const { lines } = await stderrOf(async () => {
      for (let i = 0; i < 6; i++) {
        await ann.inject({ ...ctx, task: `${ctx.task} (turn ${i})` });
        await teamHive(services(ann))!.flush(5000);
      }
    });
    const failures = lines.filter((l) => /replaying the hive outbox failed/.test(l));
    assert.equal(failures.length, 1, `one line for one lasting failure: ${lines.join("")}`);
    assert.ok((await ann.outbox()).counts.pending >= 6, "the counts wait in the outbox, nothing lost");
    await adminQuery(w.url, `ALTER TABLE "${w.schema}".event_days_away RENAME TO event_days`);
    const report = await ann.syncOutbox();
    assert.equal(report.pending, 0);
    assert.equal((await ann.get(hiveLesson.id!)).usage.shown, 7, "every turn's shown count arrived once");
  } finally {
    await w.done();
  }
});

test("a hive lesson quarantined, archived or removed through this engine is not recalled or injected from the recent results once the hive is unreachable", pgTestOptions(), async () => {
  const w = await world("retired");
  let proxy: TcpProxy | undefined;
  try {
    proxy = await startProxy(Number(new URL(w.url).port || 5432));
    const ann = await w.open(w.sb.projectDir, viaProxy(w.url, proxy.port));
    const lessons = [
      LESSON,
      "Run the Prisma generate step in the container build, or the deploy ships a stale client that crashes at boot.",
      "Give the Prisma migrate deploy job its own database role; the app role must not alter tables in the container.",
    ];
    const promoted = [];
    for (const lesson of lessons) promoted.push(await ann.promote({ lesson: { lesson, category: "tooling" } }));
    const ctx = { task: "deploy the api container: prisma migrate deploy and generate before the container starts" };
    const before = await ann.inject(ctx);
    for (const p of promoted) assert.ok(before.entries.some((e) => e.id === p.id), `${p.handle} is injected while the hive is up`);
    const recalled = await ann.recall(ctx.task, { tier: "hive" });
    assert.equal(recalled.length, 3);

    await ann.quarantine(promoted[0]!.handle!, "wrong about the order", "human:ann");
    await ann.archive(promoted[1]!.handle!, "superseded by the build docs", "human:ann");
    await ann.remove(promoted[2]!.handle!, { actor: "human:ann", force: true });
    // The hive goes away before any new search: only the results from before the changes are remembered.
    await proxy.cut();
    const down = await ann.inject({ ...ctx, task: `${ctx.task} (again)` });
    assert.deepEqual(down.entries.filter((e) => e.tier === "hive").map((e) => e.handle), [], "none comes back from the recent results");
    const same = await ann.inject(ctx);
    assert.deepEqual(same.entries.filter((e) => e.tier === "hive").map((e) => e.handle), [], "not for the very same context either");
    const hits = await ann.recall(ctx.task, { tier: "hive" });
    assert.deepEqual(hits.map((h) => `${h.entry.handle} ${h.entry.lifecycle.status}`), [], "nor recalled");
  } finally {
    await proxy?.close();
    await w.done();
  }
});
