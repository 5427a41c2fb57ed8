// `cairn doctor --repair` on a database file cut short (a copy interrupted, a full disk): the report says what was lost, no more.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSONS = Array.from({ length: 30 }, (_, i) => `Regenerate the API client after changing the OpenAPI file of service number ${i} before the build`);

/** A project holding the lessons, its database checkpointed into one file; returns the file and its full size. */
async function projectDb(name: string): Promise<{ dir: string; db: string; size: number }> {
  const dir = sb.project(name);
  const file = path.join(sb.root, `${name}.jsonl`);
  fs.writeFileSync(file, LESSONS.map((lesson, i) => JSON.stringify({ lesson, category: "tooling", id: `x-${i}` })).join("\n") + "\n");
  const r = await sb.json(dir, "import", file, "--format", "opencode-swarm");
  assert.equal(r.body.imported, LESSONS.length, r.stderr);
  const db = path.join(dir, ".swarm", "cairn.db");
  for (const s of ["-wal", "-shm"]) assert.ok(!fs.existsSync(db + s), "the CLI checkpoints on close");
  return { dir, db, size: fs.statSync(db).size };
}

interface Table { table: string; recovered: number; refused: number; unreadable: number; damaged?: boolean }

test("a file cut to 3/4 of its length: rows lost are never more than the file held, derived tables are not 'unreadable', and the cut is named", async () => {
  const { dir, db, size } = await projectDb("three-quarters");
  const kept = Math.floor((size * 3) / 4 / 4096) * 4096;
  fs.truncateSync(db, kept);
  const r = await sb.json(dir, "doctor", "--repair");
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [report] = r.body.repairs;
  const tables = report.tables as Table[];
  const entries = tables.find((t) => t.table === "entries")!;
  assert.equal(report.entries_expected, LESSONS.length);
  // It said "unreadable: 261" for a table of 30 rows: the count was of failed reads, not of rows.
  assert.ok(entries.recovered + entries.refused + entries.unreadable <= LESSONS.length, JSON.stringify(entries));
  assert.ok(entries.recovered < LESSONS.length && entries.damaged === true, JSON.stringify(entries));
  // Tables the fresh file's triggers rebuild are not copied, so none of them can be reported unreadable.
  assert.equal(tables.find((t) => t.table === "entry_vector_counts"), undefined, JSON.stringify(tables));
  for (const t of tables.filter((t) => !t.damaged)) assert.equal(t.unreadable, 0, JSON.stringify(t));
  assert.deepEqual(report.truncated, { bytes: kept, expected_bytes: size });

  // The person reads the same thing.
  fs.rmSync(report.kept_as);
  const again = await projectDb("three-quarters-text");
  const keptAgain = Math.floor((again.size * 3) / 4 / 4096) * 4096;
  fs.truncateSync(again.db, keptAgain);
  const text = await sb.run(again.dir, "doctor", "--repair");
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`cut short: ${keptAgain} of ${again.size} bytes`), text.stdout);
  assert.match(text.stdout, /lost on damaged or missing pages: entries\b/, text.stdout);
  assert.doesNotMatch(text.stdout, /entry_vector_counts|nothing could be read/, text.stdout);
});

test("a file cut so short that its table list is gone: the report says nothing could be read, and why", async () => {
  const { dir, db, size } = await projectDb("schema-gone");
  fs.truncateSync(db, 5 * 4096);
  const r = await sb.json(dir, "doctor", "--repair");
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [report] = r.body.repairs;
  // It said "0 lessons and 0 other rows copied", as if the file had been empty.
  assert.match(String(report.unreadable), /table list/, JSON.stringify(report));
  assert.deepEqual(report.truncated, { bytes: 5 * 4096, expected_bytes: size });
  fs.rmSync(report.kept_as);

  const again = await projectDb("schema-gone-text");
  fs.truncateSync(again.db, 5 * 4096);
  const text = await sb.run(again.dir, "doctor", "--repair");
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /nothing could be read from it \(its table list/, text.stdout);
  assert.match(text.stdout, new RegExp(`cut short: ${5 * 4096} of ${again.size} bytes`), text.stdout);
});
