// SIGTERM or Ctrl-C to a long-running server (`cairn mcp`, `cairn ui`) closes it and exits 128 + the signal, as export and import do; the store stays whole.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";
import { startCli, until } from "../helpers/running-cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "In services/billing/worker.ts retry the ledger webhook at most 3 times before paging on-call; a retry storm took the ledger down.";

/** The project's store opens and holds the lesson the server wrote; no journal or temp file is left beside it. */
async function storeIntact(p: string): Promise<void> {
  const list = await sb.json(p, "list");
  assert.equal(list.code, 0, list.stderr);
  assert.ok(JSON.stringify(list.body).includes("ledger webhook"), JSON.stringify(list.body).slice(0, 500));
  const left = fs.readdirSync(path.join(p, ".swarm")).filter((n) => /-(wal|shm|journal)$|\.tmp$/.test(n));
  assert.deepEqual(left, [], "nothing left open beside the database");
}

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "signal-test", version: "1" } } };
const ADD = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "knowledge_add", arguments: { lesson: LESSON, category: "integration" } } };

for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  test(`${signal} to \`cairn mcp\` (stdio) closes the server and its stores and exits ${code}`, { timeout: 300_000 }, async () => {
    const p = sb.project(`mcp-${signal}`);
    const r = startCli(sb, p, ["mcp"]);
    r.child.stdin.write(`${JSON.stringify(INIT)}\n`);
    r.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    r.child.stdin.write(`${JSON.stringify(ADD)}\n`);
    await until(r, () => r.out().includes('"id":2'));
    r.child.kill(signal);
    const done = await r.exited;
    assert.equal(done.code, code, `${done.signal ?? ""}\n${r.err()}`);
    await storeIntact(p);
  });

  test(`${signal} to \`cairn ui\` closes the page's server and its stores and exits ${code}`, { timeout: 300_000 }, async () => {
    const p = sb.project(`ui-${signal}`);
    const added = await sb.json(p, "add", LESSON, "--category", "integration");
    assert.equal(added.body.action, "added", added.stderr);
    const r = startCli(sb, p, ["ui", "--port", "0", "--json"]);
    await until(r, () => r.out().includes('"url"'));
    const { url } = JSON.parse(r.out().trim().split("\n")[0]!) as { url: string };
    const page = await fetch(`${url}/`, { redirect: "manual" });
    await page.arrayBuffer();
    r.child.kill(signal);
    const done = await r.exited;
    assert.equal(done.code, code, `${done.signal ?? ""}\n${r.err()}`);
    await storeIntact(p);
  });
}
