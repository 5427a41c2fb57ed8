// The real agent memories imported --trusted: the in-memory neighbour index and the batched inserts decide every row as the per-row write path does.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ConfigSchema } from "../../src/config.js";
import { importFile, type ImportReport } from "../../src/io/import-file.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { MEMORIES_FILE, WITHOUT_MEMORIES } from "../helpers/shared-data.js";
import { tmpDir } from "./helpers.js";

function services(dir: string): Services & { swarm: SqliteStore; hive: SqliteStore } {
  return {
    swarm: new SqliteStore(path.join(dir, "swarm.db"), "swarm"),
    hive: new SqliteStore(path.join(dir, "hive.db"), "hive"),
    config: ConfigSchema.parse({ knowledge: { swarm_max_entries: 100_000, hive_max_entries: 100_000 } }),
    project: { id: "p_0123456789abcdef", name: "import-memories", dir },
    now: () => new Date("2026-03-01T12:00:00Z"),
  };
}

/** Each stored row as the import decided it: its lesson, status, sightings, and what it supersedes or contradicts (by lesson, as ids differ between runs). */
async function outcome(bulk: boolean): Promise<{ report: ImportReport; rows: unknown[] }> {
  const dir = tmpDir();
  const s = services(dir);
  try {
    const report = await importFile(s, MEMORIES_FILE, { format: "swarm-tools", trusted: true, bulkNeighbours: bulk, queueInserts: bulk });
    const entries = await s.swarm.listEntries({}, { limit: 100_000, order: "oldest" });
    const lessons = new Map(entries.map((e) => [e.id, e.lesson]));
    const rows = entries.map((e) => [
      e.provenance.external_id, e.lesson, e.lifecycle.status, e.lifecycle.confirmations.length,
      e.lifecycle.superseded_by ? lessons.get(e.lifecycle.superseded_by) : null,
      e.lifecycle.flags.map((f) => f.replace(/^contradicts:(.+)$/, (_, id: string) => `contradicts:${lessons.get(id) ?? "?"}`)),
    ]);
    return { report, rows };
  } finally {
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("real file: the 729 memories imported --trusted with the neighbour index and batched inserts are the rows, merges and flags of the per-row write path", { skip: WITHOUT_MEMORIES }, async () => {
  const perRow = await outcome(false);
  const bulk = await outcome(true);
  assert.equal(perRow.report.imported + perRow.report.reinforced + perRow.report.rejected, 729, JSON.stringify({ ...perRow.report, rejections: [] }));
  assert.ok(perRow.report.imported > 600, `most memories are distinct lessons: ${perRow.report.imported}`);
  assert.deepEqual(bulk.report, perRow.report);
  assert.deepEqual(bulk.rows, perRow.rows);
});
