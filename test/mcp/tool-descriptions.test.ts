// Every tool a client lists says what its answer holds, and the handles it promises are in the answer — through the real MCP SDK client.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpSandbox } from "../helpers/mcp-stdio.js";

const sandbox = mcpSandbox("desc");
let client: Client | undefined;

test("each tool's description has a sentence saying what it returns; those naming a handle return one", async () => {
  const project = sandbox.project();
  client = await sandbox.connect(project);
  const { tools } = await client.listTools();
  assert.ok(tools.length >= 11);
  const silent = tools.filter((t) => !/(?:^|[.:] )Returns /.test(t.description ?? "")).map((t) => t.name);
  assert.deepEqual(silent, [], "these tools do not say what they return");

  // A description that promises a handle is kept to it by a real call.
  const said = (name: string) => tools.find((t) => t.name === name)?.description ?? "";
  const added = (await client.callTool({
    name: "knowledge_add",
    arguments: { lesson: "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login." },
  })) as CallToolResult;
  assert.match(said("knowledge_add"), /handle/);
  assert.match(String((added.structuredContent as { handle?: string }).handle), /^S-\d+$/);
  for (const [name, args] of [
    ["knowledge_feedback", { id: "S-1", verdict: "helpful" }],
    ["knowledge_archive", { id: "S-1" }],
  ] as const) {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    assert.match(said(name), /handle/, name);
    assert.match(JSON.stringify(r.structuredContent), /"handle":"S-1"/, name);
  }
});
