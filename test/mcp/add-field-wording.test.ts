// knowledge_add refuses a field of the wrong kind in plain words an agent can act on ("a whole number"), through the real MCP SDK client.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpSandbox, textOf } from "../helpers/mcp-stdio.js";

const sandbox = mcpSandbox("addword");
let client: Client | undefined;

test("a fractional max_phases is refused as 'should be a whole number', not 'should be a int'", async () => {
  const project = sandbox.project();
  client = await sandbox.connect(project);
  const r = (await client.callTool({
    name: "knowledge_add",
    arguments: { lesson: "In src/db/migrate.ts run each migration file in its own transaction; a half-applied one left the schema inconsistent.", max_phases: 1.5 },
  })) as CallToolResult;
  const text = textOf(r);
  assert.match(text, /^rejected: max_phases: should be a whole number/);
  assert.doesNotMatch(text, /\ba int\b/);
});

test("a NUL byte or half an emoji in a field beside the lesson is refused naming the argument the agent sent, not the stored entry's inner path", async () => {
  assert.ok(client, "the first test connected");
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ phase: "Phase\u0000 2" }, /^rejected: phase: /],
    [{ derived_from: "issue \ud83d #3" }, /^rejected: derived_from(\.ref)?: /],
  ];
  for (const [extra, said] of cases) {
    const r = (await client.callTool({
      name: "knowledge_add",
      arguments: { lesson: "In src/queue/worker.ts acknowledge a job only after its side effects commit; early acks lost jobs on a crash.", ...extra },
    })) as CallToolResult;
    const text = textOf(r);
    assert.notEqual(r.isError, true, text);
    assert.match(text, said);
    assert.match(text, /NUL byte or a broken character/);
    assert.doesNotMatch(text, /lifecycle\.|provenance\.|confirmations/);
  }
});
