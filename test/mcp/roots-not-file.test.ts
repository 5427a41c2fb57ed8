// A client whose workspace roots are not file:// folders (a remote workspace's vscode-remote:// URI) still gets the project the server was started on, as a client whose roots name no folder here does — not a refusal of every call.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpSandbox, textOf } from "../helpers/mcp-stdio.js";

const sandbox = mcpSandbox("roots");

test("roots that are not file:// URIs fall back to the server's project, and the lesson is stored there", async () => {
  const project = sandbox.project();
  const client = await sandbox.connect(sandbox.base, { name: "remote-ide", args: ["--project", project], roots: [{ uri: "vscode-remote://ssh-remote+box/home/dev/api", name: "api" }] });
  const r = (await client.callTool({ name: "knowledge_add", arguments: { lesson: "Run alembic upgrade head before the pytest integration suite in services/billing" } })) as CallToolResult;
  const text = textOf(r);
  assert.notEqual(r.isError, true, text);
  assert.match(text, /added S-1/);
  assert.ok(fs.existsSync(path.join(project, ".swarm", "cairn.db")), "stored in the server's project");
});
