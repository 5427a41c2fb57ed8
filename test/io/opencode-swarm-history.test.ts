// An opencode-swarm lesson's recorded life survives the import: every confirmed phase or project, its phase count, and the hive project it came from.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openCairn } from "../../src/index.js";
import { tmpDir } from "./helpers.js";

async function open(dir: string, name: string) {
  const projectDir = path.join(dir, name);
  fs.mkdirSync(projectDir, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: dir, XDG_DATA_HOME: path.join(dir, "data"), XDG_CONFIG_HOME: path.join(dir, "config") };
  return openCairn({ projectDir, hivePath: path.join(dir, "hive.db"), env, actor: "human:test" });
}

const phase = (n: number, at: string) => ({ phase_number: n, confirmed_at: at, project_name: "p7" });

for (const trusted of [true, false]) {
  test(`knowledge.jsonl (${trusted ? "trusted" : "checked"} import): every confirmed phase and the phase count are kept, so a lesson due for the hive is promoted`, async () => {
    const dir = tmpDir();
    const cairn = await open(dir, "p7");
    try {
      const file = path.join(dir, "knowledge.jsonl");
      fs.writeFileSync(file, JSON.stringify({
        id: "lesson-abc123", tier: "swarm", lesson: "Run prisma generate after editing schema.prisma, or the client keeps the old types.",
        category: "tooling", tags: ["prisma"], scope: "global", confidence: 0.8, status: "active", hive_eligible: true,
        confirmed_by: [phase(2, "2026-01-02T10:00:00Z"), phase(4, "2026-01-09T10:00:00Z"), phase(4, "2026-01-09T11:00:00Z"), phase(7, "2026-01-20T10:00:00Z")],
        phases_alive: 8, max_phases: 10, project_name: "p7", created_at: "2026-01-02T09:00:00Z",
      }) + "\n");
      const report = await cairn.importFile(file, { format: "opencode-swarm", trusted });
      assert.equal(report.imported, 1, JSON.stringify(report));
      const [e] = await cairn.list({ tier: "swarm" });
      assert.deepEqual(e!.lifecycle.confirmations.map((c) => c.phase), ["2", "4", "7"], "each distinct phase, once");
      assert.deepEqual(e!.lifecycle.confirmations.map((c) => c.at), ["2026-01-02T10:00:00.000Z", "2026-01-09T10:00:00.000Z", "2026-01-20T10:00:00.000Z"]);
      assert.equal(e!.lifecycle.phases_alive, 8);
      assert.equal(e!.lifecycle.status, "established", "three distinct phases establish a lesson, as they would have here");
      const promoted = await cairn.promoteDue();
      assert.equal(promoted.length, 1, "hive_eligible and three confirmed phases: due for the hive");
    } finally {
      await cairn.close();
    }
  });
}

test("shared-learnings.jsonl: the lesson keeps the project it came from and each project that confirmed it", async () => {
  const dir = tmpDir();
  const cairn = await open(dir, "p7");
  try {
    const file = path.join(dir, "shared-learnings.jsonl");
    fs.writeFileSync(file, JSON.stringify({
      id: "hive-1", tier: "hive", lesson: "Pin the Node version in .nvmrc and CI so native modules match the runtime.",
      category: "tooling", tags: ["node"], scope: "global", confidence: 0.8, status: "established",
      confirmed_by: [
        { project_name: "alpha", confirmed_at: "2026-01-02T10:00:00Z", phase_number: 1 },
        { project_name: "beta", confirmed_at: "2026-01-05T10:00:00Z" },
        { project_name: "p7", confirmed_at: "2026-01-08T10:00:00Z" },
      ],
      source_project: "alpha", encounter_score: 2.5, created_at: "2026-01-02T09:00:00Z",
    }) + "\n");
    const report = await cairn.importFile(file, { format: "opencode-swarm", trusted: true });
    assert.equal(report.imported, 1, JSON.stringify(report));
    const [e] = await cairn.list({ tier: "hive" });
    assert.equal(e!.provenance.source_project_name, "alpha");
    assert.notEqual(e!.provenance.source_project_id, cairn.project.id, "alpha is not the importing project");
    assert.equal(new Set(e!.lifecycle.confirmations.map((c) => c.project_id)).size, 3, "three projects confirmed it");
    assert.ok(e!.lifecycle.confirmations.some((c) => c.project_id === cairn.project.id), "p7's own sighting is this project's");
    const block = await cairn.inject({ task: "pin the node version for native modules in CI" });
    assert.match(block.text, /from alpha/);
    assert.doesNotMatch(block.text, /from p7/);
  } finally {
    await cairn.close();
  }
});

/** A knowledge.jsonl row whose retrieval_outcomes say how often it was shown, applied, ignored and violated. */
const usedRow = (lesson: string, outcomes: unknown) =>
  JSON.stringify({ id: `u-${lesson.length}`, tier: "swarm", lesson, category: "tooling", tags: [], scope: "global", confidence: 0.6, status: "active", confirmed_by: [], retrieval_outcomes: outcomes, project_name: "p7", created_at: "2026-01-02T09:00:00Z" });

