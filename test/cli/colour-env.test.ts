// Colour on a terminal follows the conventions people set to turn it off: NO_COLOR, FORCE_COLOR=0, TERM=dumb.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { after, test } from "node:test";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

function hasScript(): boolean {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** `cairn list` on a pseudo-terminal (util-linux `script`), with `env` added: what the terminal receives. */
function listOnTerminal(project: string, env: Record<string, string>): Promise<string> {
  const { NO_COLOR: _drop, ...base } = sb.env;
  const cmd = `${process.execPath} ${BIN} --project ${project} list`;
  const child = spawn("script", ["-qfec", cmd, "/dev/null"], { env: { ...base, TERM: "xterm", ...env } });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on("close", () => resolve(out)));
}

const ESC = /\u001b\[\d+m/;

test("a terminal gets colour unless NO_COLOR, FORCE_COLOR=0 or TERM=dumb turns it off", { skip: !hasScript() && "needs util-linux script" }, async () => {
  const p = sb.project("colour");
  assert.equal((await sb.run(p, "add", "Run prisma migrate deploy before starting the API container in CI")).code, 0);
  assert.match(await listOnTerminal(p, {}), ESC, "colour on a plain terminal (the test sees the pseudo-terminal)");
  assert.doesNotMatch(await listOnTerminal(p, { NO_COLOR: "1" }), ESC, "NO_COLOR");
  assert.doesNotMatch(await listOnTerminal(p, { FORCE_COLOR: "0" }), ESC, "FORCE_COLOR=0");
  assert.doesNotMatch(await listOnTerminal(p, { FORCE_COLOR: "false" }), ESC, "FORCE_COLOR=false");
  assert.doesNotMatch(await listOnTerminal(p, { TERM: "dumb" }), ESC, "TERM=dumb");
});

test("an import on a TERM=dumb terminal reports progress without cursor escapes", { skip: !hasScript() && "needs util-linux script" }, async () => {
  const p = sb.project("dumb-import");
  const file = `${p}/rows.jsonl`;
  const rows = ["Run prisma migrate deploy before starting the API container in CI", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible installs"];
  (await import("node:fs")).writeFileSync(file, rows.map((lesson) => JSON.stringify({ lesson, category: "tooling" })).join("\n") + "\n");
  const { NO_COLOR: _drop, ...base } = sb.env;
  const cmd = `${process.execPath} ${BIN} --project ${p} import ${file} --format opencode-swarm`;
  const child = spawn("script", ["-qfec", cmd, "/dev/null"], { env: { ...base, TERM: "dumb" } });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => child.on("close", resolve));
  assert.match(out, /imported 2/, out);
  assert.doesNotMatch(out, /\u001b/, JSON.stringify(out));
});
