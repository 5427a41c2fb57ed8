// An entry resource URI whose id is not an id (a broken %-escape, an encoded path) is refused as bad params naming what an id holds, never as an internal error — through the real MCP SDK client.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

const MAIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cairn-mcp-resid-")));
let client: Client | undefined;
after(async () => {
  await client?.close().catch(() => undefined);
  fs.rmSync(base, { recursive: true, force: true });
});

test("a broken %-escape or an encoded path in cairn://entries/{id} is InvalidParams saying what an id holds", async () => {
  const home = path.join(base, "home");
  const project = path.join(base, "p");
  fs.mkdirSync(project, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config"), CAIRN_HIVE: path.join(base, "hive.db") };
  client = new Client({ name: "resid-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN], cwd: project, env, stderr: "pipe" }));
  for (const id of ["%E0%A4", "S-1%", "..%2F..%2Fetc%2Fpasswd", "%00"]) {
    await assert.rejects(client.readResource({ uri: `cairn://entries/${id}` }), (e: unknown) => {
      assert.ok(e instanceof McpError, String(e));
      assert.equal(e.code, ErrorCode.InvalidParams, `${id}: ${e.message}`);
      assert.match(e.message, /Invalid entry id: ids hold letters, digits/, id);
      assert.doesNotMatch(e.message, /URI malformed/);
      return true;
    });
  }
  // The server still answers.
  const stats = await client.readResource({ uri: "cairn://stats" });
  assert.equal(stats.contents.length, 1);
});
