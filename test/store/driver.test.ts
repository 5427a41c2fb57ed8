// The driver's safeguards against libSQL hazards: WAL + busy timeout, array binds, reopen-on-BUSY, atomic units.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "libsql";
import { asCall, callsInFlight } from "../../src/store/between-calls.js";
import { SqliteDriver } from "../../src/store/driver.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

function withFile(fn: (file: string) => void): void {
  const sb = makeSandbox();
  try {
    fn(path.join(sb.root, "t.db"));
  } finally {
    removeSandbox(sb);
  }
}

test("a connection opens in WAL mode with the configured busy timeout (libSQL sets none by default)", () => {
  withFile((file) => {
    const d = new SqliteDriver(file, { busyTimeoutMs: 1234 });
    try {
      assert.equal(d.get<{ journal_mode: string }>("PRAGMA journal_mode")?.journal_mode, "wal");
      assert.equal(d.get<{ timeout: number }>("PRAGMA busy_timeout")?.timeout, 1234);
    } finally {
      d.close();
    }
  });
});

test("a lone Buffer as the only bind argument works (the raw sync API aborts the process on it)", () => {
  withFile((file) => {
    const d = new SqliteDriver(file);
    try {
      d.exec("CREATE TABLE blobs (b BLOB)");
      d.run("INSERT INTO blobs(b) VALUES (?)", [Buffer.from([1, 2, 3])]);
      assert.equal(d.get<{ n: number }>("SELECT length(?) AS n", [Buffer.from("abcd")])?.n, 4);
      assert.equal(d.get<{ n: number }>("SELECT length(b) AS n FROM blobs")?.n, 3);
    } finally {
      d.close();
    }
  });
});

test("BUSY: the writer discards its connection and retries, then fails with a readable STORE_ERROR", () => {
  withFile((file) => {
    const d = new SqliteDriver(file, { busyTimeoutMs: 10, busyRetries: 2 });
    d.exec("CREATE TABLE t (v INTEGER)");
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    try {
      assert.throws(
        () => d.run("INSERT INTO t(v) VALUES (?)", [1]),
        (e: Error & { code?: string }) => e.code === "STORE_ERROR" && /locked/.test(e.message) && !/SQLITE_BUSY/.test(e.message),
      );
      assert.equal(d.reopenCount, 2, "one fresh connection per retry");
    } finally {
      holder.exec("COMMIT");
      holder.close();
    }
    d.run("INSERT INTO t(v) VALUES (?)", [2]);
    d.close();
    // What the reopened connection acknowledged is really on disk.
    const check = new SqliteDriver(file);
    assert.deepEqual(check.all<{ v: number }>("SELECT v FROM t"), [{ v: 2 }]);
    check.close();
  });
});

test("a transaction that throws leaves nothing behind, and nested units join the outer one", () => {
  withFile((file) => {
    const d = new SqliteDriver(file);
    try {
      d.exec("CREATE TABLE t (v INTEGER)");
      assert.throws(() =>
        d.transaction(() => {
          d.run("INSERT INTO t(v) VALUES (?)", [1]);
          d.transaction(() => d.run("INSERT INTO t(v) VALUES (?)", [2]));
          throw new Error("boom");
        }),
      /boom/);
      assert.equal(d.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 0);
      d.transaction(() => {
        d.run("INSERT INTO t(v) VALUES (?)", [3]);
        d.transaction(() => d.run("INSERT INTO t(v) VALUES (?)", [4]));
      });
      assert.equal(d.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 2);
    } finally {
      d.close();
    }
  });
});

