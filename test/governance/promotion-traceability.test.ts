// Traceability (seed 004 §1: derived_from issue and session, REQUIRED) survives promotion to the hive, SQLite and PostgreSQL alike.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { AUTH_STRUCTURED } from "./helpers.js";

async function promotedCopy(backend: "sqlite" | "pg") {
  const sb = makeSandbox();
  const schema = uniqueSchema("ko_trace");
  const url = pgTestUrl();
  const hive = backend === "pg"
    ? { hive_url: url, hive_postgres: { schema, retry_after_ms: 200, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 } }
    : { hive_path: sb.hivePath };
  const cairn = await openCairn({ projectDir: sb.projectDir, env: sb.env, actor: "human:alice", config: hive });
  try {
    const added = await cairn.add({ ...AUTH_STRUCTURED, session_id: "ses_abc-123-def-456", derived_from: { kind: "issue", ref: "#123" } });
    assert.equal(added.action, "added", added.reason);
    const promoted = await cairn.promote({ id: added.id! });
    assert.equal(promoted.action, "added", promoted.reason);
    return { original: await cairn.get(added.id!), copy: await cairn.get(promoted.id!) };
  } finally {
    await cairn.close();
    if (backend === "pg") await dropSchema(url!, schema);
    removeSandbox(sb);
  }
}

function assertTraced(original: Awaited<ReturnType<typeof promotedCopy>>["original"], copy: typeof original, backend: string): void {
  assert.equal(copy.tier, "hive");
  assert.deepEqual(copy.provenance.derived_from, { kind: "issue", ref: "#123" }, `${backend}: the issue it came from`);
  assert.equal(copy.provenance.session_id, original.provenance.session_id, `${backend}: the session where it was resolved`);
  assert.equal(copy.provenance.session_id, "ses_abc-123-def-456");
  assert.equal(copy.title, original.title);
  assert.equal(copy.why, original.why);
  assert.equal(copy.root_cause, original.root_cause);
  assert.deepEqual(copy.prevention, original.prevention);
  assert.deepEqual(copy.applicability.file_globs, original.applicability.file_globs);
  assert.deepEqual(copy.applicability.tech_stack, original.applicability.tech_stack);
  assert.deepEqual(copy.tags, original.tags);
  assert.equal(copy.provenance.promoted_from?.entry_id, original.id);
}

test("a promoted lesson keeps where it came from: issue and session travel to the SQLite hive", async () => {
  const { original, copy } = await promotedCopy("sqlite");
  assertTraced(original, copy, "sqlite");
});

test("a promoted lesson keeps where it came from: issue and session travel to the PostgreSQL hive", { ...pgTestOptions(), timeout: 120_000 }, async () => {
  const { original, copy } = await promotedCopy("pg");
  assertTraced(original, copy, "pg");
});
