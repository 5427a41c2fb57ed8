// Large imports are parsed and gated in a worker thread (issue 16.4): the store ends up the same as on the main thread, and a worker that cannot start changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ConfigSchema } from "../../src/config.js";
import { importFile, type ImportReport } from "../../src/io/import-file.js";
import { importWorkerStats, prepareFile, WORKER_MIN_BYTES, type PreparedItem } from "../../src/io/prepare.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { tmpDir } from "./helpers.js";

const TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2";
const TOOLS = ["vitest", "prisma", "docker", "redis", "kafka", "eslint", "webpack", "nginx", "postgres", "terraform"];
const PARTS = ["cache", "queue", "schema", "worker", "gateway", "session", "index", "bucket"];

function services(dir: string): Services & { swarm: SqliteStore; hive: SqliteStore } {
  return {
    swarm: new SqliteStore(path.join(dir, "swarm.db"), "swarm"),
    hive: new SqliteStore(path.join(dir, "hive.db"), "hive"),
    config: ConfigSchema.parse({ knowledge: { swarm_max_entries: 100_000, hive_max_entries: 100_000 } }),
    project: { id: "p_0123456789abcdef", name: "import-worker", dir },
    now: () => new Date("2026-03-01T12:00:00Z"),
  };
}

/** An opencode-swarm file past the worker threshold: distinct lessons, exact and near repeats, a bad line, a secret, hive rows. */
function swarmFile(dir: string): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < WORKER_MIN_BYTES * 1.1; i++) {
    const tool = TOOLS[i % TOOLS.length]!;
    const part = PARTS[(i * 3) % PARTS.length]!;
    let lesson = `${tool} ${part} fails on worker ${i} unless its ${PARTS[(i * 5) % PARTS.length]} is warmed first (incident INC-${7000 + i}); ${`ticket T-${i} tracks the ${part} recovery for ${tool}. `.repeat(12)}`;
    if (i % 50 === 7 && i > 50) lesson = (JSON.parse(lines[i - 50]!) as { lesson: string }).lesson; // an exact repeat of an earlier row
    if (i % 50 === 9 && i > 50) lesson = `${(JSON.parse(lines[i - 50]!) as { lesson: string }).lesson} Always.`; // a near repeat
    if (i === 333) lesson = `Deploy with token ${TOKEN} for the ${tool} ${part} job.`;
    const tier = i % 17 === 0 ? "hive" : "swarm";
    lines.push(JSON.stringify({ id: `k-${i}`, tier, lesson, category: "tooling", tags: [tool], confidence: 0.6, status: "candidate", created_at: "2026-01-02T03:04:05Z" }));
    if (i === 100) lines.push("{ not json");
  }
  const file = path.join(dir, "knowledge.jsonl");
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

/** What a user sees of a store: each entry's text, status, handle, confirmations and flags (ids are new on every import). */
async function contents(s: Services & { swarm: SqliteStore; hive: SqliteStore }): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const store of [s.swarm, s.hive]) {
    const entries = await store.listEntries({}, { limit: 100_000, order: "oldest" });
    // A contradiction flag names an id, new on every import: compared by the handle it points to.
    const handles = new Map(entries.map((e) => [e.id, e.handle]));
    for (const e of entries) {
      const flags = e.lifecycle.flags.map((f) => f.replace(/^contradicts:(.+)$/, (_, id: string) => `contradicts:${handles.get(id) ?? "?"}`));
      out.push([e.handle, e.lesson, e.lifecycle.status, e.lifecycle.confirmations.length, flags, e.provenance.external_id]);
    }
  }
  return out;
}

/** Every column of every stored entry, as SQLite holds it (the search text, fingerprint and JSON a store derives included). */
function storedRows(s: Services & { swarm: SqliteStore; hive: SqliteStore }): unknown[] {
  return [s.swarm, s.hive].flatMap((store) => store.driver.all("SELECT * FROM entries ORDER BY seq", []));
}

