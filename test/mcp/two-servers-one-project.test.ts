// Seed 000 finding 12 and the knowledge_remove race, as the audit feared them: two agent sessions (two MCP server processes) writing one project at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpSandbox } from "../helpers/mcp-stdio.js";

const sb = mcpSandbox("two-servers");

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; data: Record<string, any>; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, data: (r.structuredContent ?? {}) as Record<string, any>, text: r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n") };
}

const PER_SERVER = 15;
const lesson = (server: number, i: number) =>
  `Shard ${server * 100 + i} of the order archive needs its own index on customer_id before the ${i + 2}-day backfill starts.`;

test("two MCP servers on one project: concurrent knowledge_add calls all land, one shared lesson is stored once, and a remove racing adds loses none of them", async () => {
  const dir = sb.project("shared");
  const [one, two] = await Promise.all([sb.connect(dir, { name: "session-one" }), sb.connect(dir, { name: "session-two" })]);
  const doomed = await call(one, "knowledge_add", { lesson: "The legacy FTP export job in ops/ftp runs at 01:00 and must finish before the ledger close." });
  assert.equal(doomed.data.action, "added", doomed.text);

  const shared = "Run the database migrations before starting the integration test suite, otherwise fixtures fail to load.";
  const calls = [
    ...Array.from({ length: PER_SERVER }, (_, i) => call(one, "knowledge_add", { lesson: lesson(1, i) })),
    ...Array.from({ length: PER_SERVER }, (_, i) => call(two, "knowledge_add", { lesson: lesson(2, i) })),
    call(one, "knowledge_add", { lesson: shared }),
    call(two, "knowledge_add", { lesson: shared }),
    call(two, "knowledge_remove", { id: doomed.data.id }),
  ];
  const results = await Promise.all(calls);
  for (const r of results) assert.equal(r.isError, false, r.text);
  const adds = results.slice(0, 2 * PER_SERVER);
  assert.ok(adds.every((r) => r.data.action === "added"), JSON.stringify(adds.map((r) => r.data.action)));
  const twins = results.slice(2 * PER_SERVER, 2 * PER_SERVER + 2).map((r) => r.data);
  assert.deepEqual(twins.map((d) => d.action).sort(), ["added", "reinforced"], "the same lesson from two sessions is one entry");
  assert.equal(twins[0]!.id, twins[1]!.id);

  for (const client of [one, two]) {
    const listed = (await call(client, "knowledge_query", { tier: "swarm", limit: 200 })).data.entries as Array<{ id: string; lesson: string }>;
    const ids = new Set(listed.map((e) => e.id));
    for (const r of adds) assert.ok(ids.has(r.data.id), `${r.data.handle} acknowledged but not listed`);
    assert.equal(listed.length, 2 * PER_SERVER + 1, "every acknowledged add, the shared lesson once, the removed one gone");
    assert.ok(!ids.has(doomed.data.id));
  }
});
