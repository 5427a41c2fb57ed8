// SIGTERM or Ctrl-C to `cairn ui` or `cairn mcp --http` while a request is in flight: no new connection is taken, that request is answered and saved, then the exit says the signal.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { sandbox } from "../helpers/cli.js";
import { startCli, until } from "../helpers/running-cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "In services/billing/worker.ts retry the ledger webhook at most 3 times before paging on-call; a retry storm took the ledger down.";
const SECOND = "Run prisma generate after editing prisma/schema.prisma or the generated client stays stale in CI builds.";

interface Pending {
  /** Sends the rest of the body; resolves with the status and the whole answer. */
  finish(): Promise<{ status: number; body: string }>;
}

/**
 * A POST in flight: `Expect: 100-continue` makes the server answer "go on" as it takes the request, so once that
 * arrives the server is answering it; half the body is sent, and the rest only when the test says.
 */
function postInFlight(url: string, headers: Record<string, string>, body: string): Promise<Pending> {
  const bytes = Buffer.from(body);
  const half = Math.floor(bytes.length / 2);
  return new Promise((resolveStarted, reject) => {
    const answered = new Promise<{ status: number; body: string }>((resolve, rejectAnswer) => {
      const req = http.request(url, { method: "POST", headers: { ...headers, "content-length": String(bytes.length), expect: "100-continue", connection: "close" } });
      req.on("error", (e) => (reject(e), rejectAnswer(e)));
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", rejectAnswer);
      });
      req.on("continue", () => {
        req.write(bytes.subarray(0, half));
        resolveStarted({
          finish: () => {
            req.end(bytes.subarray(half));
            return answered;
          },
        });
      });
      req.flushHeaders();
    });
    void answered.catch(() => undefined);
  });
}

/** A new connection is refused (the server stopped listening) rather than answered. */
async function refusesNew(url: string): Promise<void> {
  await assert.rejects(fetch(url, { redirect: "manual" }), "the stopping server takes no new connection");
}

for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  test(`${signal} to \`cairn ui\` with a save in flight: the save is answered and kept, then exit ${code}`, { timeout: 300_000 }, async () => {
    const p = sb.project(`ui-drain-${signal}`);
    const added = await sb.json(p, "add", LESSON, "--category", "integration");
    assert.equal(added.body.action, "added", added.stderr);
    const handle = added.body.handle as string;
    const r = startCli(sb, p, ["ui", "--port", "0", "--json"]);
    await until(r, () => r.out().includes('"sign_in"'), "it printed its link");
    const { url, sign_in } = JSON.parse(r.out().trim().split("\n")[0]!) as { url: string; sign_in: string };
    const login = await fetch(sign_in, { redirect: "manual" });
    await login.arrayBuffer();
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const host = new URL(url).host;
    const page = await (await fetch(`${url}/lessons/${handle}/edit`, { headers: { cookie } })).text();
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)![1]!;
    const form = new URLSearchParams({ _csrf: csrf, back: `/lessons/${handle}`, title: "Cap ledger webhook retries at three" }).toString();
    const pending = await postInFlight(`${url}/lessons/${handle}/edit`, { host, cookie, "content-type": "application/x-www-form-urlencoded" }, form);
    r.child.kill(signal);
    await until(r, () => /stopping; finishing 1 request in flight/.test(r.err()), "it said it is stopping");
    await refusesNew(`${url}/login`);
    const answer = await pending.finish();
    assert.equal(answer.status, 303, answer.body.slice(0, 500));
    assert.equal((await r.exited).code, code, r.err());
    const shown = await sb.json(p, "show", handle);
    assert.equal(shown.body.entry.title, "Cap ledger webhook retries at three", "the save in flight was kept");
  });

  test(`${signal} to \`cairn mcp --http\` with a tool call in flight: the call is answered and kept, then exit ${code}`, { timeout: 300_000 }, async () => {
    const p = sb.project(`mcp-drain-${signal}`);
    const r = startCli(sb, p, ["mcp", "--http", "--port", "0"]);
    await until(r, () => /listening on http:\/\/\S+/.test(r.err()), "it is listening");
    const url = /listening on (http:\/\/\S+)/.exec(r.err())![1]!;
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "drain-test", version: "1" } } }),
    });
    await init.text();
    const sid = init.headers.get("mcp-session-id")!;
    assert.ok(sid, "a session was opened");
    const note = await fetch(url, { method: "POST", headers: { ...headers, "mcp-session-id": sid }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    await note.text();
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "knowledge_add", arguments: { lesson: SECOND, category: "tooling" } } };
    const pending = await postInFlight(url, { ...headers, host: new URL(url).host, "mcp-session-id": sid }, JSON.stringify(call));
    r.child.kill(signal);
    await until(r, () => r.err().includes(`${signal}: shutting down`), "it said it is shutting down");
    await refusesNew(url);
    const answer = await pending.finish();
    assert.equal(answer.status, 200, answer.body.slice(0, 500));
    assert.match(answer.body, /"id":2/);
    assert.match(answer.body, /added/);
    assert.equal((await r.exited).code, code, r.err());
    const list = await sb.json(p, "list");
    assert.ok(JSON.stringify(list.body).includes("prisma generate"), "the call in flight was kept");
  });
}
