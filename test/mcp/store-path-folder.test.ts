// A project whose .swarm/cairn.db is a folder is told so through the MCP tools, in words, not as the SQLite driver's "ConnectionFailed(…: 14)".
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const MAIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cairn-mcp-dbdir-")));
let client: Client | undefined;
after(async () => {
  await client?.close().catch(() => undefined);
  fs.rmSync(base, { recursive: true, force: true });
});

test("a project database path that is a folder is said to be a folder, with what to do", async () => {
  const home = path.join(base, "home");
  const project = path.join(base, "p");
  fs.mkdirSync(path.join(project, ".swarm", "cairn.db"), { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config"), CAIRN_HIVE: path.join(base, "hive.db") };
  client = new Client({ name: "dbdir-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN], cwd: project, env, stderr: "pipe" }));
  const r = (await client.callTool({ name: "knowledge_query", arguments: {} })) as CallToolResult;
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  assert.equal(r.isError, true, text);
  assert.match(text, /cairn\.db: it is a folder, not a database file/);
  assert.match(text, /[Mm]ove or rename/);
  assert.doesNotMatch(text, /ConnectionFailed|: 14\b/);
});
