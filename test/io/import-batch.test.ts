// Bulk import commits in batches (issue 16.4) without changing what a row-by-row import did: dedup, bad lines, counts.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ConfigSchema } from "../../src/config.js";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { fingerprintLesson } from "../../src/core/ids.js";
import { importFile } from "../../src/io/import-file.js";
import { Restorer } from "../../src/io/restore.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { ftsLeavesWritten } from "./fts-leaves.js";
import { tmpDir } from "./helpers.js";

function services(dir: string): Services & { swarm: SqliteStore; hive: SqliteStore } {
  return {
    swarm: new SqliteStore(path.join(dir, "swarm.db"), "swarm"),
    hive: new SqliteStore(path.join(dir, "hive.db"), "hive"),
    config: ConfigSchema.parse({ knowledge: { swarm_max_entries: 100_000 } }),
    project: { id: "p_0123456789abcdef", name: "batch-test", dir },
    now: () => new Date("2026-03-01T12:00:00Z"),
  };
}

const TOPICS = ["vitest", "prisma", "docker", "redis", "kafka", "eslint", "webpack", "nginx", "postgres", "terraform"];
/** Distinct lessons: each names its own incident, so none is a near-duplicate of another. */
function lesson(i: number): string {
  const t = TOPICS[i % TOPICS.length]!;
  return `${t[0]!.toUpperCase()}${t.slice(1)} job ${i} needs its own cache directory per worker, otherwise incident INC-${1000 + i} repeats.`;
}

function row(i: number, text = lesson(i)): string {
  return JSON.stringify({ id: `k-${i}`, tier: "swarm", lesson: text, category: "tooling", tags: ["ci"], confidence: 0.6, status: "candidate", created_at: "2026-01-02T03:04:05Z" });
}

