// What the CLI says on stderr never carries a terminal's control characters: a cloned repository's config key or a folder name with escape sequences is shown as text, not obeyed by the terminal.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { BIN, sandbox } from "../helpers/cli.js";
import { startUi } from "../helpers/web.js";

const sb = sandbox();
after(() => sb.cleanup());

// Set the window title, clear the screen: what a terminal does with these bytes when they reach it.
const TITLE = "\u001b]0;PWNED\u0007";
const CLEAR = "\u001b[2J\u009b31m";
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

test("a project config key holding escape sequences is named in the error as visible text", async () => {
  const project = sb.project("cloned");
  fs.mkdirSync(path.join(project, ".swarm"));
  fs.writeFileSync(path.join(project, ".swarm", "cairn.json"), JSON.stringify({ knowledge: { [`${TITLE}${CLEAR}`]: 1 } }));
  const r = await sb.run(project, "list");
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /unknown key/);
  assert.doesNotMatch(r.stderr, CONTROL, JSON.stringify(r.stderr));
  assert.ok(r.stderr.includes("\\u001b]0;PWNED\\u0007"), r.stderr);
});

test("a --project path with escape sequences that does not exist is refused without sending them to the terminal", async () => {
  const r = await sb.raw(["--project", path.join(sb.root, `typo${TITLE}`), "list"]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /does not exist/);
  assert.doesNotMatch(r.stderr, CONTROL, JSON.stringify(r.stderr));
});

test("a usage error quoting a mistyped command or option with escape sequences shows them as text", async () => {
  for (const args of [[`lis${TITLE}`], ["list", `--limt${CLEAR}`]]) {
    const r = await sb.raw(args);
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stderr, CONTROL, JSON.stringify(r.stderr));
  }
});

test("cairn ui and cairn mcp log a project folder holding escape sequences as visible text", async () => {
  const project = sb.project(`repo${TITLE}`);
  const ui = await startUi(project, sb.env);
  await ui.stop();
  assert.match(ui.output(), /listening on/);
  assert.doesNotMatch(ui.output(), CONTROL, JSON.stringify(ui.output()));
  const mcp = spawn(process.execPath, [BIN, "--project", project, "mcp"], { cwd: sb.root, env: sb.env, stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  mcp.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (/server ready/.test(stderr)) { clearInterval(timer); resolve(); }
    }, 50);
  });
  mcp.stdin!.end();
  await new Promise((resolve) => mcp.once("exit", resolve));
  assert.doesNotMatch(stderr, CONTROL, JSON.stringify(stderr));
});
