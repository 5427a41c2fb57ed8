// A handle typed with a look-alike dash or full-width characters (S‑12, Ｓ－１２), as models and keyboards produce them, names the same lesson — through the real MCP SDK client.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpSandbox, textOf } from "../helpers/mcp-stdio.js";

const sandbox = mcpSandbox("lookalike");
let client: Client | undefined;


test("S‑1 with a non-breaking hyphen, an en dash, a minus sign or full-width letters reaches S-1; a path still does not", async () => {
  const project = sandbox.project();
  client = await sandbox.connect(project);
  const added = (await client.callTool({
    name: "knowledge_add",
    arguments: { lesson: "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login." },
  })) as CallToolResult;
  assert.equal((added.structuredContent as { handle: string }).handle, "S-1");
  for (const id of ["S\u20111", "S\u20131", "S\u22121", "\uFF33\uFF0D\uFF11"]) {
    const r = (await client.callTool({ name: "knowledge_feedback", arguments: { id, verdict: "applied" } })) as CallToolResult;
    assert.notEqual(r.isError, true, `${JSON.stringify(id)}: ${textOf(r)}`);
    assert.match(textOf(r), /for S-1 /, JSON.stringify(id));
  }
  const read = await client.readResource({ uri: `cairn://entries/${encodeURIComponent("S\u20111")}` });
  assert.match((read.contents[0] as { text: string }).text, /"handle": "S-1"/);
  // Full-width dots and slashes fold to a path, which is refused as before.
  const pathLike = (await client.callTool({ name: "knowledge_feedback", arguments: { id: "\uFF0E\uFF0E\uFF0Fetc", verdict: "applied" } })) as CallToolResult;
  assert.equal(pathLike.isError, true);
  assert.match(textOf(pathLike), /Invalid entry id/);
});
