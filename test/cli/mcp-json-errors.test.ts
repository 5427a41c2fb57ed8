// `cairn mcp … --json` that cannot start: one JSON error on stdout like every other command (it printed nothing there, only a stderr line).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("cairn mcp with flags it cannot start with, under --json: exit 2 and one {error} value on stdout (nothing on stderr); without --json stdout stays empty", async () => {
  const p = sb.project("mcp-json");
  for (const args of [["mcp", "--port", "1234"], ["mcp", "--http", "--port", "99999"]]) {
    const r = await sb.raw(["--project", p, ...args, "--json"], { timeoutMs: 60_000 });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    const body = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    assert.equal(body.error.code, "INVALID_INPUT", args.join(" "));
    assert.match(body.error.message, /--port/);
    assert.equal(r.stderr, "", `${args.join(" ")}: the error is said once, as the JSON value`);
    const plain = await sb.raw(["--project", p, ...args], { timeoutMs: 60_000 });
    assert.equal(plain.code, 2);
    assert.equal(plain.stdout, "", "stdout is the protocol's: nothing else is written there");
    assert.match(plain.stderr, /--port/);
  }
});
