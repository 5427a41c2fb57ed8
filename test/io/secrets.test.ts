// Error messages must never echo line content: a token inside a malformed line stays out of every error.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigSchema } from "../../src/config.js";
import { importFile } from "../../src/io/import-file.js";
import { parseFile } from "../../src/io/parse.js";
import type { Services } from "../../src/services.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { IMPORT_FORMATS } from "../../src/io/types.js";
import { collect, writeTmp } from "./helpers.js";

const TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

const malformed = [
  `{"id":"1","information":"token ${TOKEN}"`, // cut off
  `{"id":"1","information":"token ${TOKEN}"}{"id":"2"}`, // two objects
  `{"id":"1","information":"x"} ${TOKEN}`, // trailing junk
  `${TOKEN}`, // bare word
  `{"id":"1", ${TOKEN}: "x"}`, // unquoted key
  `"${TOKEN}"`, // a JSON string, not an object
  JSON.stringify({ id: TOKEN, information: 5, lesson: 5, tier: TOKEN, category: 5 }), // wrong types
  JSON.stringify({ id: "x", information: [TOKEN], lesson: [TOKEN], tags: TOKEN, handle: 1 }),
  JSON.stringify({ cairn_export: 1, schema_version: 2, note: TOKEN }),
];

test("no error message contains the token, in any format", async () => {
  assert.equal(TOKEN.length, 40);
  for (const format of IMPORT_FORMATS.filter((f) => f !== "context-md")) {
    const file = writeTmp("data.jsonl", malformed.join("\n") + "\n");
    const { bad } = await collect(parseFile(file, format));
    assert.equal(bad.length, malformed.length, `${format}: every line should be reported`);
    for (const b of bad) {
      assert.ok(!b.error.includes("ghp_"), `${format} line ${b.line}: ${b.error}`);
      assert.ok(!b.error.includes(TOKEN.slice(10, 20)), `${format} line ${b.line}: ${b.error}`);
      assert.ok(b.error.length > 0);
    }
  }
});

test("the two-objects line gets the helpful wording", async () => {
  const file = writeTmp("memories.jsonl", malformed[1] + "\n");
  const { bad } = await collect(parseFile(file, "swarm-tools"));
  assert.deepEqual(bad, [{ line: 1, error: "not valid JSON (two objects on one line?)" }]);
});

test("regression 16.4: a lossless restore screens the free-text fields besides the lesson; a token in a title or reason is never stored", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-restore-secret-"));
  const swarm = new SqliteStore(path.join(dir, "swarm.db"), "swarm");
  const hive = new SqliteStore(path.join(dir, "hive.db"), "hive");
  const s: Services = { swarm, hive, config: ConfigSchema.parse({}), project: { id: "p_0123456789abcdef", name: "restore", dir }, now: () => new Date("2026-03-01T12:00:00Z") };
  try {
    const at = "2026-01-02T03:04:05.000Z";
    const entry = (id: string, extra: Record<string, unknown>) => ({
      id, handle: "S-1", tier: "swarm", lesson: `Pin the ${id} runner image digest; a floating tag broke the release build.`, category: "tooling", kind: "learning",
      created_at: at, updated_at: at, ...extra,
    });
    const file = path.join(dir, "backup.jsonl");
    fs.writeFileSync(file, [
      JSON.stringify({ cairn_export: 1, schema_version: 1 }),
      JSON.stringify(entry("0190a0a0-0000-7000-8000-000000000001", { title: `deploy token ${TOKEN}` })),
      JSON.stringify(entry("0190a0a0-0000-7000-8000-000000000002", { why: `the job used ${TOKEN}` })),
      JSON.stringify(entry("0190a0a0-0000-7000-8000-000000000003", { why: "the tag moved under us" })),
    ].join("\n") + "\n");
    const report = await importFile(s, file, { format: "cairn", trusted: true });
    assert.equal(report.imported, 1, JSON.stringify(report));
    assert.equal(report.rejected, 2);
    for (const r of report.rejections) assert.ok(!r.reason.includes(TOKEN.slice(10, 20)), r.reason);
    await swarm.close();
    await hive.close();
    for (const f of fs.readdirSync(dir)) {
      if (f.startsWith("swarm.db")) assert.ok(!fs.readFileSync(path.join(dir, f)).includes(TOKEN), `${f} holds the token`);
    }
  } finally {
    await swarm.close().catch(() => {});
    await hive.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