test("WAL checkpoints run when idle after writes, never inside a call (they were injection's whole p99)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-ckpt-"));
  const d = new SqliteDriver(path.join(dir, "c.db"));
  try {
    d.exec("CREATE TABLE t (x)");
    assert.equal(d.get<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint")?.wal_autocheckpoint, 8000);
    for (let i = 0; i < 50; i++) d.run("INSERT INTO t VALUES (?)", [i]);
    assert.equal(d.idleCheckpoints, 0, "no checkpoint inside the writes");
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(d.idleCheckpoints, 1, "one checkpoint once the writes went idle");
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(d.idleCheckpoints, 1, "none without new writes");
  } finally {
    d.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const walBytes = (file: string): number => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);

test("regression 11.20: close() checkpoints and truncates the WAL, so .swarm/ carries no multi-MB -wal", () => {
  withFile((file) => {
    const d = new SqliteDriver(file);
    d.exec("CREATE TABLE t (x BLOB)");
    for (let i = 0; i < 300; i++) d.run("INSERT INTO t VALUES (randomblob(10000))");
    const before = walBytes(file);
    assert.ok(before > 2_000_000, `the writes grew the WAL (${before} bytes)`);
    d.close();
    assert.equal(walBytes(file), 0, "the -wal is absent or empty after close");
    const again = new Database(file);
    assert.equal((again.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n, 300, "every row survived the checkpoint");
    again.close();
  });
});

test("regression 11.20: close() still succeeds while another connection holds a read snapshot", () => {
  withFile((file) => {
    const d = new SqliteDriver(file);
    d.exec("CREATE TABLE t (x BLOB)");
    for (let i = 0; i < 300; i++) d.run("INSERT INTO t VALUES (randomblob(10000))");
    const reader = new Database(file);
    reader.exec("BEGIN");
    assert.equal((reader.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n, 300);
    d.close(); // must not throw although the checkpoint cannot finish
    reader.exec("COMMIT");
    reader.close();
    // An idle second connection does not stop the truncation either.
    const a = new SqliteDriver(file);
    const b = new SqliteDriver(file);
    b.get("SELECT count(*) FROM t");
    for (let i = 0; i < 100; i++) a.run("INSERT INTO t VALUES (randomblob(10000))");
    a.close();
    assert.equal(walBytes(file), 0, "truncated with the other connection open but idle");
    assert.equal(b.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 400);
    b.close();
  });
});

test("regression 11.20: between closes the WAL is cut back to the journal size limit after an idle checkpoint", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "p.db");
  const d = new SqliteDriver(file);
  try {
    d.exec("CREATE TABLE t (x BLOB)");
    for (let i = 0; i < 600; i++) d.run("INSERT INTO t VALUES (randomblob(10000))");
    assert.ok(walBytes(file) > 5_000_000, `the writes grew the WAL (${walBytes(file)} bytes)`);
    await new Promise((r) => setTimeout(r, 1300));
    assert.ok(d.idleCheckpoints >= 1, "the idle checkpoint ran");
    d.run("INSERT INTO t VALUES (1)"); // the first write after a full checkpoint resets (and now truncates) the WAL
    const limit = d.get<{ journal_size_limit: number }>("PRAGMA journal_size_limit")!.journal_size_limit;
    assert.ok(limit > 0, "a journal size limit is set");
    assert.ok(walBytes(file) <= limit, `WAL ${walBytes(file)} bytes > limit ${limit}`);
  } finally {
    d.close();
    removeSandbox(sb);
  }
});

test("an idle checkpoint that comes due while a call waits on the network (the team hive) runs once the call has answered, not inside it", async () => {
  const sb = makeSandbox();
  const d = new SqliteDriver(path.join(sb.root, "w.db"));
  try {
    d.exec("CREATE TABLE t (x)");
    for (let i = 0; i < 50; i++) d.run("INSERT INTO t VALUES (?)", [i]);
    // An injection awaiting PostgreSQL: the event loop is free, so the checkpoint's timer fires meanwhile.
    let answer!: () => void;
    const call = asCall(() => new Promise<void>((resolve) => (answer = resolve)));
    assert.equal(callsInFlight(), 1);
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(d.idleCheckpoints, 0, "the checkpoint (a WAL restart with its syncs) waits: it would stretch the call");
    answer();
    await call;
    assert.equal(callsInFlight(), 0);
    assert.equal(d.idleCheckpoints, 0, "not before the caller has its answer either");
    await new Promise((r) => setImmediate(r));
    assert.equal(d.idleCheckpoints, 1, "right after the call answered");
    assert.equal(d.walRestarts, 1);
  } finally {
    d.close();
    removeSandbox(sb);
  }
});

test("a checkpoint still waiting when the connection closes does not run on it", async () => {
  const sb = makeSandbox();
  const d = new SqliteDriver(path.join(sb.root, "c.db"));
  let answer!: () => void;
  const call = asCall(() => new Promise<void>((resolve) => (answer = resolve)));
  try {
    d.exec("CREATE TABLE t (x)");
    d.run("INSERT INTO t VALUES (1)");
    await new Promise((r) => setTimeout(r, 1300));
  } finally {
    d.close();
    answer();
    await call;
    await new Promise((r) => setImmediate(r));
    removeSandbox(sb);
  }
  assert.equal(d.idleCheckpoints, 0, "close() folded the WAL in itself");
});

/** The WAL header's checkpoint sequence and salts: they change exactly when the log is started over. */
const walGeneration = (file: string): string => fs.readFileSync(`${file}-wal`).subarray(12, 24).toString("hex");

test("regression 10.5 (inject p99 at 10k): after an idle checkpoint took in the whole WAL, the log is started over between calls, not by the next write", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "r.db");
  const d = new SqliteDriver(file);
  try {
    d.exec("CREATE TABLE t (x BLOB)");
    d.exec("PRAGMA user_version = 7");
    for (let i = 0; i < 200; i++) d.run("INSERT INTO t VALUES (randomblob(10000))");
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(d.idleCheckpoints, 1, "the idle checkpoint ran");
    // Starting the log over rewrites and syncs the WAL header and truncates the file: 4–15 ms that
    // the next injection's usage count used to pay, after every idle checkpoint.
    assert.equal(d.walRestarts, 1, "the log was started over right after the checkpoint");
    const generation = walGeneration(file);
    d.run("INSERT INTO t VALUES (1)");
    assert.equal(walGeneration(file), generation, "the next write appended to the log instead of starting it over");
    assert.equal(d.get<{ user_version: number }>("PRAGMA user_version")?.user_version, 7, "the restart changed no data");
    assert.equal(d.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 201);
  } finally {
    d.close();
    removeSandbox(sb);
  }
});

