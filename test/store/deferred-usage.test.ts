// An injection's shown counts are written after it answers: seen at once by its own process, committed between calls or at close, one transaction for a burst of turns, and a count that cannot be written fails nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn } from "../../src/index.js";
import type { SqliteDriver } from "../../src/store/driver.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { withCairn } from "../helpers/engine.js";

const turn = () => new Promise((r) => setImmediate(r));
const CTX = { task: "speed up the nightly prisma import job" };

function swarmDriver(cairn: Cairn): SqliteDriver {
  return (cairn as unknown as { services: { swarm: { driver: SqliteDriver } } }).services.swarm.driver;
}

async function seeded(cairn: Cairn): Promise<string[]> {
  const ids: string[] = [];
  for (const lesson of [
    "Prisma interactive transactions time out after five seconds; batch the import writes into chunks.",
    "Prisma migrate deploy must run before the app starts in the import job container.",
  ]) ids.push((await cairn.add({ lesson, category: "tooling" })).id!);
  return ids;
}

test("the answer does not wait for the shown counts; this process reads them at once, another after a turn", async () => {
  await withCairn(async (cairn, sb) => {
    const ids = await seeded(cairn);
    const other = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    try {
      const driver = swarmDriver(cairn);
      const commits = driver.commits;
      const block = await cairn.inject(CTX);
      assert.ok(block.entries.length >= 1);
      assert.equal(driver.commits, commits, "nothing committed before the answer");
      // Read-your-writes: the first use of the connection writes what waits.
      assert.equal((await cairn.get(ids[0]!)).usage.shown, 1);
      assert.equal(driver.commits, commits + 1);

      await cairn.inject(CTX);
      await turn();
      // Another connection sees it once the event loop has turned (the write ran between calls).
      assert.equal((await other.get(ids[0]!)).usage.shown, 2);
      const history = (await other.history(ids[0]!)).filter((e) => e.type === "shown");
      assert.equal(history.length, 2);
    } finally {
      await other.close();
    }
  });
});

test("injections in flight together share one commit for their counts", async () => {
  await withCairn(async (cairn) => {
    const ids = await seeded(cairn);
    const driver = swarmDriver(cairn);
    const commits = driver.commits;
    const flushes = driver.deferredFlushes;
    await Promise.all([cairn.inject(CTX), cairn.inject(CTX), cairn.inject(CTX)]);
    await turn();
    assert.equal(driver.deferredFlushes, flushes + 1);
    assert.equal(driver.commits, commits + 1);
    assert.equal((await cairn.get(ids[0]!)).usage.shown, 3);
  });
});

test("close writes the counts still waiting", async () => {
  const sb = makeSandbox();
  try {
    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    const ids = await seeded(cairn);
    await cairn.inject(CTX);
    await cairn.close();
    const again = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    try {
      assert.equal((await again.get(ids[0]!)).usage.shown, 1);
    } finally {
      await again.close();
    }
  } finally {
    removeSandbox(sb);
  }
});

test("a count that cannot be written is dropped with one notice, and the read that comes next still answers", async () => {
  await withCairn(async (cairn) => {
    const ids = await seeded(cairn);
    const driver = swarmDriver(cairn);
    await cairn.inject(CTX);
    driver.refuseWrites(new Error("disk full (simulated)"));
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      assert.equal((await cairn.get(ids[0]!)).usage.shown, 0);
    } finally {
      process.stderr.write = write;
    }
    assert.equal(written.filter((l) => l.includes("usage counts")).length, 1, written.join(""));
    assert.match(written.join(""), /dropped: disk full \(simulated\)/);
  });
});
