// Engine parity: the same teamwork through the engine with its hive on SQLite and on PostgreSQL gives the same answers (ids aside).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openCairn, type Cairn } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

/** Two teammates (two projects) sharing one hive: a SQLite file, or a PostgreSQL schema. */
interface Team {
  sb: Sandbox;
  ann: Cairn;
  bob: Cairn;
  done(): Promise<void>;
}

async function team(backend: "sqlite" | "pg"): Promise<Team> {
  const sb = makeSandbox();
  const schema = uniqueSchema("eparity");
  const url = pgTestUrl()!;
  const hive = backend === "pg"
    ? { hive_url: url, hive_postgres: { schema, retry_after_ms: 200, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 } }
    : { hive_path: sb.hivePath };
  const open = (dir: string, actor: string) => openCairn({ projectDir: dir, env: sb.env, actor, config: hive });
  const ann = await open(sb.projectDir, "human:ann");
  const bob = await open(addProject(sb, "project-b"), "human:bob");
  return {
    sb, ann, bob,
    async done() {
      await ann.close().catch(() => {});
      await bob.close().catch(() => {});
      if (backend === "pg") await dropSchema(url, schema);
      removeSandbox(sb);
    },
  };
}

/** Runs `scenario` on a team with a SQLite hive and on one with a PostgreSQL hive; the answers must be equal. */
async function sameOnBoth<T>(scenario: (t: Team) => Promise<T>): Promise<T> {
  const answers: T[] = [];
  for (const backend of ["sqlite", "pg"] as const) {
    const t = await team(backend);
    try {
      answers.push(await scenario(t));
    } finally {
      await t.done();
    }
  }
  assert.deepEqual(answers[1], answers[0], "the PostgreSQL hive answered otherwise than the SQLite hive");
  return answers[0]!;
}

