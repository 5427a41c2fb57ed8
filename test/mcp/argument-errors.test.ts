// A tool call with arguments of the wrong type, a missing one or a value out of range is told which argument, what it must be and an example — through the real MCP SDK client.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpSandbox, textOf } from "../helpers/mcp-stdio.js";

const sandbox = mcpSandbox("args");
let client: Client | undefined;

async function connected(): Promise<Client> {
  client ??= await sandbox.connect(sandbox.project());
  return client;
}

async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const r = (await (await connected()).callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, text: textOf(r) };
}

const ZOD_WORDING = /Invalid input|expected string, received|Too big: expected|Invalid option| at (query|top_n|lesson|verdict)\b/;

test("a wrong type names the argument, what it must be, what was sent and an example", async () => {
  const r = await call("knowledge_recall", { query: 5 });
  assert.equal(r.isError, true);
  assert.match(r.text, /Argument "query" must be a string, not a number\./);
  assert.match(r.text, /Example: \{"query": "[^"]+"\}/);
  assert.doesNotMatch(r.text, ZOD_WORDING);
});

test("a missing argument, a number out of range and a value not in the list each say what to send", async () => {
  const missing = await call("knowledge_add", {});
  assert.equal(missing.isError, true);
  assert.match(missing.text, /Missing argument "lesson"/);
  assert.match(missing.text, /Example: \{"lesson": /);
  const range = await call("knowledge_recall", { query: "auth middleware", top_n: 50 });
  assert.match(range.text, /Argument "top_n" must be at most 20\./);
  const verdict = await call("knowledge_feedback", { id: "S-1", verdict: "meh" });
  assert.match(verdict.text, /Argument "verdict" must be one of "applied", "ignored", "violated", "helpful", "harmful"; it was "meh"\./);
  for (const r of [missing, range, verdict]) assert.doesNotMatch(r.text, ZOD_WORDING);
});

test("an argument the tool does not take still says which it likely meant", async () => {
  const r = await call("knowledge_recall", { query: "auth", limit: 3 });
  assert.match(r.text, /Unknown argument "limit"/);
  assert.match(r.text, /knowledge_recall takes query, top_n, tier, files/);
});

test("a list argument sent as one value is shown an example of that list's own kind, never another argument's", async () => {
  // knowledge_query's status is a list of statuses: its example was a file path ({"status": ["src/auth/session.ts"]}).
  const status = await call("knowledge_query", { status: "quarantined" });
  assert.equal(status.isError, true);
  assert.match(status.text, /Argument "status" must be an array, not a string\./);
  assert.match(status.text, /Example: \{"status": \["candidate"\]\}/);
  // An id list is not a list of paths either.
  const ids = await call("knowledge_outcome", { task: "fix login", success: true, shown_entry_ids: "S-1" });
  assert.match(ids.text, /Argument "shown_entry_ids" must be an array/);
  assert.doesNotMatch(ids.text, /src\/auth\/session\.ts/);
  // A description's example of one item is given as a list, the type the argument takes.
  const checks = await call("knowledge_add", { lesson: "Run the migrations before seeding the test database in CI", verification_checks: "npm test passes" });
  assert.match(checks.text, /Example: \{"verification_checks": \["npm test passes"\]\}/);
  // Paths stay the example where the argument is a list of files.
  const files = await call("knowledge_check", { files: "src/a.ts" });
  assert.match(files.text, /Example: \{"files": \["src\/auth\/session\.ts"\]\}/);
});

test("an argument refused by two rules, one of them worded by the tool, is told once in the tool's words", async () => {
  // An empty query broke both the length rule and the not-blank rule: 'must be at least 1 characters. Argument "query": The query is blank…'.
  const r = await call("knowledge_recall", { query: "" });
  assert.equal(r.isError, true);
  assert.match(r.text, /The query is blank/);
  assert.doesNotMatch(r.text, /at least 1 characters/);
});

test("arguments that are not an object (null, a string, a list) are refused as InvalidParams naming what the tool takes", async () => {
  // The SDK's request check answered -32603 (internal error) with zod's raw issue list ("expected record, received null").
  const c = await connected();
  for (const [sent, kind] of [[null, "null"], ["auth middleware", "a string"], [["auth"], "an array"], [5, "a number"]] as const) {
    const refused = await c.request({ method: "tools/call", params: { name: "knowledge_recall", arguments: sent as never } }, CallToolResultSchema).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof McpError, `arguments ${JSON.stringify(sent)} were accepted`);
    assert.equal(refused.code, ErrorCode.InvalidParams);
    assert.match(refused.message, new RegExp(`knowledge_recall takes an object of arguments \\(query, top_n, tier, files\\), not ${kind}\\.`));
    assert.match(refused.message, /Example: \{"query": "[^"]+"\}/);
    assert.doesNotMatch(refused.message, /expected record|"code":|Invalid input/);
  }
  // A call with no arguments at all is still a call (the tool's own missing-argument answer), and the server still serves.
  const none = await c.request({ method: "tools/call", params: { name: "knowledge_add" } }, CallToolResultSchema);
  assert.equal(none.isError, true);
  assert.match(JSON.stringify(none.content), /Missing argument \\"lesson\\"/);
  assert.equal((await call("knowledge_recall", { query: "auth" })).isError, false);
});
