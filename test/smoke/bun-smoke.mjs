// Smoke test under Bun: the built library loads, opens both tiers in temp dirs, adds and recalls.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-bun-"));
const env = { ...process.env, HOME: root, XDG_DATA_HOME: path.join(root, "data"), XDG_CONFIG_HOME: path.join(root, "config") };
delete env.CAIRN_HIVE;
delete env.CAIRN_CONFIG;
const { openCairn } = await import("../../dist/index.js");
const project = path.join(root, "project");
fs.mkdirSync(project);
const cairn = await openCairn({ projectDir: project, env });
const added = await cairn.add({ lesson: "Bun loads libsql: open the database with a busy timeout before the first write", category: "tooling" });
if (added.action !== "added") throw new Error(`add failed under Bun: ${JSON.stringify(added)}`);
const hits = await cairn.recall("busy timeout libsql");
if (hits[0]?.entry.id !== added.id) throw new Error("recall under Bun did not find the lesson");
const block = await cairn.inject({ task: "configure the libsql busy timeout" });
if (!block.text.includes(added.handle)) throw new Error("inject under Bun did not render the lesson");
// Vectors on: the search's WebAssembly SIMD kernels load from the bundle and rank under Bun as under Node.
const { simdAvailable } = await import("../../src/store/wasm-kernels.ts");
if (!simdAvailable()) throw new Error("the WebAssembly SIMD vector kernels did not load under Bun (the plain-JS fallback would run)");
const meaning = await openCairn({ projectDir: project, env, config: { embedding: { provider: "builtin", retrieval: "semantic" } } });
const meant = await meaning.add({ lesson: "Rotate the staging TLS certificate before it expires; the renewal job fails silently", category: "process" });
const near = await meaning.recall("renew an expiring certificate");
if (near[0]?.entry.id !== meant.id) throw new Error(`recall by meaning under Bun did not find the lesson: ${JSON.stringify(near.slice(0, 3).map((h) => h.entry.lesson.slice(0, 60)))}`);
await meaning.close();
// A large import (≥ 1 MB) would use a worker thread under Node; under Bun it parses on the main thread, same result.
const at = "2026-01-02T03:04:05.000Z";
const backup = [JSON.stringify({ cairn_export: 1, schema_version: 1 })];
for (let i = 0; backup.join("\n").length < 1.1 * 1024 * 1024; i++) {
  const lesson = `Pin the runner image digest for job ${i}; ${`ticket T-${i} tracks the digest. `.repeat(30)}`;
  backup.push(JSON.stringify({ id: `0190a0a0-0000-7000-8000-${String(i).padStart(12, "0")}`, handle: `S-${i + 1}`, tier: "swarm", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at }));
}
const backupFile = path.join(root, "backup.jsonl");
fs.writeFileSync(backupFile, backup.join("\n") + "\n");
const restored = await cairn.importFile(backupFile, { trusted: true });
if (restored.imported !== backup.length - 1) throw new Error(`large import under Bun: ${JSON.stringify({ ...restored, rejections: restored.rejections.slice(0, 3) })}`);
await cairn.close();
for (const extra of ["../../dist/plugin.js", "../../dist/server.js"]) {
  const file = new URL(extra, import.meta.url);
  if (fs.existsSync(file)) await import(file.href);
}
if (!fs.existsSync(path.join(root, "data", "cairn", "hive.db"))) throw new Error("hive not created in the XDG data dir");
// The team hive on PostgreSQL under Bun (the `pg` driver loads lazily): in CI, or with CAIRN_TEST_PG.
const pgUrl = process.env.CAIRN_TEST_PG || (process.env.CI === "true" ? "postgres://postgres@127.0.0.1:5432/postgres" : undefined);
let pgNote = "PostgreSQL part skipped (set CAIRN_TEST_PG)";
if (pgUrl) {
  const schema = `cairn_t_bun_${process.pid}`;
  // This checks that the driver works under Bun, not the 50 ms hot-path budget: on a busy CI machine a
  // read past that budget would (rightly) queue the promotion in the outbox instead of writing it.
  const team = await openCairn({ projectDir: project, env, config: { hive_url: pgUrl, hive_postgres: { schema, read_timeout_ms: 10_000 } } });
  try {
    const p = await team.promote({ lesson: { lesson: "Under Bun the team hive answers: pg loads lazily and ranks with BM25 over GIN.", category: "tooling" } });
    if (p.action !== "added") throw new Error(`promote to the PostgreSQL hive failed under Bun: ${JSON.stringify(p)}`);
    const found = await team.recall("team hive bun pg lazily");
    // Found, not necessarily first: the project's "Bun loads libsql" lesson shares a word and, among the
    // imported rows above, that word is rare there.
    if (!found.some((h) => h.entry.id === p.id)) throw new Error(`recall from the PostgreSQL hive under Bun did not find the lesson: ${JSON.stringify(found.slice(0, 3).map((h) => [h.entry.tier, h.entry.lesson.slice(0, 60)]))}`);
  } finally {
    await team.close();
    const { default: pg } = await import("pg");
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
  pgNote = "PostgreSQL hive ok";
}
fs.rmSync(root, { recursive: true, force: true });
console.log(`bun smoke ok (bun ${process.versions.bun}); ${pgNote}`);
