// `cairn ui --json`: stdout is one JSON value (where to sign in), as --json promises for every command; the server keeps running.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("cairn ui --json prints one JSON line with the URL and sign-in link, and that server answers", async () => {
  const p = sb.project("ui-json");
  const child = spawn(process.execPath, [BIN, "--project", p, "ui", "--port", "0", "--json"], { cwd: p, env: sb.env });
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  const closed = new Promise((r) => child.on("close", r));
  try {
    const deadline = Date.now() + 120_000;
    while (!stdout.includes("\n") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const ready = JSON.parse(stdout) as { url: string; sign_in: string; project: { name: string } };
    assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(ready.sign_in.startsWith(`${ready.url}/login?token=`), ready.sign_in);
    assert.equal(ready.project.name, "ui-json");
    const res = await fetch(ready.sign_in, { redirect: "manual" });
    assert.ok(res.status < 400, `sign-in answered ${res.status}`);
  } finally {
    child.kill("SIGTERM");
    await closed;
  }
  assert.equal(stdout.trim().split("\n").length, 1, `one JSON value, nothing after it:\n${stdout}`);
});