const errorOf = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`);

const L = {
  migrate: "Run the Prisma migrate deploy step before the app container starts, or the new columns are missing at boot.",
  retry: "Wrap the payment webhook handler in an idempotency check keyed by the provider event id before retrying.",
  cache: "Invalidate the Redis session cache after a password reset, or old sessions keep working for an hour.",
  lock: "Release the Postgres advisory lock in a finally block, or a crashed migration leaves the deploy job waiting forever.",
};

test("promotion lineage: feedback on a promoted original, discredited copies, copies retired by another project, the lessons listing", { ...pgTestOptions(), timeout: 240_000 }, async () => {
  const seen = await sameOnBoth(async ({ ann, bob }) => {
    const out: Record<string, unknown> = {};
    const ids: Record<string, string> = {};
    for (const [k, lesson] of Object.entries(L)) {
      const added = await ann.add({ lesson, category: "tooling" });
      ids[k] = added.id!;
      out[`promote ${k}`] = (await ann.promote({ id: added.id! })).action;
    }
    // A verdict on the promoted original lands on its hive copy (feedbackTarget).
    for (let i = 0; i < 3; i++) await ann.feedback(ids.retry!, "harmful");
    const copyOf = async (k: string) => (await ann.listLessons({ tier: "hive" })).find((l) => l.entry.lesson === L[k as keyof typeof L])!.entry;
    const retry = await copyOf("retry");
    out["harmful on the copy"] = retry.usage.harmful.toFixed(3);
    out["harmful on the original"] = (await ann.get(ids.retry!)).usage.harmful;
    // Another project retires copies: archived, quarantined, superseded.
    await bob.archive((await copyOf("cache")).id, "the session store moved off Redis");
    await bob.quarantine((await copyOf("lock")).id, "wrong for our pooler");
    await bob.supersede((await copyOf("migrate")).id, { category: "tooling", lesson: "Run the Prisma migrate deploy step in a release job before the app containers start, or the new columns are missing at boot." });
    const names = (lessons: readonly string[]) => lessons.map((l) => Object.entries(L).find(([, v]) => v === l)?.[0] ?? l.slice(0, 40));
    for (const [who, c] of [["ann", ann], ["bob", bob]] as const) {
      for (const q of ["prisma migrate deploy", "redis session cache password reset", "advisory lock crashed migration", "payment webhook idempotency"]) {
        out[`${who} recall ${q}`] = names((await c.recall(q)).map((h) => `${h.tier}:${h.entry.lesson}`).map((x) => x.slice(x.indexOf(":") + 1)));
      }
      const injected = await c.inject({ task: "payment webhook idempotency retries", files: [] });
      out[`${who} injected`] = names(await Promise.all(injected.entries.map(async (e) => (await c.get(e.id)).lesson)));
      out[`${who} lessons`] = (await c.listLessons({ limit: 50 })).map((l) => [names([l.entry.lesson])[0], l.entry.tier, l.entry.lifecycle.status, Boolean(l.promoted_from)]).sort();
    }
    return out;
  });
  // What both answered is what the engine means (SQLite, the reference): the verdicts are the copy's, retired copies silence their originals.
  assert.deepEqual([seen["harmful on the copy"], seen["harmful on the original"], seen["ann injected"]], ["3.000", 0, []]);
  assert.deepEqual([seen["ann recall redis session cache password reset"], seen["ann recall payment webhook idempotency"]], [[], ["retry"]]);
});

test("retiring from the promoting project: archive, quarantine and restore reach the original through its hive copy, and a supersede carries the old lesson's reach", { ...pgTestOptions(), timeout: 240_000 }, async () => {
  const seen = await sameOnBoth(async ({ ann, bob }) => {
    const out: Record<string, unknown> = {};
    const ids: Record<string, string> = {};
    const reach = { file_globs: ["prisma/**/*.prisma"], tech_stack: ["prisma"] };
    for (const [k, lesson] of Object.entries(L)) {
      ids[k] = (await ann.add({ lesson, category: "tooling", tags: [`t-${k}`], applicability: reach })).id!;
      await ann.promote({ id: ids[k]! });
    }
    const hiveOf = async (k: string) => (await ann.listLessons({ tier: "hive", limit: 50 })).find((l) => l.entry.lesson === L[k as keyof typeof L])!.entry;
    const state = async (k: string) => [(await ann.get(ids[k]!)).lifecycle.status, (await hiveOf(k)).lifecycle.status];
    out["archive the copy by its handle"] = (await ann.archive((await hiveOf("cache")).handle, "moved off Redis")).lifecycle.status;
    out["cache"] = await state("cache");
    out["quarantine by the original"] = (await ann.quarantine(ids.lock!, "wrong for our pooler")).lifecycle.status;
    out["lock"] = await state("lock");
    out["restore by the copy"] = (await ann.restore((await hiveOf("lock")).handle)).lifecycle.status;
    out["lock restored"] = await state("lock");
    const { old, replacement } = await ann.supersede(ids.migrate!, { lesson: "Run the Prisma migrate deploy step in a release job before the app containers start, or the new columns are missing at boot." });
    out["superseded"] = [old.tier, old.lifecycle.status, replacement.tier, replacement.tags, replacement.applicability.file_globs, replacement.applicability.tech_stack, replacement.category];
    out["migrate"] = await state("migrate");
    out["bob recall migrate"] = (await bob.recall("prisma migrate deploy release job")).map((h) => [h.tier, h.entry.lifecycle.status, h.entry.lesson.slice(0, 40)]);
    out["ann lessons"] = (await ann.listLessons({ limit: 50 })).map((l) => [l.entry.lesson.slice(0, 30), l.entry.tier, l.entry.lifecycle.status]).sort();
    return out;
  });
  assert.deepEqual(seen["cache"], ["archived", "archived"], "the original followed its copy");
});

test("task outcomes naming a promoted original and a hive lesson: the verdicts land on the hive copies alike, once per outcome id", { ...pgTestOptions(), timeout: 240_000 }, async () => {
  const seen = await sameOnBoth(async ({ ann }) => {
    const original = (await ann.add({ lesson: L.retry, category: "integration" })).id!;
    await ann.promote({ id: original });
    const hiveOnly = (await ann.add({ lesson: L.cache, category: "security" }, { tier: "hive" })).id!;
    const out: Record<string, unknown> = {};
    const queued: boolean[] = [];
    for (const [id, success] of [["task-1", false], ["task-2", false], ["task-1", false], ["task-3", true]] as const) {
      queued.push((await ann.recordOutcome({ id, task: `Ship the payment retries (${id})`, success, error_count: success ? 0 : 3, shown_entry_ids: [original, hiveOnly] })).queued);
    }
    out["queued"] = queued;
    // Whatever the background reflection left (it may have taken them all already).
    const report = await ann.reflect();
    out["reflect failures"] = [report.failed, report.dead];
    const hive = await ann.listLessons({ tier: "hive", limit: 10 });
    out["hive verdicts"] = hive.map((l) => [l.entry.lesson.slice(0, 20), l.entry.usage.helpful.toFixed(3), l.entry.usage.harmful.toFixed(3)]).sort();
    const o = await ann.get(original);
    out["original verdicts"] = [o.usage.helpful, o.usage.harmful];
    out["queue"] = (await ann.queue("done")).counts;
    return out;
  });
  assert.deepEqual(seen["original verdicts"], [0, 0], "the original took none: its copy did");
  assert.deepEqual(seen["hive verdicts"], [["Invalidate the Redis", "1.000", "2.000"], ["Wrap the payment web", "1.000", "2.000"]], "two failures and one success each, the repeated id once");
});

test("hive writes: a JSON record is refused alike, and one CJK character finds the same hive lessons", { ...pgTestOptions(), timeout: 240_000 }, async () => {
  const found = await sameOnBoth(async ({ ann, bob }) => {
    const out: Record<string, unknown> = {};
    const write = async (lesson: string) => ann.add({ lesson, category: "debugging" }, { tier: "hive" }).then((r) => [r.action, r.reason ?? null]);
    out["json record"] = await write('{"lesson": "retry the webhook", "priority": "high", "tags": ["payments"]}');
    out["cjk"] = await write("PostgreSQL 死锁时先回滚较小的事务，再重试 pg_advisory_lock 的调用，否则 deploy 任务会一直等待。");
    out["cjk 2"] = await write("Redis 锁超时的时候，先查看持有它的 worker 进程，再调整 SETNX 的过期时间。");
    for (const q of ["锁", "死锁", "事务", "pg_advisory_lock"]) out[`bob recall ${q}`] = (await bob.recall(q)).map((h) => [h.tier, h.entry.lesson.slice(0, 20)]);
    return out;
  });
  assert.equal((found["json record"] as string[])[0], "rejected");
  assert.equal((found["bob recall 锁"] as unknown[]).length, 2, "'锁' alone finds both lessons holding it (SQLite, the reference)");
});

test("a swapped or missing letter in a query word is mended from the hive's words on PostgreSQL as on SQLite", { ...pgTestOptions(), timeout: 240_000 }, async () => {
  const found = await sameOnBoth(async ({ ann, bob }) => {
    assert.equal((await ann.add({ lesson: L.retry, category: "integration" }, { tier: "hive" })).action, "added");
    const out: Record<string, unknown> = {};
    // Swapped neighbours in a short word (swappedOrDoubled), a letter swapped or dropped in a long one (oneEditAway).
    for (const q of ["webhook", "wbehook", "idempotnecy", "idempotncy", "paymetn"]) out[q] = (await bob.recall(q)).map((h) => [h.tier, h.entry.lesson.slice(0, 30)]);
    return out;
  });
  assert.equal((found["wbehook"] as unknown[]).length, 1, "the slip is mended on SQLite (the reference)");
});

test("an import into the hive stores the same lessons, refuses the same lines and reinforces the same twins", { ...pgTestOptions(), timeout: 240_000 }, async () => {
  await sameOnBoth(async ({ sb, ann, bob }) => {
    const file = path.join(sb.root, "shared-learnings.jsonl");
    const at = "2026-02-01T10:00:00.000Z";
    const rows = [
      { id: "s1", lesson: L.cache, category: "security", tier: "hive", created_at: at },
      { id: "s2", lesson: L.lock, category: "tooling", tier: "hive", created_at: at },
      { id: "s3", lesson: L.lock, category: "tooling", tier: "hive", created_at: at },
      { id: "s4", lesson: "do it", category: "tooling", tier: "hive", created_at: at },
    ];
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\nnot json\n");
    const report = await ann.importFile(file);
    const again = await bob.importFile(file);
    const strip = (r: typeof report) => ({ ...r, format: r.format });
    return {
      report: strip(report),
      again: strip(again),
      hive: (await bob.listLessons({ tier: "hive" })).map((l) => [l.entry.lesson.slice(0, 30), l.entry.lifecycle.status, l.entry.provenance.external_id ?? null]).sort(),
    };
  });
});

test("a project's few lessons rank against a large hive's the same way whether the hive is on SQLite or PostgreSQL", { ...pgTestOptions(), timeout: 300_000 }, async () => {
  const seen = await sameOnBoth(async ({ sb, ann }) => {
    // A hive past the small-tier size, through a trusted import (one batch), and three project lessons.
    const at = "2026-02-01T10:00:00.000Z";
    const topics = ["webhook", "cache", "queue", "deploy", "schema", "token", "bucket", "replica"];
    const rows = Array.from({ length: 260 }, (_, i) => ({
      id: `h${i}`, tier: "hive", category: "tooling", created_at: at,
      lesson: `Service ${i}: check the ${topics[i % topics.length]} settings of module m${i} before release ${i % 13}${i % 40 === 0 ? " and verify the webhook signature" : ""}.`,
    }));
    const file = path.join(sb.root, "hive.jsonl");
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const report = await ann.importFile(file, { trusted: true });
    assert.equal(report.imported, 260, JSON.stringify(report.rejections.slice(0, 3)));
    await ann.add({ lesson: "Verify the webhook signature with the raw request body, not the parsed JSON, in the Stripe handler.", category: "security" });
    await ann.add({ lesson: "Rotate the webhook signing secret in both the Stripe dashboard and the vault at the same time.", category: "security" });
    await ann.add({ lesson: "Keep the release checklist in docs/release.md next to the deploy script.", category: "process" });
    const out: Record<string, unknown> = {};
    // Words the hive holds in fewer rows than its search counts up to. A word in most of its rows ("release")
    // is counted only up to that cap on PostgreSQL, so there the project's scores are left as they were.
    // What is compared is where the project's lesson stands, not the whole order: the hive's own rows score within
    // a hair of each other, and PostgreSQL's counts of a common word are ANALYZE's estimates, which move as its
    // autovacuum runs, so the order of near-equal rows (and of the project's lesson against one) varied 1 run in 3.
    for (const q of ["webhook signature", "verify webhook signature raw body"]) {
      // Twice: the second recall runs with whatever the first taught the store about its words.
      for (const n of [1, 2]) {
        const hits = await ann.recall(q, { limit: 6 });
        const at = hits.findIndex((h) => h.tier === "swarm" && h.entry.lesson.startsWith("Verify the webhook signature"));
        // Among the first two, not sunk below the hive's rows (it came sixth, or not at all, on its own three rows' counts).
        out[`${q} #${n}`] = at >= 0 && at <= 1;
        // The project's best lesson scores on the pooled words (0.49 beside a SQLite hive); on its own three rows 0.04.
        const project = hits.find((h) => h.tier === "swarm");
        if (project) assert.ok((project.breakdown.relevance ?? 0) > 0.4, `${q}: the project lesson's relevance ${project.breakdown.relevance}`);
      }
    }
    return out;
  });
  assert.ok(Object.values(seen).every((near) => near === true), `the project's lesson is among the first two: ${JSON.stringify(seen)}`);
});

