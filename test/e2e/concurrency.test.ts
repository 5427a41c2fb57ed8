// Many processes writing one project at once, and a cross-process BUSY: no acknowledged write may be lost.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openCairn } from "../../src/index.js";
import { makeSandbox, openReadOnly, removeSandbox, runWorker } from "../fixtures/workers/sandbox.js";

const WORKERS = 8;
const PER_WORKER = 500;

function ackedIds(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("ADDED "))
    .map((l) => l.slice("ADDED ".length).trim().split(" ")[0]!);
}

test(`${WORKERS} processes × ${PER_WORKER} adds into one project: every acknowledged id is stored`, async (t) => {
  const sb = makeSandbox();
  try {
    // All workers start on a database that does not exist yet: creation and migration race too.
    const runs = Array.from({ length: WORKERS }, (_, w) =>
      runWorker("add-worker.ts", [sb.projectDir, sb.hivePath, String(w), String(PER_WORKER)], sb.env),
    );
    const results = await Promise.all(runs.map((r) => r.done));
    const acked: string[] = [];
    results.forEach((r, w) => {
      assert.equal(r.code, 0, `worker ${w} failed: ${r.stderr.slice(0, 2000)}`);
      assert.doesNotMatch(r.stderr, /ERROR|SQLITE_|Error:/, `worker ${w} surfaced an error: ${r.stderr.slice(0, 2000)}`);
      const notAdded = r.stdout.split("\n").filter((l) => l.startsWith("NOT-ADDED"));
      assert.deepEqual(notAdded, [], `worker ${w}: distinct lessons must each be added`);
      const ids = ackedIds(r.stdout);
      assert.equal(ids.length, PER_WORKER, `worker ${w} acknowledged ${ids.length} adds`);
      acked.push(...ids);
    });
    assert.equal(new Set(acked).size, WORKERS * PER_WORKER, "ids are unique across processes");

    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    try {
      const missing: string[] = [];
      for (const id of acked) {
        const e = await cairn.get(id).catch(() => undefined);
        if (!e || e.id !== id) missing.push(id);
      }
      assert.deepEqual(missing.slice(0, 10), [], `${missing.length} acknowledged ids are missing`);
      const swarm = (await cairn.stats()).tiers.find((t) => t.tier === "swarm")!;
      assert.equal(swarm.total, WORKERS * PER_WORKER, "no extra or lost rows");
      t.diagnostic(`acknowledged ids ${acked.length}, unique ${new Set(acked).size}, rows in the database ${swarm.total}`);
      assert.equal((await cairn.doctor())[0]!.integrity, "ok");
    } finally {
      await cairn.close();
    }
  } finally {
    removeSandbox(sb);
  }
});

test("cross-process BUSY: a writer with a 50 ms busy timeout reopens, retries, and loses nothing", async (t) => {
  const sb = makeSandbox();
  try {
    // The schema must exist before a raw connection takes the lock.
    const init = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    const dbFile = init.swarmPath;
    await init.close();

    // The adder opens first and waits; it starts writing the moment the holder has the lock.
    const adder = runWorker("add-worker.ts", [sb.projectDir, sb.hivePath, "3", "25", "50", "--wait-go"], sb.env);
    await adder.waitForLine(/^OPENED$/);
    const holder = runWorker("lock-holder.ts", [dbFile, "1500"], sb.env);
    await holder.waitForLine(/^LOCKED$/);
    adder.send("go");
    const [h, a] = await Promise.all([holder.done, adder.done]);

    assert.equal(h.code, 0, `lock holder failed: ${h.stderr}`);
    assert.equal(a.code, 0, `adder surfaced an error: ${a.stderr.slice(0, 2000)}`);
    // No add can be acknowledged before the holder commits: ordered by the machine's clock, which both processes share.
    const releasedAt = Number(/^RELEASED (\d+)$/m.exec(h.stdout)?.[1]);
    const firstAckAt = Math.min(...a.stdout.split("\n").filter((l) => l.startsWith("ADDED ")).map((l) => Number(l.split(" ")[2])));
    assert.ok(firstAckAt >= releasedAt, `the first add was acknowledged (${firstAckAt}) only after the lock was released (${releasedAt})`);
    const ids = ackedIds(a.stdout);
    assert.equal(ids.length, 25, `every add is acknowledged: ${a.stdout}`);
    const reopens = Number(/^REOPENS (-?\d+)$/m.exec(a.stdout)?.[1]);
    assert.ok(reopens > 0, `the driver must have hit BUSY and reopened (reopenCount=${reopens})`);
    t.diagnostic(`acknowledged ${ids.length} adds while another process held the write lock; reopenCount ${reopens}`);

    // A fresh process sees every acknowledged write, and the lock holder's commit as well.
    const idsFile = path.join(sb.root, "ids.txt");
    fs.writeFileSync(idsFile, ids.join("\n"));
    const verify = await runWorker("verify-worker.ts", [sb.projectDir, sb.hivePath, idsFile], sb.env).done;
    assert.equal(verify.code, 0, verify.stderr);
    const report = JSON.parse(verify.stdout.trim().split("\n").pop()!) as { checked: number; missing: string[]; total: number };
    assert.equal(report.checked, 25);
    assert.deepEqual(report.missing, []);
    assert.equal(report.total, 25);
    const raw = openReadOnly(dbFile);
    try {
      const mark = raw.prepare("SELECT value FROM meta WHERE key = 'lock_holder_mark'").get([]) as { value: number } | undefined;
      assert.ok(mark && mark.value > 0, "the lock holder's own write survived");
    } finally {
      raw.close();
    }
  } finally {
    removeSandbox(sb);
  }
});
