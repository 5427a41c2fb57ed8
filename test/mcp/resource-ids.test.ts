// An entry resource URI whose id is not an id (a broken %-escape, an encoded path) is refused as bad params naming what an id holds, never as an internal error — through the real MCP SDK client.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { mcpSandbox } from "../helpers/mcp-stdio.js";

const sandbox = mcpSandbox("resid");
let client: Client | undefined;

test("a broken %-escape or an encoded path in cairn://entries/{id} is InvalidParams saying what an id holds", async () => {
  const project = sandbox.project();
  client = await sandbox.connect(project);
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
