// A trusted import's queued inserts (issue 16.4) store exactly what row-by-row inserts stored: same report, same rows, same events, one full-text pass per batch.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ConfigSchema } from "../../src/config.js";
import { importFile, type ImportReport } from "../../src/io/import-file.js";
import { BulkNeighbours } from "../../src/lifecycle/bulk-neighbours.js";
import { InsertQueue } from "../../src/lifecycle/insert-queue.js";
import { NewEntryInputSchema } from "../../src/core/entry.js";
import { writeLesson } from "../../src/lifecycle/write.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { ftsLeavesWritten } from "./fts-leaves.js";
import { tmpDir } from "./helpers.js";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const PAIRS = fs.readFileSync(path.join(ROOT, "eval/dedup-pairs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { a: string; b: string; label: string });
const TOOLS = ["vitest", "prisma", "docker", "redis", "kafka", "eslint", "webpack", "nginx", "postgres", "terraform", "helm", "jest"];
const PARTS = ["cache", "queue", "schema", "worker", "gateway", "session", "index", "bucket", "cron", "lockfile", "mirror"];

type TestServices = Services & { swarm: SqliteStore; hive: SqliteStore };

function services(dir: string): TestServices {
  fs.mkdirSync(dir, { recursive: true });
  return {
    swarm: new SqliteStore(path.join(dir, "swarm.db"), "swarm"),
    hive: new SqliteStore(path.join(dir, "hive.db"), "hive"),
    config: ConfigSchema.parse({ knowledge: { swarm_max_entries: 100_000, hive_max_entries: 100_000 } }),
    project: { id: "p_0123456789abcdef", name: "import-queue", dir },
    now: () => new Date("2026-03-01T12:00:00Z"),
  };
}

function row(id: string, lesson: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ id, tier: "swarm", lesson, category: "tooling", confidence: 0.6, status: "candidate", created_at: "2026-01-02T03:04:05Z", ...extra });
}

function filler(i: number): string {
  const tool = TOOLS[i % TOOLS.length]!;
  const part = PARTS[(i * 7) % PARTS.length]!;
  return `${tool} ${part} ${i % 3 ? "times out" : "fails"} on worker ${i % 40} unless its ${PARTS[(i * 5) % PARTS.length]} is warmed first.`;
}

/**
 * Each pair's two sides a few rows apart (so the second meets the first while it is still queued):
 * exact twins, paraphrases, contradictions, look-alikes; repeats from other phases (a reinforcement
 * that writes), a quarantined lesson met again, hive rows, a secret, a bad line.
 */
function corpus(): string[] {
  const out: string[] = [];
  PAIRS.forEach((p, i) => {
    const hive = i % 7 === 0 ? { tier: "hive" } : {};
    out.push(row(`a-${i}`, p.a, hive));
    out.push(row(`f-${i}`, filler(i)));
    out.push(row(`b-${i}`, p.b, i % 3 === 0 ? { ...hive, confirmed_by: [{ phase_number: 2 + (i % 4) }] } : hive));
    if (i % 11 === 0) out.push(row(`again-${i}`, p.a, { ...hive, confirmed_by: [{ phase_number: 9 }] }));
    if (i % 37 === 0) out.push(row(`q-${i}`, `${filler(i + 500)} Quarantined copy ${i}.`, { status: "quarantined" }));
    if (i % 37 === 1) out.push(row(`qq-${i}`, `${filler(i + 499)} Quarantined copy ${i - 1}.`));
    if (i === 40) out.push("{ not json");
    // Made up in pieces (AWS's documented EXAMPLE key is a stand-in the gate lets through).
    if (i === 60) out.push(row("secret", `Deploy with the key ${"AKIA" + "Q7ZK3M2XW9TR4PLB"} and secret ${"k8Vq2Lx9Rt4Wm7Zp3Nc6" + "Hy1Bd5Gf0Js8Ue2Ao4Ti"} in CI.`));
  });
  return out;
}

/** Everything stored, with random ids replaced by handles and clock times written since `since` by a mark, so two runs compare equal. */
function contents(s: TestServices, since: number): unknown {
  const dump = (store: SqliteStore) => {
    // The derived columns too: a queued row's are computed once, for the in-memory index and its insert.
    const entries = store.driver.all<{ id: string; seq: number; data: string }>("SELECT id, seq, data, search_text, fingerprint FROM entries ORDER BY seq", []);
    const events = store.driver.all<{ entry_id: string; type: string; at: string; actor: string; data: string }>("SELECT entry_id, type, at, actor, data FROM events ORDER BY seq", []);
    const rejected = store.driver.all("SELECT * FROM rejected ORDER BY rowid", []);
    return { entries, events, rejected };
  };
  const both = { swarm: dump(s.swarm), hive: dump(s.hive) };
  let text = JSON.stringify(both);
  for (const [tier, d] of Object.entries(both)) for (const e of d.entries) text = text.replaceAll(e.id, `${tier}#${e.seq}`);
  // Updates stamp the wall clock, not the services' clock.
  text = text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, (t) => (Date.parse(t) >= since ? "<clock>" : t));
  return JSON.parse(text);
}

