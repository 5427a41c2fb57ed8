// One query limit for every face: the MCP tool schema states the engine's limit, and a query past it is refused the same way as on the CLI.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { QUERY_MAX_CHARS } from "../../src/core/query-limit.js";
import { sandbox } from "../helpers/cli.js";
import { mcpSandbox, textOf } from "../helpers/mcp-stdio.js";

const mcp = mcpSandbox("limit");
const sb = sandbox();
after(() => sb.cleanup());

async function recall(client: Client, query: string): Promise<{ isError: boolean; text: string }> {
  const r = (await client.callTool({ name: "knowledge_recall", arguments: { query } })) as CallToolResult;
  return { isError: r.isError === true, text: textOf(r) };
}

/** A query of exactly `n` characters, made of words the ranking reads. */
const queryOf = (n: number) => "redis connect timeout in the worker startup ".repeat(Math.ceil(n / 44)).slice(0, n);

test("knowledge_recall's schema states the one query limit, takes a query up to it, and refuses one past it saying what to send instead", async () => {
  const client = await mcp.connect(mcp.project("p"));
  const { tools } = await client.listTools();
  const query = (tools.find((t) => t.name === "knowledge_recall")!.inputSchema as { properties: Record<string, { maxLength?: number; description?: string }> }).properties.query!;
  assert.equal(query.maxLength, QUERY_MAX_CHARS);
  assert.match(query.description ?? "", new RegExp(QUERY_MAX_CHARS.toLocaleString("en-US")), "the description says the limit in words too");

  // A pasted error with its stack trace: the CLI took it, MCP refused anything past 2,000 characters.
  const long = await recall(client, queryOf(5_000));
  assert.equal(long.isError, false, long.text);

  const over = await recall(client, queryOf(QUERY_MAX_CHARS + 1));
  assert.equal(over.isError, true, over.text.slice(0, 300));
  assert.match(over.text, new RegExp(`at most ${QUERY_MAX_CHARS}`));
  assert.match(over.text, /the task, the files and the error/);
});

test("the CLI applies the same limit: a query past it is INVALID_INPUT with the same advice, one up to it answers", async () => {
  const p = sb.project("cli-limit");
  const ok = await sb.json(p, "recall", queryOf(QUERY_MAX_CHARS));
  assert.equal(ok.code, 0, ok.stderr);
  const over = await sb.json(p, "recall", queryOf(QUERY_MAX_CHARS + 1));
  assert.equal(over.code, 2, over.stdout);
  assert.equal(over.body.error.code, "INVALID_INPUT");
  assert.match(over.body.error.message, new RegExp(`at most ${QUERY_MAX_CHARS}`));
  assert.match(over.body.error.message, /the task, the files and the error/);
});

/** Queries that pass a /\S/ check yet hold nothing once hidden characters are removed: zero-width, BiDi, BOM, soft hyphen, control. */
const INVISIBLE_ONLY = ["\u200b\u200b\u200b", "\u202e\u2066\u2069", "\ufeff\u00ad \u200d", "\u0007\u001b", "\u2060\t\u200c"];

test("a query made only of invisible characters is refused as empty on MCP (recall, and check's text), not answered 'No lessons match \"\"'", async () => {
  const client = await mcp.connect(mcp.project("invisible"));
  for (const q of INVISIBLE_ONLY) {
    const r = await recall(client, q);
    assert.equal(r.isError, true, `${JSON.stringify(q)}: ${r.text}`);
    assert.match(r.text, /The query is empty once invisible characters .*are removed/);
    assert.doesNotMatch(r.text, /No recorded lessons match/);
  }
  // With files the query goes to the engine inside a context: still refused.
  const withFiles = (await client.callTool({ name: "knowledge_recall", arguments: { query: "\u200b\u200b", files: ["src/a.ts"] } })) as CallToolResult;
  assert.equal(withFiles.isError, true);
  assert.match(textOf(withFiles), /The query is empty once invisible characters/);
  // knowledge_check's text alone, invisible only, is no text: the call is told to pass files or text.
  const check = (await client.callTool({ name: "knowledge_check", arguments: { text: "\u200b\u202e\u200b" } })) as CallToolResult;
  assert.equal(check.isError, true);
  assert.match(textOf(check), /text is empty once invisible characters .*are removed/);
  // Words around hidden characters are still a query.
  const ok = await recall(client, "\u200bredis\u200b connect timeout");
  assert.equal(ok.isError, false, ok.text);
});

test("the CLI refuses an invisible-only query the same way: INVALID_INPUT, the query is empty once invisible characters are removed", async () => {
  const p = sb.project("cli-invisible");
  for (const q of INVISIBLE_ONLY.slice(0, 3)) {
    const r = await sb.json(p, "recall", q);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(r.body.error.code, "INVALID_INPUT");
    assert.match(r.body.error.message, /The query is empty once invisible characters .*are removed/);
  }
});
