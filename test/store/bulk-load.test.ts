// The driver's bulk-load mode (a trusted import): a larger page cache and no idle checkpoints while it runs, the usual settings back after it, even on errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "libsql";
import { SqliteDriver } from "../../src/store/driver.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

/** SQLite's default page cache, as `PRAGMA cache_size` reports it (negative: KiB). */
const DEFAULT_CACHE = -2000;

const cacheSize = (d: SqliteDriver): number => d.get<{ cache_size: number }>("PRAGMA cache_size")!.cache_size;
const walBytes = (file: string): number => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);

async function withDriver(fn: (d: SqliteDriver, file: string) => Promise<void>): Promise<void> {
  const sb = makeSandbox();
  const file = path.join(sb.root, "b.db");
  const d = new SqliteDriver(file);
  try {
    d.exec("CREATE TABLE t (x BLOB)");
    await fn(d, file);
  } finally {
    d.close();
    removeSandbox(sb);
  }
}

test("during a bulk load the page cache is larger and no idle checkpoint runs; after it the cache is back, and the WAL it left is checkpointed and cut back", async () => {
  await withDriver(async (d, file) => {
    assert.equal(cacheSize(d), DEFAULT_CACHE);
    await d.bulkLoad(async () => {
      assert.ok(cacheSize(d) < DEFAULT_CACHE, `a larger cache during the load (${cacheSize(d)})`);
      assert.ok(d.get<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint")!.wal_autocheckpoint > 0, "SQLite's automatic checkpoint still bounds the WAL");
      for (let b = 0; b < 3; b++) {
        await d.batch(async () => {
          for (let i = 0; i < 200; i++) d.run("INSERT INTO t VALUES (randomblob(10000))");
        });
        // Longer than the idle delay: outside a bulk load a checkpoint would run here.
        await new Promise((r) => setTimeout(r, 1300));
      }
      assert.equal(d.idleCheckpoints, 0, "no idle checkpoint between the load's batches");
      assert.ok(walBytes(file) > 5_000_000, `the load grew the WAL (${walBytes(file)} bytes)`);
    });
    assert.equal(cacheSize(d), DEFAULT_CACHE, "the usual cache after the load");
    assert.equal(d.bulkLoadsEnded, 1);
    const limit = d.get<{ journal_size_limit: number }>("PRAGMA journal_size_limit")!.journal_size_limit;
    assert.ok(walBytes(file) <= limit, `the load's WAL was checkpointed and the log started over: ${walBytes(file)} bytes > limit ${limit}`);
    assert.equal(d.get<{ n: number }>("SELECT count(*) AS n FROM t")!.n, 600);
  });
});

test("a bulk load that fails still restores the usual settings, and nested loads keep the outer one's until it ends", async () => {
  await withDriver(async (d) => {
    await assert.rejects(
      d.bulkLoad(async () => {
        await d.bulkLoad(async () => undefined);
        assert.ok(cacheSize(d) < DEFAULT_CACHE, "the inner load's end leaves the outer one's settings");
        await d.batch(async () => {
          d.run("INSERT INTO t VALUES (1)");
        });
        throw new Error("import failed");
      }),
      /import failed/,
    );
    assert.equal(cacheSize(d), DEFAULT_CACHE);
    assert.equal(d.bulkLoadsEnded, 1, "only the outer load ends the mode");
    // The idle checkpoint works again once the load is over.
    d.run("INSERT INTO t VALUES (2)");
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(d.idleCheckpoints, 1);
  });
});

test("a connection reopened on BUSY during a bulk load keeps its settings", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "b.db");
  const d = new SqliteDriver(file, { busyTimeoutMs: 10, busyRetries: 2 });
  const holder = new Database(file);
  try {
    d.exec("CREATE TABLE t (x)");
    await d.bulkLoad(async () => {
      holder.exec("BEGIN IMMEDIATE");
      try {
        assert.throws(() => d.run("INSERT INTO t VALUES (1)"), (e: Error & { code?: string }) => e.code === "STORE_ERROR");
      } finally {
        holder.exec("COMMIT");
      }
      assert.equal(d.reopenCount, 2, "the connection was reopened");
      assert.ok(cacheSize(d) < DEFAULT_CACHE, "the new connection has the load's cache");
    });
    assert.equal(cacheSize(d), DEFAULT_CACHE);
  } finally {
    holder.close();
    d.close();
    removeSandbox(sb);
  }
});
