// writeExport: lossless round trip through the cairn parser, header handling, atomic write, volume.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { writeExport, writeExportTo } from "../../src/io/export.js";
import { parseFile } from "../../src/io/parse.js";
import { readLines } from "../../src/io/lines.js";
import { collect, tmpDir } from "./helpers.js";

const rich: Entry[] = [
  EntrySchema.parse({
    id: "01J0000000000000000000000A",
    handle: "K-1",
    tier: "swarm",
    lesson: "Wrap fs streams in pipeline() so errors propagate.\nSecond line with unicode: é ✓ \"quotes\"",
    title: "Use pipeline for streams",
    why: "Unhandled stream errors crash the process.",
    prevention: { rule: "no bare .pipe()", detection_pattern: "\\.pipe\\(", suggested_guardrail: "lint rule" },
    category: "debugging",
    kind: "correction",
    root_cause: "missing_validation",
    tags: ["node", "streams", "c++"],
    entities: ["fs", "stream/promises"],
    applicability: { scope: "stack:node", projects: ["*"], file_globs: ["src/**/*.ts"], tech_stack: ["node"], agents: ["coder"], tools: ["bash"], triggers: ["pipe("] },
    directive: { required_actions: ["use pipeline()"], forbidden_actions: [".pipe() without error handler"], verification_checks: ["grep .pipe("], priority: "high", enforcement: "enforce" },
    lifecycle: {
      status: "established", confidence: 0.85, phases_alive: 4, max_phases: 12, hive_eligible: true,
      confirmations: [{ at: "2025-06-01T00:00:00.000Z", phase: "3", project_id: "p1", by: "agent:coder" }, { at: "2025-06-02T00:00:00.000Z" }],
      supersedes: "01J0000000000000000000000Z", status_reason: "confirmed twice", flags: ["near-duplicate"], revalidated_at: "2025-06-03T00:00:00.000Z",
    },
    provenance: {
      created_by: "agent:coder", auto_generated: true, approved_by: "human:ana", approved_at: "2025-06-01T01:00:00.000Z",
      source_project_id: "abc123", source_project_name: "demo", session_id: "s-1", derived_from: { kind: "retrospective", ref: "phase-3" },
      external_id: "lesson-xyz", promoted_from: { project_id: "abc123", entry_id: "01J00000000000000000000009" },
    },
    usage: { shown: 10, applied: 4, ignored: 1, violated: 1, prevented: 2, helpful: 2.5, harmful: 0.5, last_shown_at: "2025-06-04T00:00:00.000Z", last_feedback_at: "2025-06-05T00:00:00.000Z" },
    created_at: "2025-06-01T00:00:00.000Z",
    updated_at: "2025-06-05T00:00:00.000Z",
  }),
  EntrySchema.parse({
    id: "01J0000000000000000000000B", handle: "H-2", tier: "hive", lesson: "Minimal entry, defaults everywhere.",
    // Groups given as {} so zod fills their defaults (see the todo test below).
    prevention: {}, applicability: {}, directive: {}, lifecycle: {}, provenance: {}, usage: {},
    category: "other", kind: "learning", created_at: "2025-01-01T00:00:00.000Z", updated_at: "2025-01-01T00:00:00.000Z",
  }),
  EntrySchema.parse({
    id: "01J0000000000000000000000C", handle: "K-3", tier: "swarm", lesson: "Archived and superseded.",
    category: "process", kind: "decision", lifecycle: { status: "superseded", superseded_by: "01J0000000000000000000000A" },
    prevention: {}, applicability: { scope: "global" }, directive: {}, provenance: {}, usage: {},
    created_at: "2025-02-01T00:00:00.000Z", updated_at: "2025-02-02T00:00:00.000Z",
  }),
];

test("cairn export → parse round-trips losslessly, header skipped", async () => {
  const file = path.join(tmpDir(), "out.cairn.jsonl");
  async function* gen() { yield* rich; }
  assert.deepEqual(await writeExport(file, gen(), { format: "cairn" }), { written: 3 });

  const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
  assert.equal(lines.length, 4);
  const header = JSON.parse(lines[0]!);
  assert.equal(header.cairn_export, 1);
  assert.equal(header.schema_version, 1);
  assert.ok(!Number.isNaN(Date.parse(header.exported_at)));
  lines.slice(1).forEach((l, i) => assert.deepEqual(EntrySchema.parse(JSON.parse(l)), rich[i]));

  const { ok, bad } = await collect(parseFile(file, "cairn"));
  assert.deepEqual(bad, []);
  assert.deepEqual(ok.map((r) => r.entry), rich);
  assert.deepEqual(ok.map((r) => r.line), [2, 3, 4]);
  assert.deepEqual(ok.map((r) => r.tier), ["swarm", "hive", "swarm"]);
  // A whole entry is restored as it is, never sent through the write path: no new-lesson input beside it.
  for (const r of ok) assert.equal(r.input, undefined);
});