for (const trusted of [true, false]) {
  test(`knowledge.jsonl (${trusted ? "trusted" : "checked"} import): retrieval_outcomes are kept as the lesson's usage, so utility and the low-utility flag carry over`, async () => {
    const dir = tmpDir();
    const cairn = await open(dir, "p7");
    try {
      const file = path.join(dir, "knowledge.jsonl");
      fs.writeFileSync(file, [
        // v2: shown and applied apart; applied_count is v1's frozen copy of shown.
        usedRow("Run prisma generate after editing schema.prisma, or the client keeps the old types.", {
          applied_count: 9, succeeded_after_count: 1, failed_after_count: 4, shown_count: 12, applied_explicit_count: 5, ignored_count: 3, violated_count: 8,
        }),
        // v1: applied_count counted every time the lesson was shown; nothing counted applications.
        usedRow("Pin the Node version in .nvmrc so native modules match the runtime in CI.", { applied_count: 7, succeeded_after_count: 2, failed_after_count: 1 }),
        // Seed 001's example writes an empty list: nothing recorded.
        usedRow("Use pnpm --frozen-lockfile in CI so the lockfile is never rewritten silently.", []),
      ].join("\n") + "\n");
      const report = await cairn.importFile(file, { format: "opencode-swarm", trusted });
      assert.equal(report.imported, 3, JSON.stringify(report));
      const byText = new Map((await cairn.list({ tier: "swarm" })).map((e) => [e.lesson.slice(0, 12), e]));
      const pick = (e: { usage: { shown: number; applied: number; ignored: number; violated: number } } | undefined) =>
        e && { shown: e.usage.shown, applied: e.usage.applied, ignored: e.usage.ignored, violated: e.usage.violated };
      assert.deepEqual(pick(byText.get("Run prisma g")), { shown: 12, applied: 5, ignored: 3, violated: 8 });
      // v1 counted shows as applied_count and no application: "shown 7, never applied" would be invented (the sweep archives such machine-written lessons).
      assert.deepEqual(pick(byText.get("Pin the Node")), { shown: 0, applied: 0, ignored: 0, violated: 0 });
      assert.deepEqual(pick(byText.get("Use pnpm --f")), { shown: 0, applied: 0, ignored: 0, violated: 0 });
      // Applied 5 times, yet violated and ignored more: at or below 0.3 utility after ≥ 3 retrievals, as it was flagged there.
      const flagged = await cairn.flagged("swarm");
      assert.deepEqual(flagged.map((e) => e.lesson.slice(0, 12)), ["Run prisma g"]);
    } finally {
      await cairn.close();
    }
  });
}

/** What opencode-swarm leaves after a hive promotion: the project row marked promoted, the lesson in shared-learnings.jsonl. */
const WEBPACK = "Set NODE_OPTIONS=--max-old-space-size=4096 for the webpack build in CI to avoid heap OOM.";
const promotedRow = { id: "l-p", tier: "swarm", lesson: WEBPACK, category: "tooling", tags: ["webpack"], scope: "global", confidence: 0.9, status: "promoted", confirmed_by: [], project_name: "p7" };
const hiveRow = { ...promotedRow, id: "h-p", tier: "hive", status: "established", confirmed_by: [{ project_name: "p7", confirmed_at: "2026-01-01T00:00:00Z" }], source_project: "p7" };

/** Writes one row to `name` in `dir` and imports it (checked, as `/swarm knowledge migrate` does). */
async function importRow(cairn: Awaited<ReturnType<typeof open>>, dir: string, name: string, row: object): Promise<void> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(row) + "\n");
  assert.equal((await cairn.importFile(file, { format: "opencode-swarm" })).imported, 1);
}

test("knowledge.jsonl: a lesson opencode-swarm had promoted comes in promoted with no hive copy recorded here; promoting it again writes that copy instead of refusing", async () => {
  const dir = tmpDir();
  const cairn = await open(dir, "p7");
  try {
    await importRow(cairn, dir, "knowledge.jsonl", promotedRow);
    const [original] = await cairn.list({ tier: "swarm" });
    assert.equal(original!.lifecycle.status, "promoted", "TTL-exempt, as promoted entries are (seed 001)");
    // Only the project file came across: the hive has no copy, and none is recorded.
    const first = await cairn.promote({ id: "l-p" }, "human:test");
    assert.equal(first.action, "added", JSON.stringify(first));
    assert.equal(first.tier, "hive");
    // Now it is recorded: a second promotion names the copy, as for any promoted lesson.
    await assert.rejects(cairn.promote({ id: "l-p" }, "human:test"), new RegExp(`already in the hive as ${first.handle}`));
  } finally {
    await cairn.close();
  }
});

test("knowledge.jsonl and shared-learnings.jsonl: a lesson opencode-swarm had promoted is linked to its imported hive copy by the import, whichever file comes second", async () => {
  const dir = tmpDir();
  const cairn = await open(dir, "p7");
  try {
    await importRow(cairn, dir, "shared-learnings.jsonl", hiveRow);
    await importRow(cairn, dir, "knowledge.jsonl", promotedRow);
    const [copy] = await cairn.list({ tier: "hive" });
    // The import recorded the link a promotion here would: promoting again names the copy, writes nothing.
    assert.equal((await cairn.list({ tier: "hive" })).length, 1, "no second hive lesson");
    await assert.rejects(cairn.promote({ id: "l-p" }, "human:test"), new RegExp(`already in the hive as ${copy!.handle}`));
  } finally {
    await cairn.close();
  }
});