test("rehearse(): its writes are rolled back, it never waits for the lock, and the first real commit after it appends to the WAL", () => {
  withFile((file) => {
    const setup = new SqliteDriver(file);
    setup.exec("CREATE TABLE t (x)");
    setup.exec("PRAGMA user_version = 3");
    setup.run("INSERT INTO t VALUES (1)");
    setup.close(); // truncates the WAL: the next connection's first commit starts the log
    const d = new SqliteDriver(file);
    try {
      assert.equal(d.rehearse(() => {
        for (let i = 0; i < 5; i++) d.run("INSERT INTO t VALUES (?)", [i]);
        d.transaction(() => d.run("UPDATE t SET x = x + 1"));
      }), true);
      assert.equal(d.rehearsals, 1);
      assert.equal(d.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 1, "the rehearsed rows are gone");
      assert.equal(d.get<{ x: number }>("SELECT x FROM t")?.x, 1, "the rehearsed update is undone");
      assert.equal(d.get<{ user_version: number }>("PRAGMA user_version")?.user_version, 3);
      const generation = walGeneration(file);
      d.run("INSERT INTO t VALUES (2)");
      assert.equal(walGeneration(file), generation, "the first real write did not have to start the log");
      // A failing rehearsal leaves nothing behind either.
      assert.equal(d.rehearse(() => {
        d.run("INSERT INTO t VALUES (9)");
        throw new Error("boom");
      }), false);
      assert.equal(d.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 2);
      // Another writer holds the lock: no rehearsal, and no wait for the busy timeout.
      const other = new Database(file);
      other.exec("BEGIN IMMEDIATE");
      try {
        assert.equal(d.rehearse(() => d.run("INSERT INTO t VALUES (3)")), false);
      } finally {
        other.exec("ROLLBACK");
        other.close();
      }
      assert.equal(d.get<{ timeout: number }>("PRAGMA busy_timeout")?.timeout, 5000, "the busy timeout is restored");
      d.run("INSERT INTO t VALUES (4)");
      assert.equal(d.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 3);
    } finally {
      d.close();
    }
  });
});

test("a batch is one commit; a transaction inside it that fails undoes only its own writes (savepoint), and other connections see the batch only once it commits", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "t.db");
  const d = new SqliteDriver(file);
  const reader = new Database(file);
  try {
    d.exec("CREATE TABLE t(x INTEGER)");
    const before = d.commits;
    const seenOutside: number[] = [];
    await d.batch(async () => {
      d.transaction(() => d.run("INSERT INTO t VALUES (1)"));
      await new Promise((r) => setImmediate(r));
      assert.throws(() =>
        d.transaction(() => {
          d.run("INSERT INTO t VALUES (2)");
          throw new Error("unit failed after writing");
        }),
      /after writing/);
      d.transaction(() => d.run("INSERT INTO t VALUES (3)"));
      seenOutside.push((reader.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n);
    });
    assert.deepEqual(seenOutside, [0], "nothing is visible to another connection before the batch commits");
    assert.deepEqual(d.all<{ x: number }>("SELECT x FROM t ORDER BY x").map((r) => r.x), [1, 3]);
    assert.equal(d.commits - before, 1, "three units, one commit");
  } finally {
    reader.close();
    d.close();
    removeSandbox(sb);
  }
});

