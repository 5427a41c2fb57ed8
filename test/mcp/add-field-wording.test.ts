// knowledge_add refuses a field of the wrong kind in plain words an agent can act on ("a whole number"), through the real MCP SDK client.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const MAIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cairn-mcp-addword-")));
let client: Client | undefined;
after(async () => {
  await client?.close().catch(() => undefined);
  fs.rmSync(base, { recursive: true, force: true });
});

test("a fractional max_phases is refused as 'should be a whole number', not 'should be a int'", async () => {
  const home = path.join(base, "home");
  const project = path.join(base, "p");
  fs.mkdirSync(project, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config"), CAIRN_HIVE: path.join(base, "hive.db") };
  client = new Client({ name: "addword-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN], cwd: project, env, stderr: "pipe" }));
  const r = (await client.callTool({
    name: "knowledge_add",
    arguments: { lesson: "In src/db/migrate.ts run each migration file in its own transaction; a half-applied one left the schema inconsistent.", max_phases: 1.5 },
  })) as CallToolResult;
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
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
    const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    assert.notEqual(r.isError, true, text);
    assert.match(text, said);
    assert.match(text, /NUL byte or a broken character/);
    assert.doesNotMatch(text, /lifecycle\.|provenance\.|confirmations/);
  }
});
