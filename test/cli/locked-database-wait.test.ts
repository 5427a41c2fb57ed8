// A write that waits on another process's write lock says so on stderr while it waits, and its failure names the wait and the setting.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { sandbox } from "../helpers/cli.js";
import { startCli, until } from "../helpers/running-cli.js";

const LOCK_HOLDER = fileURLToPath(new URL("../fixtures/workers/lock-holder.ts", import.meta.url));
const sb = sandbox();
after(() => sb.cleanup());

test("cairn add against a database another process keeps locked: a notice while it waits, then an error naming busy_timeout_ms", { timeout: 300_000 }, async () => {
  const p = sb.project("locked");
  const first = await sb.run(p, "add", "Run prisma migrate deploy before starting the API container in CI");
  assert.equal(first.code, 0, first.stderr);
  // Each attempt waits 200 ms, so the whole wait stays short even on a loaded machine.
  const config = path.join(sb.root, "busy.json");
  fs.writeFileSync(config, JSON.stringify({ busy_timeout_ms: 200 }));

  // Held far longer than the adder can wait: killed once the test is done.
  const holder = spawn(process.execPath, ["--import", "tsx", LOCK_HOLDER, path.join(p, ".swarm", "cairn.db"), "600000"], { env: sb.env });
  after(() => holder.kill("SIGKILL"));
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on("data", (d: Buffer) => d.toString().includes("LOCKED") && resolve());
    holder.on("exit", (code) => reject(new Error(`the lock holder ended (${code})`)));
  });

  const adder = startCli(sb, p, ["--config", config, "add", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible installs"]);
  let endedFirst = false;
  void adder.exited.then(() => (endedFirst = true));
  // The person at the terminal learns why nothing happens before the command gives up, not only after.
  await until(adder, () => /waiting/i.test(adder.err()) || endedFirst, "it said it was waiting");
  assert.ok(!endedFirst, `a notice is printed while it waits, before it ends; stderr: ${adder.err()}`);
  assert.match(adder.err(), /cairn\.db/, "the notice names the locked file");

  const done = await adder.exited;
  assert.equal(done.code, 1, adder.err());
  assert.match(adder.err(), /locked/i);
  assert.match(adder.err(), /busy_timeout_ms/, "the failure names the setting that bounds the wait");
  assert.doesNotMatch(adder.err(), /\n\s+at /, "no stack trace");
});
