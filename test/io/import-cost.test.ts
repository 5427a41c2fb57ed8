// What a trusted bulk import costs per row, counted in SQL statements so a loaded machine cannot move it (issue 16.4).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ConfigSchema } from "../../src/config.js";
import { importFile } from "../../src/io/import-file.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { ftsLeavesWritten } from "./fts-leaves.js";
import { tmpDir } from "./helpers.js";

function services(dir: string): Services & { swarm: SqliteStore; hive: SqliteStore } {
  return {
    swarm: new SqliteStore(path.join(dir, "swarm.db"), "swarm"),
    hive: new SqliteStore(path.join(dir, "hive.db"), "hive"),
    config: ConfigSchema.parse({ knowledge: { swarm_max_entries: 100_000 } }),
    project: { id: "p_0123456789abcdef", name: "import-cost", dir },
    now: () => new Date("2026-03-01T12:00:00Z"),
  };
}

const TOOLS = ["vitest", "prisma", "docker", "redis", "kafka", "eslint", "webpack", "nginx", "postgres", "terraform", "helm", "jest"];
const PARTS = ["cache", "queue", "schema", "worker", "gateway", "session", "index", "bucket", "cron", "lockfile", "mirror"];

/** Distinct lessons sharing a vocabulary, as a real knowledge file does: neighbours are found, none is a duplicate. */
function row(i: number): string {
  const tool = TOOLS[i % TOOLS.length]!;
  const part = PARTS[(i * 7) % PARTS.length]!;
  const lesson = `${tool} ${part} ${i % 3 ? "times out" : "fails"} on worker ${i} unless its ${PARTS[(i * 5) % PARTS.length]} is warmed first (incident INC-${5000 + i}).`;
  return JSON.stringify({ id: `k-${i}`, tier: "swarm", lesson, category: "tooling", tags: [tool], confidence: 0.6, status: "candidate", created_at: "2026-01-02T03:04:05Z" });
}

test("regression 16.4: a trusted import through the write path runs a bounded number of statements per row", async () => {
  const dir = tmpDir();
  const s = services(dir);
  try {
    // Past the size where term frequencies prune the neighbour search, so those reads are counted too.
    const n = 900;
    const file = path.join(dir, "knowledge.jsonl");
    fs.writeFileSync(file, Array.from({ length: n }, (_, i) => row(i)).join("\n") + "\n");
    const before = s.swarm.driver.statementsRun;
    const leavesBefore = ftsLeavesWritten(s.swarm);
    const report = await importFile(s, file, { format: "opencode-swarm", trusted: true });
    assert.equal(report.imported + report.reinforced, n, JSON.stringify({ ...report, rejections: report.rejections.slice(0, 3) }));
    const perRow = (s.swarm.driver.statementsRun - before) / n;
    // Per row: the exact-text read, the neighbour search, the twin check, the row, its event, the size
    // reads; term frequencies now and then. Not the rejected list: a trusted import stores what was refused.
    assert.ok(perRow <= 8, `${perRow.toFixed(2)} statements per row`);
    // New rows are inserted a batch at a time: row by row FTS5 wrote at least a leaf per row (≥ 900).
    const leaves = ftsLeavesWritten(s.swarm) - leavesBefore;
    assert.ok(leaves < n / 4, `${leaves} full-text leaves written for ${n} rows`);
  } finally {
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
