// A client whose workspace roots are not file:// folders (a remote workspace's vscode-remote:// URI) still gets the project the server was started on, as a client whose roots name no folder here does — not a refusal of every call.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const MAIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cairn-mcp-roots-")));
let client: Client | undefined;
after(async () => {
  await client?.close().catch(() => undefined);
  fs.rmSync(base, { recursive: true, force: true });
});

test("roots that are not file:// URIs fall back to the server's project, and the lesson is stored there", async () => {
  const home = path.join(base, "home");
  const project = path.join(base, "p");
  fs.mkdirSync(project, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config"), CAIRN_HIVE: path.join(base, "hive.db") };
  client = new Client({ name: "remote-ide", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "vscode-remote://ssh-remote+box/home/dev/api", name: "api" }] }));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, "--project", project], cwd: base, env, stderr: "pipe" }));
  const r = (await client.callTool({ name: "knowledge_add", arguments: { lesson: "Run alembic upgrade head before the pytest integration suite in services/billing" } })) as CallToolResult;
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  assert.notEqual(r.isError, true, text);
  assert.match(text, /added S-1/);
  assert.ok(fs.existsSync(path.join(project, ".swarm", "cairn.db")), "stored in the server's project");
});
