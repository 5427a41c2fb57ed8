// Many processes from several projects writing one PostgreSQL hive at once: nothing acknowledged is lost, nothing identical is doubled.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fingerprintLesson } from "../../src/core/ids.js";
import { distinctLesson } from "../fixtures/workers/lessons.js";
import { addProject, makeSandbox, removeSandbox, runWorker } from "../fixtures/workers/sandbox.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

const WORKERS = 8;
const PER_WORKER = 500;
const PROJECTS = 4;
/** Every 10th add of every worker is one of 50 lessons all eight add at about the same moment. */
const SHARED_EVERY = 10;

test(`${WORKERS} processes × ${PER_WORKER} adds from ${PROJECTS} projects into one PostgreSQL hive`, { ...pgTestOptions(), timeout: 600_000 }, async (t) => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("conc");
  const sb = makeSandbox();
  try {
    const projects = Array.from({ length: PROJECTS }, (_, p) => addProject(sb, `team-project-${p}`));
    // All start on a schema that does not exist yet: creation and migration race too.
    const runs = Array.from({ length: WORKERS }, (_, w) =>
      runWorker("hive-add-worker.ts", [projects[w % PROJECTS]!, url, schema, String(w), String(PER_WORKER), String(SHARED_EVERY)], sb.env),
    );
    const results = await Promise.all(runs.map((r) => r.done));
    const own: string[] = [];
    const shared: string[] = [];
    results.forEach((r, w) => {
      assert.equal(r.code, 0, `worker ${w} failed: ${r.stderr.slice(0, 2000)}`);
      assert.doesNotMatch(r.stderr, /ERROR|Error:/, `worker ${w}: ${r.stderr.slice(0, 2000)}`);
      const lines = r.stdout.split("\n").filter((l) => /^(NOT-)?ACK /.test(l));
      assert.deepEqual(lines.filter((l) => l.startsWith("NOT-ACK")), [], `worker ${w}: every add is acknowledged`);
      assert.equal(lines.length, PER_WORKER);
      for (const l of lines) (l.split(" ")[1] === "shared" ? shared : own).push(l.split(" ")[3]!);
    });

    const rows = await adminQuery<{ id: string; fingerprint: string; status: string; data: { lifecycle: { confirmations: Array<{ project_id?: string; phase?: string }> } } }>(
      url,
      `SELECT id, fingerprint, status, data FROM "${schema}".entries`,
    );
    const ids = new Set(rows.map((r) => r.id));
    const missing = [...own, ...shared].filter((id) => !ids.has(id));
    assert.deepEqual(missing.slice(0, 10), [], `${missing.length} acknowledged ids are missing`);

    const sharedCount = PER_WORKER / SHARED_EVERY;
    const byFingerprint = new Map<string, number>();
    for (const r of rows) byFingerprint.set(r.fingerprint, (byFingerprint.get(r.fingerprint) ?? 0) + 1);
    const doubled = [...byFingerprint.values()].filter((n) => n > 1).length;
    assert.equal(doubled, 0, "no lesson text is stored twice");
    assert.equal(new Set(shared).size, sharedCount, "all eight adds of one shared lesson acknowledged the same entry");
    for (let k = 0; k < sharedCount; k++) {
      const fp = fingerprintLesson(distinctLesson(100 + (k % 7), 1000 + k));
      const row = rows.find((r) => r.fingerprint === fp);
      assert.ok(row, `shared lesson ${k} is stored`);
      const byProject = row.data.lifecycle.confirmations.map((c) => c.project_id);
      assert.equal(byProject.length, PROJECTS, `shared lesson ${k}: one confirmation per project, got ${JSON.stringify(row.data.lifecycle.confirmations)}`);
      assert.equal(new Set(byProject).size, PROJECTS);
    }
    assert.equal(rows.length, new Set(own).size + sharedCount, "no extra and no lost rows");
    const counted = await adminQuery<{ n: number }>(url, `SELECT COALESCE(sum(value), 0)::int AS n FROM "${schema}".counters WHERE name = 'entries'`);
    assert.equal(counted[0]!.n, rows.length, "the sharded entry counter agrees with the rows");
    const migrations = await adminQuery<{ n: number }>(url, `SELECT count(*)::int AS n FROM "${schema}".schema_migrations`);
    t.diagnostic(`acknowledged ${own.length + shared.length} adds (${shared.length} of ${sharedCount} shared lessons); rows ${rows.length}; migrations recorded ${migrations[0]!.n}`);
  } finally {
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
});

test("processes of two projects promoting one lesson at the same moment make one hive lesson; every vote on it counts", { ...pgTestOptions(), timeout: 300_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("promo");
  const sb = makeSandbox();
  const lesson = "Pin the Terraform AWS provider to a minor version in versions.tf, or a plan after a provider release rewrites every security group.";
  const VOTES = 15;
  try {
    // Two processes in project A (one project database) and two in project B.
    const dirs = [sb.projectDir, sb.projectDir, addProject(sb, "project-b"), addProject(sb, "project-b")];
    const runs = dirs.map((dir, w) => runWorker("hive-promote-worker.ts", [dir, url, schema, `w${w}`, lesson, String(VOTES)], sb.env));
    await Promise.all(runs.map((r) => r.waitForLine(/^READY/)));
    for (const r of runs) r.send("go");
    const done = await Promise.all(runs.map((r) => r.done));
    const results = done.map((d, w) => {
      assert.equal(d.code, 0, `worker ${w}: ${d.stderr.slice(0, 2000)}`);
      return JSON.parse(d.stdout.split("\n").find((l) => l.startsWith("RESULT "))!.slice(7)) as { action: string; id: string; local: string };
    });
    const rows = await adminQuery<{ id: string; status: string; helpful: number; data: { lifecycle: { confirmations: Array<{ project_id?: string }> } } }>(
      url,
      `SELECT id, status, helpful, data FROM "${schema}".entries`,
    );
    assert.equal(rows.length, 1, `one hive lesson, got ${JSON.stringify(rows.map((r) => r.status))}`);
    assert.deepEqual(new Set(results.map((r) => r.id)), new Set([rows[0]!.id]), "every promotion answered with that one lesson");
    assert.equal(new Set(rows[0]!.data.lifecycle.confirmations.map((c) => c.project_id)).size, 2, "confirmed by both projects");
    const votes = await adminQuery<{ n: number }>(url, `SELECT count(*)::int AS n FROM "${schema}".events WHERE type = 'feedback'`);
    assert.equal(votes[0]!.n, 4 * VOTES, "every vote is an event");
    assert.ok(Math.abs(rows[0]!.helpful - 4 * VOTES) < 0.01, `no vote lost: helpful ${rows[0]!.helpful}, expected about ${4 * VOTES}`);
  } finally {
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
});
