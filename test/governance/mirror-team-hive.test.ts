// The Markdown mirror over a PostgreSQL team hive: a promoted lesson's file carries its traceability, and an edit pulled back lands in the hive.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openCairn } from "../../src/index.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d, { withFileTypes: true })) f.isDirectory() ? walk(path.join(d, f.name)) : out.push(path.relative(dir, path.join(d, f.name)));
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}

test("mirror on a PostgreSQL team hive: the hive copy's file shows issue and session; status and tags edited in it are pulled into the hive", { ...pgTestOptions(), timeout: 120_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("mirror_hive");
  const sb = makeSandbox();
  const cairn = await openCairn({
    projectDir: sb.projectDir,
    env: sb.env,
    actor: "human:ann",
    config: { hive_url: url, hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 }, governance: { mirror: { enabled: true }, require_approval: { hive: true } } },
  });
  try {
    const added = await cairn.add({
      lesson: "In src/db/pool.ts release the client in a finally block; a thrown query leaked pool clients until the API hung.",
      applicability: { file_globs: ["src/db/**"] },
      session_id: "ses_pool_42",
      derived_from: { kind: "issue", ref: "#88" },
    });
    const promoted = await cairn.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    const dir = path.join(sb.projectDir, ".swarm", "knowledge");
    const copyFile = files(dir).find((f) => f.includes(`${promoted.handle}-`));
    assert.ok(copyFile?.startsWith("candidates/"), `the hive copy is mirrored on the write: ${files(dir).join(", ")}`);
    const text = fs.readFileSync(path.join(dir, copyFile!), "utf8");
    assert.match(text, /^session_id: ses_pool_42$/m);
    assert.match(text, /^derived_from: "issue: #88"$/m);
    fs.writeFileSync(path.join(dir, copyFile!), text.replace(/^status: .*$/m, "status: approved").replace(/^tags: .*$/m, "tags: [db, pool]"));
    // The person pulling says yes to the approval found in the file (mirror --pull --approve).
    const pulled = await cairn.pullMirror({ approve: true });
    assert.deepEqual(pulled.errors, []);
    assert.deepEqual(pulled.conflicts, []);
    assert.deepEqual(pulled.applied.map((a) => a.handle), [promoted.handle]);
    const copy = await cairn.get(promoted.id!);
    assert.equal(copy.tier, "hive");
    assert.equal(copy.lifecycle.status, "established");
    assert.equal(copy.provenance.approved_by, "human:ann");
    assert.deepEqual(copy.tags, ["db", "pool"]);
    assert.ok(files(dir).some((f) => f.startsWith(`approved/${promoted.handle}-`)), `moved to approved/: ${files(dir).join(", ")}`);
  } finally {
    await cairn.close();
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
});