test("multi-row reads keep the query's order and every value exactly (reals to the last digit, JSON-looking text as text)", () => {
  withFile((file) => {
    const d = new SqliteDriver(file);
    try {
      d.exec("CREATE TABLE v (id INTEGER PRIMARY KEY, t TEXT, r REAL, n, b BLOB)");
      const reals = [0.1 + 0.2, 0.45000000000000007, 1e300, -2.5e-300, 3];
      const texts = ['["x"]', '{"k":1}', "", "plain", "null"];
      reals.forEach((r, i) => d.run("INSERT INTO v(t, r, n) VALUES (?, ?, ?)", [texts[i]!, r, i % 2 ? null : i]));
      const rows = d.all<{ id: number; t: string; r: number; n: number | null; again: number }>("SELECT id, t, r, n, id AS again FROM v ORDER BY r DESC");
      const expected = reals.map((r, i) => ({ id: i + 1, t: texts[i]!, r, n: i % 2 ? null : i, again: i + 1 })).sort((a, b) => b.r - a.r);
      assert.deepEqual(rows, expected);
      assert.deepEqual(d.all("SELECT id FROM v WHERE id > 99"), []);
      // A repeated column name keeps the last value, as libSQL's own rows do.
      assert.deepEqual(d.all("SELECT 1 AS x, 2 AS x"), [{ x: 2 }]);
      // JSON cannot carry a BLOB; such a read still answers (through the plain cursor).
      d.run("UPDATE v SET b = ? WHERE id = 1", [Buffer.from([7, 8])]);
      const blob = d.all<{ b: ArrayBuffer | Buffer }>("SELECT b FROM v WHERE id = 1")[0]!.b;
      assert.deepEqual([...new Uint8Array(blob as ArrayBuffer)], [7, 8]);
      assert.equal(d.all<{ journal_mode: string }>("PRAGMA journal_mode")[0]?.journal_mode, "wal");
    } finally {
      d.close();
    }
  });
});

test("a JSON column comes back parsed, in the query's order, by every read path (packed, plain cursor, single row), with one JSON.parse per read", () => {
  withFile((file) => {
    const d = new SqliteDriver(file);
    const realParse = JSON.parse;
    try {
      d.exec("CREATE TABLE j (id INTEGER PRIMARY KEY, doc TEXT, r REAL, b BLOB)");
      const docs = [{ a: [1, "x\"y\\"], n: null }, "text", null, 0.1 + 0.2, { "é\u2028": true }];
      docs.forEach((doc) => d.run("INSERT INTO j(doc, r) VALUES (?, ?)", [doc === null ? null : JSON.stringify(doc), 0.45000000000000007]));
      const expected = docs.map((doc, i) => ({ id: docs.length - i, doc: docs[docs.length - 1 - i], r: 0.45000000000000007 }));
      let parses = 0;
      JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => (parses++, realParse(text, reviver))) as typeof JSON.parse;
      const rows = d.all("SELECT id, doc, r FROM j ORDER BY id DESC", [], { json: "doc" });
      const packedParses = parses;
      JSON.parse = realParse;
      assert.deepEqual(rows, expected);
      assert.ok(packedParses <= 2, `${packedParses} JSON.parse calls for ${docs.length} rows (one per row on top of the pack's was the waste)`);
      assert.deepEqual(d.all("SELECT id, doc, r FROM j WHERE id > 99", [], { json: "doc" }), []);
      const one = d.get<{ id: number; doc: unknown; r: number }>("SELECT id, doc, r FROM j WHERE id = 5", [], { json: "doc" });
      assert.deepEqual({ id: one?.id, doc: one?.doc, r: one?.r }, expected[0]);
      // A BLOB sends the read down the plain cursor: the column is still parsed.
      assert.deepEqual(
        d.all<{ id: number; doc: unknown }>("SELECT id, doc, b FROM j ORDER BY id DESC", [], { json: "doc" }).map((r) => ({ id: r.id, doc: r.doc })),
        expected.map((r) => ({ id: r.id, doc: r.doc })),
      );
      d.run("UPDATE j SET b = ? WHERE id = 1", [Buffer.from([1])]);
      assert.deepEqual(d.all<{ id: number; doc: unknown }>("SELECT id, doc, b FROM j ORDER BY id DESC", [], { json: "doc" }).map((r) => r.doc), expected.map((r) => r.doc));
    } finally {
      JSON.parse = realParse;
      d.close();
    }
  });
});

test("regression 16.3: multi-row reads do not grow native memory while the event loop is busy (libSQL frees all()'s cursor only on a later turn)", () => {
  withFile((file) => {
    const d = new SqliteDriver(file);
    try {
      d.exec("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)");
      d.transaction(() => {
        for (let i = 0; i < 200; i++) d.run("INSERT INTO t(b) VALUES (?)", ["x".repeat(50)]);
      });
      const read = (i: number) => d.all("SELECT a, b FROM t WHERE a > ? ORDER BY a LIMIT 5", [i % 100]);
      for (let i = 0; i < 5_000; i++) read(i);
      const statements = d.statementCount;
      // Memory outside the JS heap: what a leaked native cursor adds to (≈900 bytes per call before the fix).
      const native = () => process.memoryUsage().rss - process.memoryUsage().heapTotal;
      const before = native();
      const calls = 40_000;
      for (let i = 0; i < calls; i++) read(i);
      const grownMb = (native() - before) / 1048576;
      assert.ok(grownMb < 15, `native memory grew ${grownMb.toFixed(1)} MB over ${calls} reads (a leak would be ≈ ${((calls * 900) / 1048576).toFixed(0)} MB)`);
      assert.equal(d.statementCount, statements, "no statement prepared again");
    } finally {
      d.close();
    }
  });
});