test("jsonl export has no header and still parses as cairn", async () => {
  const file = path.join(tmpDir(), "out.jsonl");
  assert.deepEqual(await writeExport(file, rich, { format: "jsonl" }), { written: 3 });
  const first = JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0]!);
  assert.equal(first.id, rich[0]!.id);
  const { ok } = await collect(parseFile(file, "cairn"));
  assert.deepEqual(ok.map((r) => r.entry), rich);
});

test("replaces an existing file atomically and leaves no temp file behind", async () => {
  const dir = tmpDir();
  const file = path.join(dir, "export.jsonl");
  fs.writeFileSync(file, "old content\n");
  await writeExport(file, rich.slice(0, 1), { format: "cairn", overwrite: true });
  assert.deepEqual(fs.readdirSync(dir), ["export.jsonl"]);
  assert.equal(fs.readFileSync(file, "utf8").split("\n").length, 3);
});

test("without overwrite, an existing file is refused before anything is written, and one that appears while the export runs is not replaced", async () => {
  const dir = tmpDir();
  const file = path.join(dir, "export.jsonl");
  fs.writeFileSync(file, "the user's file\n");
  await assert.rejects(writeExport(file, rich, { format: "cairn" }), (e: any) => e.code === "FORCE_REQUIRED" && /already exists.*--force/.test(e.message));
  assert.deepEqual(fs.readdirSync(dir), ["export.jsonl"]);
  assert.equal(fs.readFileSync(file, "utf8"), "the user's file\n");
  const late = path.join(dir, "late.jsonl");
  async function* appearing() {
    yield rich[0]!;
    fs.writeFileSync(late, "written meanwhile\n");
    yield rich[1]!;
  }
  await assert.rejects(writeExport(late, appearing(), { format: "cairn" }), (e: any) => e.code === "FORCE_REQUIRED");
  assert.equal(fs.readFileSync(late, "utf8"), "written meanwhile\n");
  assert.deepEqual(fs.readdirSync(dir).sort(), ["export.jsonl", "late.jsonl"], "no temp file left behind");
});

test("a failing source leaves the old file untouched and no temp file", async () => {
  const dir = tmpDir();
  const file = path.join(dir, "export.jsonl");
  fs.writeFileSync(file, "old content\n");
  async function* broken() { yield rich[0]!; throw new Error("db went away"); }
  await assert.rejects(writeExport(file, broken(), { format: "cairn", overwrite: true }), /db went away/);
  assert.deepEqual(fs.readdirSync(dir), ["export.jsonl"]);
  assert.equal(fs.readFileSync(file, "utf8"), "old content\n");
});

test("100,000 entries stream out and count correctly", async () => {
  const file = path.join(tmpDir(), "big.jsonl");
  const template = rich[1]!;
  function* many() {
    for (let i = 0; i < 100_000; i++) yield { ...template, id: `id-${i}`, handle: `K-${i}` };
  }
  assert.deepEqual(await writeExport(file, many(), { format: "cairn" }), { written: 100_000 });
  let n = 0;
  let last = "";
  for await (const l of readLines(file)) { n++; last = l.text; }
  assert.equal(n, 100_001);
  assert.equal(JSON.parse(last).id, "id-99999");
});

test("cairn parser rejects bad entries and newer schema versions by field name", async () => {
  const file = path.join(tmpDir(), "bad.jsonl");
  const { id: _omit, ...noId } = rich[1]!;
  fs.writeFileSync(file, [
    JSON.stringify({ cairn_export: 1, schema_version: 1 }),
    JSON.stringify(noId),
    JSON.stringify({ ...rich[1], tier: "galaxy" }),
    JSON.stringify({ ...rich[1], schema_version: 99 }),
    JSON.stringify(rich[1]),
  ].join("\n"));
  const { ok, bad } = await collect(parseFile(file, "cairn"));
  assert.deepEqual(ok.map((r) => r.line), [5]);
  assert.deepEqual(bad.map((b) => b.line), [2, 3, 4]);
  assert.match(bad[0]!.error, /missing required field "id"/);
  assert.match(bad[1]!.error, /field "tier" is not one of the allowed values \(swarm, hive\)/);
  assert.match(bad[2]!.error, /schema_version 99/);
});

