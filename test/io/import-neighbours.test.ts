// A trusted import's in-memory neighbour index (issue 16.4) dedups exactly as the per-row full-text query does: same report, same store.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ConfigSchema } from "../../src/config.js";
import { importFile, type ImportReport } from "../../src/io/import-file.js";
import { BulkNeighbours } from "../../src/lifecycle/bulk-neighbours.js";
import { findNeighbours } from "../../src/lifecycle/neighbours.js";
import { decideUpsert } from "../../src/lifecycle/upsert.js";
import { fingerprintLesson } from "../../src/core/ids.js";
import { compareLessons } from "../../src/quality/similarity.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { tmpDir } from "./helpers.js";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const PAIRS = fs.readFileSync(path.join(ROOT, "eval/dedup-pairs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { a: string; b: string; label: string });
const TOOLS = ["vitest", "prisma", "docker", "redis", "kafka", "eslint", "webpack", "nginx", "postgres", "terraform", "helm", "jest"];
const PARTS = ["cache", "queue", "schema", "worker", "gateway", "session", "index", "bucket", "cron", "lockfile", "mirror"];

function services(dir: string): Services & { swarm: SqliteStore; hive: SqliteStore } {
  return {
    swarm: new SqliteStore(path.join(dir, "swarm.db"), "swarm"),
    hive: new SqliteStore(path.join(dir, "hive.db"), "hive"),
    config: ConfigSchema.parse({ knowledge: { swarm_max_entries: 100_000, hive_max_entries: 100_000 } }),
    project: { id: "p_0123456789abcdef", name: "import-neighbours", dir },
    now: () => new Date("2026-03-01T12:00:00Z"),
  };
}

function row(i: number, lesson: string): string {
  return JSON.stringify({ id: `k-${i}`, tier: "swarm", lesson, category: "tooling", confidence: 0.6, status: "candidate", created_at: "2026-01-02T03:04:05Z" });
}

/** Lessons sharing a vocabulary (neighbours found, few duplicates), so the tier passes the size where query terms are pruned. */
function filler(i: number): string {
  const tool = TOOLS[i % TOOLS.length]!;
  const part = PARTS[(i * 7) % PARTS.length]!;
  return `${tool} ${part} ${i % 3 ? "times out" : "fails"} on worker ${i % 40} unless its ${PARTS[(i * 5) % PARTS.length]} is warmed first.`;
}

/** Stage 1 (already in the store before the import under test): fillers and the first half of the pairs' "a" side. */
function stage1(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 450; i++) out.push(row(i, filler(i)));
  PAIRS.slice(0, 150).forEach((p, i) => out.push(row(1000 + i, p.a)));
  return out;
}

/** Stage 2: the other sides of every pair (duplicates, paraphrases, contradictions, distinct look-alikes), more fillers, repeats. */
function stage2(): string[] {
  const out: string[] = [];
  PAIRS.forEach((p, i) => {
    if (i >= 150) out.push(row(2000 + i, p.a));
    out.push(row(3000 + i, p.b));
    if (i % 5 === 0) out.push(row(4000 + i, filler(i * 3 + 1)));
  });
  return out;
}

async function contents(s: Services & { swarm: SqliteStore; hive: SqliteStore }): Promise<unknown[]> {
  const entries = await s.swarm.listEntries({}, { limit: 100_000, order: "oldest" });
  const handles = new Map(entries.map((e) => [e.id, e.handle]));
  return entries.map((e) => [
    e.handle, e.lesson, e.lifecycle.status, e.lifecycle.confirmations.length, e.lifecycle.superseded_by ? handles.get(e.lifecycle.superseded_by) : null,
    e.lifecycle.flags.map((f) => f.replace(/^contradicts:(.+)$/, (_, id: string) => `contradicts:${handles.get(id) ?? "?"}`)),
  ]);
}

