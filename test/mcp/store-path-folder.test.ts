// A project whose .swarm/cairn.db is a folder is told so through the MCP tools, in words, not as the SQLite driver's "ConnectionFailed(…: 14)".
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpSandbox, textOf } from "../helpers/mcp-stdio.js";

const sandbox = mcpSandbox("dbdir");
let client: Client | undefined;

test("a project database path that is a folder is said to be a folder, with what to do", async () => {
  const project = sandbox.project();
  fs.mkdirSync(path.join(project, ".swarm", "cairn.db"), { recursive: true });
  client = await sandbox.connect(project);
  const r = (await client.callTool({ name: "knowledge_query", arguments: {} })) as CallToolResult;
  const text = textOf(r);
  assert.equal(r.isError, true, text);
  assert.match(text, /cairn\.db: it is a folder, not a database file/);
  assert.match(text, /[Mm]ove or rename/);
  assert.doesNotMatch(text, /ConnectionFailed|: 14\b/);
});