test("a hand-written cairn line without groups still yields a fully filled entry", async () => {
  const file = path.join(tmpDir(), "min.jsonl");
  const minimal = { id: "m", handle: "K-9", tier: "swarm", lesson: "x", category: "other", kind: "learning", created_at: "2025-01-01T00:00:00.000Z", updated_at: "2025-01-01T00:00:00.000Z" };
  fs.writeFileSync(file, JSON.stringify(minimal) + "\n");
  const { ok } = await collect(parseFile(file, "cairn"));
  assert.equal(ok[0]!.entry!.lifecycle.status, "candidate");
  assert.equal(ok[0]!.entry!.applicability.scope, "global");
  assert.deepEqual(ok[0]!.entry!.directive.required_actions, []);
});

test("EntrySchema.parse is idempotent for entries built without groups (groups use .prefault)", () => {
  const e = EntrySchema.parse({ id: "a", handle: "h", tier: "hive", lesson: "x", category: "other", kind: "learning", created_at: "2026-01-05T10:00:00Z", updated_at: "2026-01-05T10:00:00Z" });
  assert.deepEqual(EntrySchema.parse(JSON.parse(JSON.stringify(e))), e);
});

test("a target that is not a regular file is written in place, never renamed over (a FIFO stays a FIFO)", async () => {
  const dir = tmpDir();
  const fifo = path.join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  // A reader on the other end, as `cairn export /dev/stdout | …` or a named pipe has.
  const reader = new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    fs.createReadStream(fifo).on("data", (c) => chunks.push(c as Buffer)).on("end", () => resolve(Buffer.concat(chunks).toString("utf8"))).on("error", reject);
  });
  assert.deepEqual(await writeExport(fifo, rich, { format: "jsonl" }), { written: 3 });
  const text = await reader;
  assert.equal(text.trim().split("\n").length, 3);
  assert.ok(fs.statSync(fifo).isFIFO(), "the FIFO was not replaced by a regular file");
  assert.deepEqual(fs.readdirSync(dir).sort(), ["pipe"], "no temp file left beside it");
});

test("a symlink to a file keeps pointing at it: the file it names is replaced, atomically", async () => {
  const dir = tmpDir();
  const real = path.join(dir, "backups", "latest.jsonl");
  fs.mkdirSync(path.dirname(real));
  fs.writeFileSync(real, "old\n");
  const link = path.join(dir, "link.jsonl");
  fs.symlinkSync(real, link);
  await writeExport(link, rich, { format: "jsonl", overwrite: true });
  assert.ok(fs.lstatSync(link).isSymbolicLink());
  assert.equal(fs.readFileSync(real, "utf8").trim().split("\n").length, 3);
});

test("writeExportTo streams to a writable (stdout for `cairn export -`)", async () => {
  const { PassThrough } = await import("node:stream");
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  assert.deepEqual(await writeExportTo(out, rich, { format: "cairn" }), { written: 3 });
  const lines = Buffer.concat(chunks).toString("utf8").trim().split("\n");
  assert.equal(lines.length, 4);
  assert.equal(JSON.parse(lines[0]!).cairn_export, 1);
});

test("a database or its write-ahead log (either byte order) is never an export's target, even with overwrite; a file merely named .db is", async () => {
  const dir = tmpDir();
  const header = Buffer.from("SQLite format 3\0", "latin1");
  const wal = (magic: number) => {
    const b = Buffer.alloc(32);
    b.writeUInt32BE(magic, 0);
    return b;
  };
  const targets: Array<[string, Buffer]> = [
    ["cairn.db", Buffer.concat([header, Buffer.alloc(84)])],
    ["cairn.db-wal", wal(0x377f0682)],
    ["other-wal", wal(0x377f0683)],
  ];
  for (const [name, bytes] of targets) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    await assert.rejects(writeExport(file, rich, { format: "jsonl", overwrite: true }), (e: Error & { code?: string }) => {
      assert.equal(e.code, "INVALID_INPUT", name);
      assert.match(e.message, /is an SQLite database \(or its log\)/, name);
      assert.match(e.message, /cairn-export\.jsonl/, name);
      return true;
    });
    assert.ok(fs.readFileSync(file).equals(bytes), `${name} is untouched`);
  }
  // Not SQLite by its bytes (a header cut short, text): an ordinary file, replaced with overwrite.
  for (const [name, bytes] of [["short.db", header.subarray(0, 10)], ["notes.db", Buffer.from("SQLite notes\n")]] as const) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    assert.equal((await writeExport(file, rich, { format: "jsonl", overwrite: true })).written, rich.length, name);
  }
});
