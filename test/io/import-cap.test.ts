// A lossless restore keeps each tier within its cap, as every other write does (it used to take a tier past it).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { withCairn } from "../helpers/engine.js";

const topics = ["billing cron", "ledger close", "webhook secret", "search reindex", "gzip threshold", "session cookie", "image resize", "queue retry",
  "csv export", "pdf render", "cache warmup", "tls renewal", "log rotation", "rate limiter", "feature flag"];

test("regression: importing a lossless export into a tier with a smaller cap evicts down to the cap and reports it", async () => {
  let exported = "";
  await withCairn(async (c, sb) => {
    for (const [i, t] of topics.entries()) {
      const r = await c.add({ lesson: `For the ${t} job, use worker pool ${i + 1} in src/jobs/${t.replace(" ", "_")}.ts and never the default pool.`, category: "process" });
      assert.equal(r.action, "added", r.reason);
    }
    exported = path.join(sb.root, "lessons.cairn.jsonl");
    assert.equal((await c.exportFile(exported, { tier: "swarm" })).written, topics.length);
    // Keep the file beyond this sandbox: the next engine is a new project with a cap of 10.
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cairn-cap-")), "lessons.cairn.jsonl");
    fs.copyFileSync(exported, copy);
    exported = copy;
  });
  await withCairn(async (c) => {
    const report = await c.importFile(exported, { trusted: true });
    assert.equal(report.imported, topics.length);
    assert.equal(report.evicted, topics.length - 10);
    assert.equal((await c.list({ tier: "swarm", limit: 100 })).length, 10);
  }, { config: { knowledge: { swarm_max_entries: 10 } } });
});

test("regression 16.4: a trusted opencode-swarm import, whose cap is applied once at the end, still leaves the tier at its cap", async () => {
  await withCairn(async (c, sb) => {
    const file = path.join(sb.root, "knowledge.jsonl");
    fs.writeFileSync(file, topics.map((t, i) => JSON.stringify({
      id: `k-${i}`, tier: "swarm", lesson: `For the ${t} job, use worker pool ${i + 1} in src/jobs/${t.replace(" ", "_")}.ts and never the default pool.`,
      category: "process", confidence: 0.6, status: "candidate", created_at: "2026-01-02T03:04:05Z",
    })).join("\n") + "\n");
    const report = await c.importFile(file, { format: "opencode-swarm", trusted: true });
    assert.equal(report.imported, topics.length);
    assert.equal(report.evicted, topics.length - 10);
    assert.equal((await c.list({ tier: "swarm", limit: 100 })).length, 10);
  }, { config: { knowledge: { swarm_max_entries: 10 } } });
});
