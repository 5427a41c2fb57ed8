// `cairn sweep` without --phase run twice at once (two real processes): each expired lesson is archived (or removed) once, by one of them.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "libsql";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split(" ");
const N = 300;

interface TierReport { tier: string; aged: number; archived: string[]; removed: string[]; skipped?: string }

test("two `cairn sweep` at once (no --phase): no lesson archived or removed twice, nor reported by both", { timeout: 300_000 }, async () => {
  // Every lesson expires after one phase, so the second phase (the two sweeps at once) retires all of them.
  const config = path.join(sb.root, "ttl-one.json");
  fs.writeFileSync(config, JSON.stringify({ knowledge: { default_max_phases: 1, todo_max_phases: 1 } }));
  sb.env.CAIRN_CONFIG = config;
  const p = sb.project("sweep-at-once");
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    const w = `${WORDS[i % 26]}-${WORDS[Math.floor(i / 26) % 26]}-${i}`;
    lines.push(JSON.stringify({ id: `t${i}`, category: "todo", lesson: `Todo: rename the legacy table ${w}_records to ${w}_archive before the ${w} service release` }));
    lines.push(JSON.stringify({ id: `l${i}`, category: "tooling", lesson: `Regenerate the OpenAPI client for the ${w} service after editing its controller, or the ${w} types drift` }));
  }
  const file = path.join(sb.root, "lessons.jsonl");
  fs.writeFileSync(file, lines.join("\n") + "\n");
  const imported = await sb.json(p, "import", file, "--format", "opencode-swarm");
  assert.equal(imported.body.imported, 2 * N, imported.stdout);
  const first = await sb.json(p, "sweep");
  assert.equal(first.body.sweep[0].aged, 2 * N);

  const runs = await Promise.all([sb.json(p, "sweep"), sb.json(p, "sweep")]);
  const reports: TierReport[] = runs.map((r) => {
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return (r.body.sweep as TierReport[]).find((t) => t.tier === "swarm")!;
  });
  const archived = reports.flatMap((r) => r.archived);
  const removed = reports.flatMap((r) => r.removed);
  assert.equal(new Set(archived).size, archived.length, "a lesson reported archived by both sweeps");
  assert.equal(new Set(removed).size, removed.length, "a todo reported removed by both sweeps");
  assert.equal(archived.length, N);
  assert.equal(removed.length, N);
  // One phase's aging of the lessons that were live: the other sweep either waited out or found none left.
  assert.equal(reports[0]!.aged + reports[1]!.aged, 2 * N, JSON.stringify(reports.map((r) => ({ aged: r.aged, skipped: r.skipped }))));

  const db = new Database(path.join(p, ".swarm", "cairn.db"), { readonly: true });
  try {
    const twice = db.prepare("SELECT entry_id, count(*) AS n FROM events WHERE type = 'archived' GROUP BY entry_id HAVING n > 1").all();
    assert.deepEqual(twice, [], "an archived event written twice for one lesson");
  } finally {
    db.close();
  }
});
