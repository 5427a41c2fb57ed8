// `cairn ui` as a user starts it: the global --project and --hive flags mean what they mean for every other command.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, sandbox } from "../helpers/cli.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { httpSession, startUi } from "../helpers/web.js";

/** Timeouts for a busy shared machine: these tests are about which hive the page reads, not how fast. */
const PATIENT = { CAIRN__hive_postgres__read_timeout_ms: "10000", CAIRN__hive_postgres__connect_timeout_ms: "30000" };

/**
 * Runs `cairn ui` that is expected to refuse; a server that started anyway would never exit, so it is
 * stopped once it prints its sign-in link. Its exit code and everything it printed.
 */
async function runRefusedUi(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [BIN, ...args, "ui", "--port", "0"], { ...opts, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
  const timer = setInterval(() => {
    if (/Sign in:/.test(out)) child.kill("SIGTERM");
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearInterval(timer);
  return { code, out };
}

test("cairn ui --project <a folder that does not exist> refuses, as every other command does, and creates nothing", async () => {
  const sb = sandbox();
  try {
    const missing = path.join(sb.root, "projects", "typo");
    const { code, out } = await runRefusedUi(["--project", missing], { cwd: sb.root, env: sb.env });
    assert.doesNotMatch(out, /Sign in:/, "no server for a project folder that does not exist");
    assert.equal(code, 2, out);
    assert.match(out, /does not exist/);
    assert.equal(fs.existsSync(missing), false, "the typo'd folder is not created");
  } finally {
    sb.cleanup();
  }
});

test("cairn ui in an agent's shell (CAIRN_ACTOR=agent:…) refuses: the page approves as a person, which an agent may not", async () => {
  const sb = sandbox();
  try {
    const p = sb.project("api");
    const { code, out } = await runRefusedUi(["--project", p], { cwd: sb.root, env: { ...sb.env, CAIRN_ACTOR: "agent:coder" } });
    assert.doesNotMatch(out, /Sign in:/, "no sign-in link for an agent");
    assert.equal(code, 1, out);
    assert.match(out, /Only a person can/);
    assert.match(out, /agent:coder/);
  } finally {
    sb.cleanup();
  }
});

test("cairn ui --hive postgres://… serves the team hive (the URL is not taken for a file path)", { ...pgTestOptions(), timeout: 300_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("uihive");
  const sb = sandbox();
  const env = { ...sb.env, CAIRN__hive_postgres__schema: schema, ...PATIENT };
  let ui: Awaited<ReturnType<typeof startUi>> | undefined;
  try {
    const p = sb.project("api");
    const lesson = "Pin the Terraform provider versions in required_providers; an unpinned upgrade rewrote our state.";
    const promoted = await sb.raw(["--json", "--project", p, "--hive", url, "promote", lesson], { env });
    assert.equal(promoted.code, 0, promoted.stderr);
    const handle = JSON.parse(promoted.stdout).handle as string;

    ui = await startUi(p, env, ["--hive", url], { cwd: sb.root });
    const { cookie } = await httpSession(ui);
    const page = await fetch(`${ui.base}/lessons?tier=hive`, { headers: { cookie } }).then((r) => r.text());
    assert.match(page, new RegExp(`>${handle}<`), "the lessons page lists the team hive's lesson");
    assert.ok(page.includes("Pin the Terraform provider versions"), "the lessons page lists the team hive's lesson");
    assert.equal(fs.existsSync(path.join(sb.root, "postgres:")), false, "no SQLite file was made under a folder named after the URL");
  } finally {
    await ui?.stop();
    await dropSchema(url, schema);
    sb.cleanup();
  }
});

/** Runs `cairn ui --open` with `opener` on PATH as the platform's browser opener (or none), until the opener has had its say. */
async function uiOpenWith(opener: string | undefined): Promise<{ stdout: string; stderr: string; runningAfter: boolean }> {
  const sb = sandbox();
  try {
    const p = sb.project("shop");
    const init = await sb.run(p, "init");
    assert.equal(init.code, 0, init.stderr);
    const bin = path.join(sb.root, "bin");
    fs.mkdirSync(bin, { recursive: true });
    const name = process.platform === "darwin" ? "open" : "xdg-open";
    if (opener !== undefined) fs.writeFileSync(path.join(bin, name), opener, { mode: 0o755 });
    // Only the sandbox's bin: the real opener (if this machine has one) is not found.
    const env = { ...sb.env, PATH: bin };
    const child = spawn(process.execPath, [BIN, "--project", p, "ui", "--port", "0", "--open"], { cwd: sb.root, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // Waits for the failure report (or, before the fix, long after the opener has exited).
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !/could not open a browser/.test(stderr) && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    if (!/could not open a browser/.test(stderr)) await new Promise((r) => setTimeout(r, 3000));
    const runningAfter = child.exitCode === null;
    child.kill("SIGTERM");
    await exited;
    return { stdout, stderr, runningAfter };
  } finally {
    sb.cleanup();
  }
}

for (const [label, opener] of [
  ["is missing", undefined],
  ["exits 1", "#!/bin/sh\nexit 1\n"],
] as const) {
  test(`cairn ui --open when the browser opener ${label}: says so on stderr with the link to open by hand, and keeps serving`, { skip: process.platform === "win32" }, async () => {
    const r = await uiOpenWith(opener);
    const link = /Sign in: (http:\/\/\S+)/.exec(r.stdout)?.[1];
    assert.ok(link, r.stdout + r.stderr);
    assert.match(r.stderr, /could not open a browser/, r.stderr);
    assert.ok(r.stderr.includes(link), `the link to open by hand is on stderr:\n${r.stderr}`);
    assert.ok(r.runningAfter, "the server keeps running");
  });
}