test("regression 16.4: a batched import with in-batch duplicates and a bad line mid-file imports every good row, reports the line, and dedups", async () => {
  const dir = tmpDir();
  const s = services(dir);
  try {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) lines.push(row(i));
    lines.push("{ this line is not json");                          // line 41
    lines.push(row(100, lesson(3)));                                  // line 42: an exact duplicate of line 4, same batch
    lines.push(row(101, lesson(3)));                                  // line 43: and again
    lines.push(row(102, `  ${lesson(7)}  `));                         // line 44: line 8 with stray spaces
    for (let i = 40; i < 60; i++) lines.push(row(i));
    const file = path.join(dir, "knowledge.jsonl");
    fs.writeFileSync(file, lines.join("\n") + "\n");

    const report = await importFile(s, file, { format: "opencode-swarm", trusted: true, actor: "import:test" });
    assert.equal(report.imported, 60, JSON.stringify(report));
    assert.equal(report.reinforced, 3);
    assert.equal(report.rejected, 0);
    assert.deepEqual(report.skipped_lines.map((b) => b.line), [41]);
    assert.equal(await s.swarm.countEntries(), 60);
    const twin = (await s.swarm.listEntries({}, { limit: 100 })).filter((e) => e.lesson === lesson(3));
    assert.equal(twin.length, 1, "one entry for the repeated lesson");
    // The repeats are sightings from one route on one day: at most one confirmation, as row by row.
    assert.ok(twin[0]!.lifecycle.confirmations.length <= 1, JSON.stringify(twin[0]!.lifecycle.confirmations));

    // Running it again changes nothing: every row is already known.
    const again = await importFile(s, file, { format: "opencode-swarm", trusted: true, actor: "import:test" });
    assert.equal(again.imported, 0);
    assert.equal(await s.swarm.countEntries(), 60);
  } finally {
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("regression 16.4: an import commits once per batch, not once per row (lossless and through the write path)", async () => {
  const dir = tmpDir();
  const s = services(dir);
  try {
    const n = 600;
    const opencode = path.join(dir, "knowledge.jsonl");
    fs.writeFileSync(opencode, Array.from({ length: n }, (_, i) => row(i)).join("\n") + "\n");
    const before = s.swarm.driver.commits;
    const a = await importFile(s, opencode, { format: "opencode-swarm", trusted: true });
    assert.equal(a.imported, n);
    const viaWritePath = s.swarm.driver.commits - before;
    // A batch closes after 1,000 rows or 250 ms, so the count depends on the machine's speed: seen 83 for
    // 600 rows at a load average of 20 on 2 cores. One commit per row would be 600; half of that is the
    // bound, which holds while a row takes under 125 ms.
    const bound = n / 2;
    assert.ok(viaWritePath >= 1 && viaWritePath <= bound, `${viaWritePath} commits for ${n} rows`);

    const exported = path.join(dir, "backup.jsonl");
    const entries = await s.swarm.listEntries({}, { limit: n });
    fs.writeFileSync(exported, entries.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const fresh = services(path.join(dir, "fresh"));
    try {
      const b0 = fresh.swarm.driver.commits;
      const b = await importFile(fresh, exported, { format: "cairn" });
      assert.equal(b.imported, n, JSON.stringify({ ...b, rejections: b.rejections.slice(0, 3), skipped_lines: b.skipped_lines.slice(0, 3) }));
      const lossless = fresh.swarm.driver.commits - b0;
      assert.ok(lossless >= 1 && lossless <= bound, `${lossless} commits for ${n} lossless rows`);
    } finally {
      await fresh.swarm.close();
      await fresh.hive.close();
    }
  } finally {
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("regression 16.4: a lossless import indexes a batch's text in one pass, not a full-text segment per row", async () => {
  const dir = tmpDir();
  const s = services(dir);
  const fresh = services(path.join(dir, "fresh"));
  try {
    const n = 400;
    const source = path.join(dir, "knowledge.jsonl");
    fs.writeFileSync(source, Array.from({ length: n }, (_, i) => row(i)).join("\n") + "\n");
    assert.equal((await importFile(s, source, { format: "opencode-swarm", trusted: true })).imported, n);
    const exported = path.join(dir, "backup.jsonl");
    fs.writeFileSync(exported, (await s.swarm.listEntries({}, { limit: n })).map((e) => JSON.stringify(e)).join("\n") + "\n");

    const before = ftsLeavesWritten(fresh.swarm);
    const report = await importFile(fresh, exported, { format: "cairn" });
    assert.equal(report.imported, n);
    const leaves = ftsLeavesWritten(fresh.swarm) - before;
    // Row by row this was ≥ 400 (one flush, so at least one leaf, per row); the whole text fits in far fewer.
    assert.ok(leaves < n / 4, `${leaves} full-text leaves written for ${n} rows`);
    // Every row is found by its own words, and the index agrees with the table.
    for (const i of [0, 137, 399]) {
      const hits = await fresh.swarm.searchEntries(["incident", `INC-${1000 + i}`], {}, 3);
      assert.equal(hits[0]?.entry.provenance.external_id, `k-${i}`, `row ${i} found`);
    }
    fresh.swarm.driver.run("INSERT INTO entries_fts(entries_fts, rank) VALUES ('integrity-check', 1)");
  } finally {
    for (const x of [s, fresh]) {
      await x.swarm.close();
      await x.hive.close();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("regression 16.4: a lesson or id another process stores between a restore's key read and its flush is reported, not doubled", async () => {
  const dir = tmpDir();
  const s = services(dir);
  const rival = new SqliteStore(path.join(dir, "swarm.db"), "swarm");
  try {
    const at = "2026-01-02T03:04:05.000Z";
    const make = (i: number): Entry => EntrySchema.parse({ id: `e-${i}`, handle: "", tier: "swarm", lesson: lesson(i), category: "tooling", kind: "learning", created_at: at, updated_at: at });
    const restorer = new Restorer(s, "import:test");
    // The first row reads the tier's keys; every row is new then.
    for (let i = 0; i < 4; i++) assert.equal(await restorer.restore(make(i)), "imported");
    // Another process stores the same lesson under another id, and the very same entry.
    await rival.insertEntry({ ...make(1), id: "rival-twin" }, { type: "created", actor: "test" }, { unique: true });
    await rival.insertEntry(make(2), { type: "created", actor: "test" }, { unique: true });
    const late = await s.swarm.writeBatch(() => restorer.flush());
    assert.deepEqual(late, { reinforced: 1, unchanged: 1 });
    assert.equal(await s.swarm.countEntries(), 4, "rows 0 and 3 from the restore, the rival's two; no twin");
    assert.equal((await s.swarm.findByFingerprint(fingerprintLesson(make(1).lesson))).length, 1);
    assert.equal(restorer.pending, false);
  } finally {
    await rival.close();
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a trusted import runs as one bulk load of each open tier's store (usual settings after it); an untrusted one keeps the usual settings throughout", async () => {
  const dir = tmpDir();
  const s = services(dir);
  try {
    const file = path.join(dir, "knowledge.jsonl");
    fs.writeFileSync(file, Array.from({ length: 30 }, (_, i) => row(i)).join("\n") + "\n");
    await importFile(s, file, { format: "opencode-swarm", actor: "import:test" });
    assert.deepEqual([s.swarm.driver.bulkLoadsEnded, s.hive.driver.bulkLoadsEnded], [0, 0]);
    const report = await importFile(s, file, { format: "opencode-swarm", trusted: true, actor: "import:test" });
    assert.equal(report.reinforced, 30, JSON.stringify(report));
    assert.deepEqual([s.swarm.driver.bulkLoadsEnded, s.hive.driver.bulkLoadsEnded], [1, 1]);
    assert.equal(s.swarm.driver.get<{ cache_size: number }>("PRAGMA cache_size")!.cache_size, -2000, "SQLite's default cache again");
  } finally {
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