async function importWith(workerEnv: string | undefined, file: string): Promise<{ report: ImportReport; store: unknown[]; rows: unknown[]; dbBytes: Buffer[] }> {
  const dir = tmpDir();
  const s = services(dir);
  const saved = process.env.CAIRN_IMPORT_WORKER;
  if (workerEnv === undefined) delete process.env.CAIRN_IMPORT_WORKER;
  else process.env.CAIRN_IMPORT_WORKER = workerEnv;
  try {
    const report = await importFile(s, file, { format: file.endsWith(".cairn.jsonl") ? "cairn" : "opencode-swarm", trusted: true, actor: "import:test" });
    const store = await contents(s);
    const rows = storedRows(s);
    await s.swarm.close();
    await s.hive.close();
    const dbBytes = fs.readdirSync(dir).filter((f) => f.endsWith(".db") || f.endsWith("-wal")).map((f) => fs.readFileSync(path.join(dir, f)));
    return { report, store, rows, dbBytes };
  } finally {
    if (saved === undefined) delete process.env.CAIRN_IMPORT_WORKER;
    else process.env.CAIRN_IMPORT_WORKER = saved;
    await s.swarm.close().catch(() => {});
    await s.hive.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("regression 16.4: a large opencode-swarm import gives the same report and store through the worker as on the main thread", async () => {
  const dir = tmpDir();
  try {
    const file = swarmFile(dir);
    const started = importWorkerStats.started;
    const viaWorker = await importWith(undefined, file);
    assert.equal(importWorkerStats.started, started + 1, "the worker ran");
    const onMain = await importWith("0", file);
    assert.equal(importWorkerStats.started, started + 1, "CAIRN_IMPORT_WORKER=0 keeps it on the main thread");
    assert.deepEqual(viaWorker.report, onMain.report);
    assert.deepEqual(viaWorker.store, onMain.store);
    assert.ok(viaWorker.report.reinforced > 0 && viaWorker.report.imported > 500, JSON.stringify({ ...viaWorker.report, rejections: [] }));
    assert.deepEqual(viaWorker.report.skipped_lines.map((b) => b.line), [102]);
    // Hive rows are fully validated (these are over its length limit); the row with a token is refused in either tier.
    assert.ok(viaWorker.report.rejections.some((r) => r.line === 335 && !r.reason.includes(TOKEN.slice(8, 20))), JSON.stringify(viaWorker.report.rejections.find((r) => r.line === 335)));
    for (const bytes of [...viaWorker.dbBytes, ...onMain.dbBytes]) assert.ok(!bytes.includes(TOKEN), "no database file holds the token");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("regression 16.4: a lossless restore through the worker still refuses a row whose lesson holds a secret, and stores the rest as on the main thread", async () => {
  const dir = tmpDir();
  try {
    const at = "2026-01-02T03:04:05.000Z";
    const lines = [JSON.stringify({ cairn_export: 1, schema_version: 1 })];
    for (let i = 0; lines.join("\n").length < WORKER_MIN_BYTES * 1.1; i++) {
      const id = `0190a0a0-0000-7000-8000-${String(i).padStart(12, "0")}`;
      const lesson = i === 500
        ? `Use the deploy token ${TOKEN} when the release job asks for one.`
        // Every tenth lesson carries a zero-width space the gates take out: it is stored (and indexed) without it.
        : `Pin the runner image digest for job ${i}; a floating tag broke release ${i}.${i % 10 === 3 ? "\u200b" : ""} ${"Check the digest in the lockfile before merging. ".repeat(5)}`;
      const extra = i % 7 === 0 ? { title: `Runner digest ${i}`, tags: ["ci", `job-${i}`], applicability: { file_globs: [".github/workflows/*.yml"], triggers: ["floatingTag"] } } : {};
      lines.push(JSON.stringify({ id, handle: `S-${i + 1}`, tier: "swarm", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at, ...extra }));
    }
    const file = path.join(dir, "backup.cairn.jsonl");
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const started = importWorkerStats.started;
    const viaWorker = await importWith(undefined, file);
    assert.equal(importWorkerStats.started, started + 1, "the worker ran");
    const onMain = await importWith("0", file);
    assert.deepEqual(viaWorker.report, onMain.report);
    assert.deepEqual(viaWorker.store, onMain.store);
    // The worker derives each row's search text, fingerprint and JSON: the same bytes as the main thread's.
    assert.deepEqual(viaWorker.rows, onMain.rows);
    assert.ok(!(viaWorker.rows as Array<{ search_text: string; data: string }>).some((r) => r.search_text.includes("\u200b") || r.data.includes("\u200b") || r.data.includes("\\u200b")), "no stored row keeps the zero-width space");
    assert.equal(viaWorker.report.rejected, 1, JSON.stringify(viaWorker.report.rejections));
    assert.deepEqual(viaWorker.report.rejections.map((r) => r.line), [502]);
    assert.equal(viaWorker.report.imported, lines.length - 2);
    for (const bytes of [...viaWorker.dbBytes, ...onMain.dbBytes]) assert.ok(!bytes.includes(TOKEN), "no database file holds the token");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a worker that cannot start falls back to the main thread silently, with the same items", async () => {
  const dir = tmpDir();
  try {
    const file = swarmFile(dir);
    const broken = path.join(dir, "broken-worker.mjs");
    fs.writeFileSync(broken, "throw new Error('this worker cannot start');\n");
    const ctx = { config: services(dir).config, trusted: true, hive: true };
    const collect = async (it: AsyncIterable<PreparedItem>) => {
      const out: unknown[] = [];
      for await (const x of it) out.push(x.ok ? [x.record.line, x.record.input!.lesson] : [x.bad.line, x.bad.error]);
      return out;
    };
    const fellBack = importWorkerStats.fellBack;
    const fromBroken = await collect(prepareFile(file, "opencode-swarm", ctx, { workerUrl: new URL(`file://${broken}`) }));
    assert.equal(importWorkerStats.fellBack, fellBack + 1);
    const fromMain = await collect(prepareFile(file, "opencode-swarm", ctx, { minBytes: Infinity }));
    assert.deepEqual(fromBroken, fromMain);
    assert.ok(fromMain.length > 500);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
