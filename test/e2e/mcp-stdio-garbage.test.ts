// A client writing a line that is not JSON-RPC to `cairn mcp`: said on stderr (never stdout), and the session carries on.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "garbage-test", version: "1" } } };

test("a line that is not JSON-RPC is named on stderr, stdout holds only protocol, and the next request is answered", async () => {
  const p = sb.project("mcp-garbage");
  const child = spawn(process.execPath, [BIN, "--project", p, "mcp"], { cwd: p, env: sb.env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.write("this is not json\n");
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 7, params: {} })}\n`);
  child.stdin.write(`${JSON.stringify(INIT)}\n`);
  const deadline = Date.now() + 120_000;
  while (!stdout.includes('"id":1') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  child.stdin.end();
  await new Promise((r) => child.on("close", r));
  const replies = stdout.trim().split("\n").map((l) => JSON.parse(l) as { id?: number; result?: unknown });
  assert.ok(replies.some((m) => m.id === 1 && m.result), `initialize answered after the bad lines:\n${stdout}`);
  assert.match(stderr, /cairn mcp: ignored input that is not a JSON-RPC message/);
  assert.ok(stderr.includes("this is not json") || /JSON/.test(stderr), stderr);
  assert.equal(stderr.split("ignored input").length - 1, 2, `each bad line said once:\n${stderr}`);
});
