// An import without --trusted stores lessons, not the machine records (test fixtures, JSON blobs) that leak into memory files.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ConfigSchema } from "../../src/config.js";
import { importFile } from "../../src/io/import-file.js";
import { validateLessonText } from "../../src/quality/gates.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { MEMORIES_FILE, WITHOUT_MEMORIES } from "../helpers/shared-data.js";
import { tmpDir } from "./helpers.js";

const isJsonRecord = (text: string): boolean => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null;
  } catch {
    return false;
  }
};

test("real file: an import without --trusted stores none of the memories that are JSON records, and says why it refused them", { skip: WITHOUT_MEMORIES }, async () => {
  const dir = tmpDir();
  const s: Services & { swarm: SqliteStore; hive: SqliteStore } = {
    swarm: new SqliteStore(path.join(dir, "swarm.db"), "swarm"),
    hive: new SqliteStore(path.join(dir, "hive.db"), "hive"),
    config: ConfigSchema.parse({}),
    project: { id: "p_0123456789abcdef", name: "import-records", dir },
    now: () => new Date("2026-03-01T12:00:00Z"),
  };
  try {
    const records = fs.readFileSync(MEMORIES_FILE, "utf8").split("\n").filter((l) => {
      try {
        return isJsonRecord(String((JSON.parse(l) as { information?: unknown }).information ?? "").trim());
      } catch {
        return false;
      }
    }).length;
    assert.ok(records > 100, `the sample holds JSON records as memories: ${records}`);
    const report = await importFile(s, MEMORIES_FILE, { format: "swarm-tools" });
    const stored = await s.swarm.listEntries({}, { limit: 10_000 });
    const blobs = stored.filter((e) => isJsonRecord(e.lesson.trim()));
    assert.deepEqual(blobs.map((e) => e.lesson.slice(0, 80)), [], "a JSON record was stored as a lesson");
    assert.ok(report.rejections.some((r) => /record/i.test(r.reason)), JSON.stringify(report.rejections.slice(0, 3)));
  } finally {
    await s.swarm.close();
    await s.hive.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the gate refuses a lesson that is a JSON object or array, and keeps sentences that quote JSON", () => {
  for (const text of [
    '{"id":"pattern-1766641846497-4fhjdm","content":"Test pattern for semantic search","kind":"pattern"}',
    '[{"criterion":"type_safe","type":"helpful","raw_value":1}]',
    '  {\n  "retries": 3,\n  "backoff_ms": 250\n}  ',
  ]) {
    const r = validateLessonText(text);
    assert.equal(r.ok, false, text);
    assert.ok(r.issues.some((i) => i.code === "data_record"), `${text}: ${JSON.stringify(r.issues)}`);
    assert.ok(!validateLessonText(text, { trusted: true }).issues.some((i) => i.code === "data_record"), "a trusted import keeps what a person chose to load");
  }
  for (const text of [
    'Set {"strict": true} in tsconfig.json before enabling the noUncheckedIndexedAccess flag in the web package.',
    '{"strict": true} in tsconfig.json must come before noUncheckedIndexedAccess, or the web build misses index checks.',
    "[WARN] lines from the billing worker mean the Stripe webhook retried; check the idempotency key first.",
  ]) {
    assert.ok(!validateLessonText(text).issues.some((i) => i.code === "data_record"), text);
  }
});