async function load(bulkNeighbours: boolean): Promise<{ report: ImportReport; store: unknown[]; statements: number }> {
  const dir = tmpDir();
  const s = services(dir);
  try {
    const first = path.join(dir, "stage1.jsonl");
    fs.writeFileSync(first, stage1().join("\n") + "\n");
    await importFile(s, first, { format: "opencode-swarm", trusted: true, bulkNeighbours: false });
    const second = path.join(dir, "stage2.jsonl");
    fs.writeFileSync(second, stage2().join("\n") + "\n");
    const before = s.swarm.driver.statementsRun;
    const report = await importFile(s, second, { format: "opencode-swarm", trusted: true, bulkNeighbours });
    return { report, store: await contents(s), statements: s.swarm.driver.statementsRun - before };
  } finally {
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("regression 16.4: the in-memory neighbour index merges, flags and supersedes exactly as the per-row search, with fewer statements", async () => {
  const perRow = await load(false);
  const indexed = await load(true);
  assert.ok(perRow.report.reinforced > 50, `the corpus has near-duplicates to merge: ${JSON.stringify({ ...perRow.report, rejections: [] })}`);
  assert.deepEqual(indexed.report, perRow.report);
  assert.deepEqual(indexed.store, perRow.store);
  // The neighbour query per row is gone (exact-text reads and inserts remain).
  assert.ok(indexed.statements < perRow.statements * 0.8, `${indexed.statements} vs ${perRow.statements} statements`);
});

/** A tier holding `stored` (imported row by row), this process's index of it, and a second connection to its file: "another process". */
async function withAnotherProcess(stored: string, fn: (s: Services & { swarm: SqliteStore }, index: BulkNeighbours, other: SqliteStore, dir: string) => Promise<void>): Promise<void> {
  const dir = tmpDir();
  const s = services(dir);
  const other = new SqliteStore(path.join(dir, "swarm.db"), "swarm");
  let index: BulkNeighbours | undefined;
  try {
    const file = path.join(dir, "one.jsonl");
    fs.writeFileSync(file, row(1, stored) + "\n");
    await importFile(s, file, { format: "opencode-swarm", trusted: true, bulkNeighbours: false });
    index = BulkNeighbours.for(s.swarm)!;
    await fn(s, index, other, dir);
  } finally {
    index?.close();
    await other.close();
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("regression 16.4: a near-duplicate the index still holds but another process deleted is passed over, not merged into", async () => {
  const stored = "Run database migrations before starting the app container, not after.";
  const restated = "Run the database migrations before starting the app container, not after.";
  await withAnotherProcess(stored, async (s, index, other) => {
    const threshold = s.config.knowledge.dedup_threshold;
    assert.ok(compareLessons(restated, stored, threshold).duplicate, "a near-duplicate");
    assert.equal((await index.candidates(["database", "migrations"], ["candidate"], 5))[0]?.lesson, stored, "the index reads the tier now");
    // Another process removes it: this process's index does not hear of it (nor has it read the entry yet).
    assert.equal(other.driver.run("DELETE FROM entries WHERE lesson = ?", [stored]).changes, 1);
    assert.equal(await s.swarm.countEntries(), 0);
    const n = await findNeighbours(s.swarm, restated, threshold, undefined, undefined, index);
    assert.equal(n.duplicate, undefined);
    assert.equal(decideUpsert(n).op, "add");
  });
});

test("regression 16.4: an exact copy another process stores after the index read the tier is still found (the index skips the read only while no other connection has written)", async () => {
  const lesson = "Pin the redis client to one connection per worker, or the pool starves under load.";
  await withAnotherProcess("Warm the webpack cache before the first build of the day.", async (s, index, other, dir) => {
    const threshold = s.config.knowledge.dedup_threshold;
    assert.equal((await findNeighbours(s.swarm, lesson, threshold, undefined, undefined, index)).duplicate, undefined, "not stored yet");
    // Another process stores the same lesson: this process's index does not hear of it.
    const twin = path.join(dir, "twin.jsonl");
    fs.writeFileSync(twin, row(2, lesson) + "\n");
    await importFile({ ...s, swarm: other }, twin, { format: "opencode-swarm", trusted: true, bulkNeighbours: false });
    const n = await findNeighbours(s.swarm, lesson, threshold, undefined, undefined, index);
    assert.equal(n.duplicate?.entry.lesson, lesson);
    assert.equal(decideUpsert(n).op, "reinforce");
  });
});

test("regression 16.4: inside one write batch the index asks once whether another process wrote; the next batch asks again and finds its copy", async () => {
  const lesson = "Rotate the signing key before the token cache expires, or every session logs out at once.";
  await withAnotherProcess("Warm the webpack cache before the first build of the day.", async (s, index, other, dir) => {
    const threshold = s.config.knowledge.dedup_threshold;
    const fresh = ["Pin the node version in CI to the one in .nvmrc.", "Keep the nginx upstream timeout above the app's slowest route.", "Vacuum the sqlite file after the nightly purge."];
    await s.swarm.writeBatch(async () => {
      const before = s.swarm.driver.statementsRun;
      for (const l of fresh) assert.equal((await index.findByFingerprint(fingerprintLesson(l))).length, 0);
      assert.equal(s.swarm.driver.statementsRun - before, 1, "one data_version read for the batch, no lookup read (no row holds these)");
    });
    // Between batches another process stores the lesson: the next batch's first lookup sees its commit.
    const twin = path.join(dir, "twin.jsonl");
    fs.writeFileSync(twin, row(2, lesson) + "\n");
    await importFile({ ...s, swarm: other }, twin, { format: "opencode-swarm", trusted: true, bulkNeighbours: false });
    await s.swarm.writeBatch(async () => {
      const n = await findNeighbours(s.swarm, lesson, threshold, undefined, undefined, index);
      assert.equal(n.duplicate?.entry.lesson, lesson);
    });
  });
});
