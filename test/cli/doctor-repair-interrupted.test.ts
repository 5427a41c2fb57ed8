// `cairn doctor --repair` killed half-way (Ctrl-C, a closed terminal, a crash): the project must not be left holding half a copy that doctor calls healthy.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { BIN, sandbox } from "../helpers/cli.js";
import { sizeOrZero } from "../helpers/file-size.js";

const sb = sandbox();
after(() => sb.cleanup());

const N = 6_000;

/** A project database of N lessons written straight to the store, then damaged near its end: a repair of it copies for a while. */
async function damagedProject(): Promise<{ dir: string; db: string }> {
  const dir = sb.project("repair-killed");
  const db = path.join(dir, ".swarm", "cairn.db");
  const store = new SqliteStore(db, "swarm");
  const at = new Date().toISOString();
  const pending: Promise<unknown>[] = [];
  store.driver.transaction(() => {
    for (let i = 0; i < N; i++) {
      const lesson = `In services/billing-${i}/worker.ts retry the ledger-${i} webhook at most ${(i % 7) + 2} times before paging on-call`;
      pending.push(store.insertEntry(EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at }), { type: "created", actor: "human:test" }));
    }
  });
  await Promise.all(pending);
  await store.close();
  for (const s of ["-wal", "-shm"]) fs.rmSync(db + s, { force: true });
  // The last pages garbled, as a bad sector would: the file opens, and the damage is found.
  const size = fs.statSync(db).size;
  const fd = fs.openSync(db, "r+");
  fs.writeSync(fd, Buffer.alloc(8192, 0xa7), 0, 8192, size - 3 * 4096);
  fs.closeSync(fd);
  return { dir, db };
}

test("a repair killed while it copies leaves the damaged file where it was (or a complete copy), never a partial copy doctor calls ok", { timeout: 600_000 }, async () => {
  const { dir, db } = await damagedProject();
  const before = await sb.json(dir, "doctor");
  assert.equal(before.body.ok, false, "the damage is found");

  const child = spawn(process.execPath, [BIN, "--project", dir, "doctor", "--repair"], { cwd: dir, env: sb.env });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  // Killed once the copy is under way: the fresh file has grown past its empty schema.
  const folder = path.dirname(db);
  const started = await new Promise<boolean>((resolve) => {
    const poll = setInterval(() => {
      // Files come and go between the listing and a stat (a journal, the copy renamed into place): one gone counts as empty.
      const growing = fs.readdirSync(folder).some((n) => n !== "cairn.db" && !n.includes(".damaged-") && !n.endsWith("-shm") && sizeOrZero(path.join(folder, n)) > 400_000);
      const fresh = fs.readdirSync(folder).some((n) => n.includes(".damaged-")) && sizeOrZero(db) > 400_000;
      if (growing || fresh) {
        clearInterval(poll);
        child.kill("SIGKILL");
        resolve(true);
      }
    }, 5);
    child.on("exit", () => {
      clearInterval(poll);
      resolve(false);
    });
  });
  await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once("exit", r)));
  assert.ok(started, `the repair was caught copying: ${out}`);

  const doctor = await sb.json(dir, "doctor");
  const swarm = doctor.body.tiers.find((t: { tier: string }) => t.tier === "swarm");
  // Either still damaged (the repair can be run again) or whole; a healthy-looking half is the failure.
  assert.ok(swarm.damaged === true || swarm.entries >= N - 200, `after the kill doctor says ${JSON.stringify(swarm)}`);
  const again = await sb.json(dir, "doctor", "--repair");
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const listed = await sb.json(dir, "stats");
  assert.ok(listed.body.tiers.find((t: { tier: string }) => t.tier === "swarm").total >= N - 200, "running it again recovers the lessons");
});
