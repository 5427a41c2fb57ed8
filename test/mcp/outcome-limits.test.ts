// knowledge_outcome tells an agent the engine's own limits (duration, error and retry counts, a blank task or path) in words, through the real MCP SDK client.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { openCairn } from "../../src/engine.js";
import { mcpSandbox, textOf } from "../helpers/mcp-stdio.js";

const sandbox = mcpSandbox("outcome");
const { env } = sandbox;
const project = sandbox.project();
let client: Client | undefined;

async function call(args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  client ??= await sandbox.connect(project);
  const r = (await client.callTool({ name: "knowledge_outcome", arguments: args })) as CallToolResult;
  return { isError: r.isError === true, text: textOf(r) };
}

/** zod's own wording ("Too big: expected number to be <=604800000"), with the sanitiser's look-alike brackets. */
const ZOD_WORDING = /Too (big|small)|expected (number|string)|[<>＜＞]=/;

test("a duration, an error count or a retry count past the engine's limit is refused naming the argument and the limit", async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ duration_ms: 8 * 86_400_000 }, /"duration_ms" must be at most 604800000\b/],
    [{ error_count: 1_000_000 }, /"error_count" must be at most 100000\b/],
    [{ retry_count: 1_000_000 }, /"retry_count" must be at most 100000\b/],
  ];
  for (const [extra, said] of cases) {
    const r = await call({ task: "fix the login redirect", success: true, ...extra });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, said);
    assert.doesNotMatch(r.text, ZOD_WORDING);
  }
});

test("a blank task or a blank touched path is refused in words, not zod's", async () => {
  const task = await call({ task: "   ", success: true });
  assert.equal(task.isError, true);
  assert.match(task.text, /"task"/);
  assert.match(task.text, /blank/);
  assert.doesNotMatch(task.text, ZOD_WORDING);
  const files = await call({ task: "fix the login redirect", success: true, files_touched: ["src/auth.ts", " "] });
  assert.equal(files.isError, true);
  assert.match(files.text, /"files_touched" \(item 1\)/);
  assert.doesNotMatch(files.text, ZOD_WORDING);
});

test("the engine words an outcome it refuses as every other refusal: the field and its limit", async () => {
  const cairn = await openCairn({ projectDir: project, env });
  try {
    await assert.rejects(cairn.recordOutcome({ task: "fix the login redirect", success: true, duration_ms: 8 * 86_400_000 }), (e: Error) => {
      assert.match(e.message, /duration_ms is too large \(at most 604800000\)/);
      assert.doesNotMatch(e.message, ZOD_WORDING);
      return true;
    });
  } finally {
    await cairn.close();
  }
});

test("a task or touched path of only invisible characters is refused as empty, on MCP and by the engine", async () => {
  // Zero-width and BiDi characters pass a /\S/ check: the outcome was recorded with a task that says nothing.
  const task = await call({ task: "\u200b\u202e\u200b", success: true });
  assert.equal(task.isError, true, task.text);
  assert.match(task.text, /task.*empty once invisible characters/);
  const files = await call({ task: "fix the login redirect", success: true, files_touched: ["src/auth.ts", "\u200b\u2066"] });
  assert.equal(files.isError, true, files.text);
  assert.match(files.text, /files_touched.*empty once invisible characters/);
  const cairn = await openCairn({ projectDir: project, env });
  try {
    await assert.rejects(cairn.recordOutcome({ task: "\ufeff\u00ad", success: false }), /task is empty once invisible characters/);
  } finally {
    await cairn.close();
  }
});
