// SIGTERM or Ctrl-C during `cairn doctor --repair`: the damaged file is left as it was, the unfinished copy removed, stderr says so, exit 143/130; the next repair works.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fillStore } from "../helpers/big-project.js";
import { BIN, sandbox } from "../helpers/cli.js";
import { sizeOrZero } from "../helpers/file-size.js";

const sb = sandbox();
after(() => sb.cleanup());

const N = 20_000;

/** A project database of N long lessons, its last pages garbled as a bad sector would: a repair copies for a while. */
async function damagedProject(name: string): Promise<{ dir: string; db: string }> {
  const dir = sb.project(name);
  const db = path.join(dir, ".swarm", "cairn.db");
  await fillStore(db, "swarm", N);
  for (const s of ["-wal", "-shm"]) fs.rmSync(db + s, { force: true });
  const size = fs.statSync(db).size;
  const fd = fs.openSync(db, "r+");
  fs.writeSync(fd, Buffer.alloc(8192, 0xa7), 0, 8192, size - 3 * 4096);
  fs.closeSync(fd);
  return { dir, db };
}

const digest = (f: string) => crypto.createHash("sha256").update(fs.readFileSync(f)).digest("hex");

for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  test(`${signal} while \`cairn doctor --repair\` copies leaves the damaged file as it was and no unfinished copy, says so, exits ${code}`, { timeout: 600_000 }, async () => {
    const { dir, db } = await damagedProject(`repair-${signal}`);
    const before = digest(db);
    const folder = path.dirname(db);
    const child = spawn(process.execPath, [BIN, "--project", dir, "doctor", "--repair"], { cwd: dir, env: sb.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    // Sent once the copy is under way: the fresh file beside the damaged one has grown past its empty schema.
    let sent = false;
    const poll = setInterval(() => {
      // A journal beside the copy comes and goes between the listing and its stat: only the copy itself is read, and one gone is not copying.
      const copying = fs.readdirSync(folder).some((n) => n.includes(".repairing-") && !/-(wal|shm|journal)$/.test(n) && sizeOrZero(path.join(folder, n)) > 400_000);
      if (!copying || sent) return;
      sent = true;
      child.kill(signal);
    }, 5);
    const exit = await exited;
    clearInterval(poll);
    assert.ok(sent, `the repair was caught copying:\n${stdout}\n${stderr}`);
    assert.equal(exit, code, `${stdout}\n${stderr}`);
    assert.match(stderr, /stopped before it finished/);
    assert.match(stderr, /left as it was/);
    assert.deepEqual(fs.readdirSync(folder).filter((n) => n.includes(".repairing-") || n.includes(".damaged-")), [], "no unfinished copy, nothing renamed");
    assert.equal(digest(db), before, "the damaged file is untouched");
    const again = await sb.json(dir, "doctor", "--repair");
    assert.equal(again.code, 0, again.stdout + again.stderr);
  });
}