test("a person's views across both tiers: the lessons page, flagged lessons and stats answer alike", { ...pgTestOptions(), timeout: 240_000 }, async () => {
  await sameOnBoth(async ({ ann, bob }) => {
    for (const [k, lesson] of Object.entries(L)) {
      const id = (await ann.add({ lesson, category: "tooling", tags: [`t-${k}`] })).id!;
      if (k !== "lock") await ann.promote({ id });
    }
    await bob.add({ lesson: "Keep the Stripe webhook secret in the vault and rotate it with the signing key.", category: "security" }, { tier: "hive" });
    const out: Record<string, unknown> = {};
    for (const [who, c] of [["ann", ann], ["bob", bob]] as const) {
      for (const q of [{}, { text: "webhook" }, { text: "migrate deploy", tier: "hive" as const }, { tags: ["t-cache"] }, { sort: "created" as const, desc: true }]) {
        const page = await c.browse({ ...q, limit: 20 });
        out[`${who} browse ${JSON.stringify(q)}`] = [page.total, page.capped, page.entries.map((e) => [e.tier, e.lesson.slice(0, 24), e.lifecycle.status]), Object.keys(page.promoted_from ?? {}).length];
      }
      const st = await c.stats();
      out[`${who} stats`] = JSON.parse(JSON.stringify(st, (k, v) => (/(_at|path|location|size|bytes|ms|^dir|^project)$/i.test(k) ? undefined : v)));
      out[`${who} flagged`] = (await c.flagged()).map((e) => e.lesson.slice(0, 24));
    }
    return out;
  });
});

