// Opening an up-to-date database needs no write: `cairn ui` (and any face) starts while another process holds the write lock.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { sandbox } from "../helpers/cli.js";
import { startCli, until } from "../helpers/running-cli.js";

const LOCK_HOLDER = fileURLToPath(new URL("../fixtures/workers/lock-holder.ts", import.meta.url));
const sb = sandbox();
after(() => sb.cleanup());

test("cairn ui starts and serves while another process holds the project database's write lock", { timeout: 300_000 }, async () => {
  const p = sb.project("busy");
  const first = await sb.run(p, "add", "Run prisma migrate deploy before starting the API container in CI");
  assert.equal(first.code, 0, first.stderr);

  // Held far longer than the ui would wait for it: killed once the test is done.
  const holder = spawn(process.execPath, ["--import", "tsx", LOCK_HOLDER, path.join(p, ".swarm", "cairn.db"), "600000"], { env: sb.env });
  after(() => holder.kill("SIGKILL"));
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on("data", (d: Buffer) => d.toString().includes("LOCKED") && resolve());
    holder.on("exit", (code) => reject(new Error(`the lock holder ended (${code})`)));
  });

  const ui = startCli(sb, p, ["ui", "--port", "0", "--json"]);
  after(() => ui.child.kill("SIGKILL"));
  // Either it is ready, or it says it waits for the lock (before: it waited, silently, up to ~105 s, then failed).
  await until(ui, () => ui.out().includes("sign_in") || /waiting for/.test(ui.err()), "it was ready or said it waited");
  assert.doesNotMatch(ui.err(), /waiting for/, "starting needs no write lock when the schema is current");
  const { url, sign_in } = JSON.parse(ui.out().trim().split("\n")[0]!) as { url: string; sign_in: string };

  // And it reads while the lock is still held: the lesson is listed.
  const login = await fetch(sign_in, { redirect: "manual" });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
  const page = await fetch(`${url}/lessons`, { headers: { cookie } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /prisma migrate deploy/);
  assert.equal(holder.exitCode, null, "the lock was held throughout");
});
