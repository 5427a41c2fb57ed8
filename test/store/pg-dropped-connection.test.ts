// A PostgreSQL connection dropped in the middle of a write (pg_terminate_backend on the store's own connection): a typed, actionable error, nothing half-written, the next call works.
import { test } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { fingerprintLesson, newEntryId } from "../../src/core/ids.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

const at = "2026-01-05T10:00:00.000Z";
const entry = (lesson: string): Entry =>
  EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });

/**
 * Holds `lockSql` in an open transaction of its own, starts `write`, waits until the store's connection
 * waits on that lock (so the write is inside its transaction), terminates that connection, and returns
 * how the write ended.
 */
async function dropMidWrite(url: string, lockSql: string, params: unknown[], write: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query("BEGIN");
    await holder.query(lockSql, params);
    const ended = write().then(
      () => ({ message: "the write succeeded" }),
      (e: { code?: string; message: string }) => ({ code: e.code, message: e.message }),
    );
    let killed = 0;
    for (let i = 0; i < 600 && killed === 0; i++) {
      const rows = await adminQuery<{ ok: boolean }>(
        url,
        // Only a connection our own lock holder blocks: other tests share this server.
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))`,
        [(holder as unknown as { processID: number }).processID],
      );
      killed = rows.filter((r) => r.ok).length;
      if (killed === 0) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(killed, 1, "the store's connection was caught waiting inside its write");
    return await ended;
  } finally {
    await holder.query("ROLLBACK").catch(() => {});
    await holder.end();
  }
}

test("a connection dropped inside an edit, a once-only edit or an insert: UNAVAILABLE naming the hive, nothing half-written, the next call works", { ...pgTestOptions(), timeout: 120_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("drop");
  const store = new PostgresStore({ url, schema }, "hive");
  try {
    const e = await store.insertEntry(entry("Rotate the staging database password after every contractor leaves the team."), { type: "created", actor: "t" });
    const events = async () => (await store.listEvents(e.id)).map((v) => v.type);
    const rowLock = [`SELECT 1 FROM "${schema}".entries WHERE id = $1 FOR UPDATE`, [e.id]] as const;
    const expectDropped = (r: { code?: string; message: string }, what: string) => {
      assert.equal(r.code, "UNAVAILABLE", `${what}: ${r.message}`);
      assert.match(r.message, /^The team hive postgres:\/\/postgres@[^ ]+ is unreachable: /, `${what}: the message names the hive and what went wrong`);
    };

    const edit = await dropMidWrite(url, rowLock[0], [...rowLock[1]], () => store.updateEntry(e.id, (x) => ({ ...x, why: "half" }), { type: "updated", actor: "t" }));
    expectDropped(edit, "updateEntry");
    assert.equal((await store.getEntry(e.id))?.why, undefined, "the edit was not half-applied");
    assert.deepEqual(await events(), ["created"], "no event for an edit that did not happen");

    const once = await dropMidWrite(url, rowLock[0], [...rowLock[1]], () => store.updateEntryOnce("effect:1", e.id, (x) => ({ ...x, why: "once" }), { type: "updated", actor: "t" }));
    expectDropped(once, "updateEntryOnce");
    // The effect key commits with the change or not at all: a retry applies the change.
    assert.equal((await store.updateEntryOnce("effect:1", e.id, (x) => ({ ...x, why: "once" }), { type: "updated", actor: "t" }))?.why, "once");
    assert.deepEqual(await events(), ["created", "updated"]);

    const twin = entry("Pin the Terraform AWS provider to a minor version in versions.tf before every plan.");
    const fpLock = "SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))";
    const fpParams = [`cairn.fingerprint:${schema}`, fingerprintLesson(twin.lesson)];
    const insert = await dropMidWrite(url, fpLock, fpParams, () => store.insertEntry(twin, { type: "created", actor: "t" }, { unique: true }));
    expectDropped(insert, "insertEntry");
    assert.equal(await store.getEntry(twin.id), undefined, "the entry was not stored");
    const copy = await dropMidWrite(url, fpLock, fpParams, () => store.copyEntry(twin, [{ seq: 1, entry_id: twin.id, type: "created", at, actor: "t", data: {} } as never]));
    expectDropped(copy, "copyEntry");
    assert.equal(await store.getEntry(twin.id), undefined, "the copy was not stored");
    assert.equal(await store.totalEntries(), 1, "the entry count moved with nothing");
    assert.equal((await store.copyEntry(twin, [])).action, "inserted", "a retried copy goes in");
    assert.equal(await store.integrityCheck(), "ok");
  } finally {
    await store.close();
    await dropSchema(url, schema);
  }
});