async function load(queueInserts: boolean): Promise<{ report: ImportReport; stored: unknown; leaves: number }> {
  const dir = tmpDir();
  const s = services(dir);
  try {
    const file = path.join(dir, "knowledge.jsonl");
    fs.writeFileSync(file, corpus().join("\n") + "\n");
    const before = ftsLeavesWritten(s.swarm);
    const since = Date.now() - 1000;
    const report = await importFile(s, file, { format: "opencode-swarm", trusted: true, bulkNeighbours: true, queueInserts, actor: "import:test" });
    return { report, stored: contents(s, since), leaves: ftsLeavesWritten(s.swarm) - before };
  } finally {
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("regression 16.4: queued inserts store the same rows, events and report as row-by-row inserts, twins and near-twins in one batch included", async () => {
  const rowByRow = await load(false);
  const queued = await load(true);
  const r = rowByRow.report;
  // The corpus exercises each decision.
  assert.ok(r.reinforced > 50 && r.imported > 500 && r.rejected >= 1 && r.skipped_lines.length === 1, JSON.stringify({ ...r, rejections: r.rejections.slice(0, 3) }));
  const stored = rowByRow.stored as { swarm: { entries: Array<{ data: string }>; events: Array<{ type: string }> }; hive: { entries: unknown[] } };
  assert.ok(stored.swarm.entries.some((e) => e.data.includes('"contradicts:')), "a contradiction flagged");
  assert.ok(stored.swarm.entries.some((e) => e.data.includes('"superseded_by"')), "a lesson superseded");
  assert.ok(stored.swarm.events.filter((e) => e.type === "reinforced").length > 10, "reinforcements that write");
  assert.ok(stored.hive.entries.length > 20, "hive rows");
  assert.deepEqual(queued.report, rowByRow.report);
  assert.deepEqual(queued.stored, rowByRow.stored);
  // Row by row FTS5 wrote at least a leaf per inserted row. Queued, only the rows between two other
  // writes share theirs, and here a third of the rows write a reinforcement (each flushes the queue).
  assert.ok(rowByRow.leaves >= r.imported * 0.8, `row by row: ${rowByRow.leaves} leaves`);
  assert.ok(queued.leaves < rowByRow.leaves * 0.8, `${queued.leaves} full-text leaves queued vs ${rowByRow.leaves} row by row`);
});

test("regression 16.4: a queued row whose lesson another writer of the process stores before the flush is reported as a sighting, not stored twice", async () => {
  const dir = tmpDir();
  const s = services(dir);
  const index = BulkNeighbours.for(s.swarm)!;
  try {
    const queue = new InsertQueue((store) => (store === s.swarm ? index : undefined));
    const input = (lesson: string) => NewEntryInputSchema.parse({ lesson, category: "tooling" });
    const opts = { tier: "swarm" as const, actor: "import:test", source: "import" as const, trusted: true, deferCap: true, neighbourIndex: index, insertQueue: queue };
    const lesson = "Vitest workers need their own cache directory per worker, otherwise incident INC-77 repeats.";
    await s.swarm.writeBatch(async () => {
      const first = await writeLesson(s, input(lesson), opts);
      assert.equal(first.action, "added");
      assert.ok(queue.holds(first.id!), "queued, not yet stored");
      assert.equal(await s.swarm.countEntries(), 0);
      // Another add of this process joins the batch and stores the same lesson first.
      await writeLesson(s, input(lesson), { tier: "swarm", actor: "agent:other", source: "add" });
      await queue.flush();
    });
    const late = queue.takeLate();
    assert.equal(late.length, 1);
    assert.equal(late[0]!.result.action, "reinforced");
    assert.equal(await s.swarm.countEntries(), 1, "no twin");
    // The index forgot the row that was never stored: a search does not offer it.
    const hits = await index.search(["vitest", "cache", "worker"], ["candidate"], 5);
    assert.deepEqual(hits.map((h) => h.entry.provenance.created_by), ["agent:other"]);
  } finally {
    index.close();
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
