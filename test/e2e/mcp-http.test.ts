// End-to-end tests of the built MCP server over Streamable HTTP: token, binding rules, per-session projects.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ALL_TOOLS } from "../../src/tools/index.js";

const MAIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));
assert.ok(fs.existsSync(MAIN), "run `npm run build` first: dist/mcp.js is missing");

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cairn-mcp-http-")));
const home = path.join(base, "home");
// CAIRN_HIVE names a file in this folder: a hive path's folder must exist (a missing one is refused as a typo).
fs.mkdirSync(home);
const children: ChildProcess[] = [];
const clients: Client[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
  fs.rmSync(base, { recursive: true, force: true });
});

function project(name: string): string {
  const dir = path.join(base, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const serverEnv = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "",
  HOME: home,
  XDG_DATA_HOME: path.join(home, "data"),
  XDG_CONFIG_HOME: path.join(home, "config"),
  CAIRN_HIVE: path.join(home, "hive.db"),
  ...extra,
});

function spawnServer(args: string[], env: Record<string, string> = {}): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [MAIN, "--http", "--port", "0", ...args], { cwd: project("server-cwd"), env: serverEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return { child, stderr: () => err };
}

/** Starts a server on a free port and returns its endpoint once it says it is listening. */
async function startServer(args: string[], env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const { child, stderr } = spawnServer(args, env);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(stderr());
      if (m) resolve(m[1]!);
    };
    child.stderr!.on("data", check);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${stderr()}`)));
  });
  return { url: url.replace("0.0.0.0", "127.0.0.1"), child };
}

async function connect(url: string, opts: { token?: string; roots?: string[] } = {}): Promise<Client> {
  const client = new Client({ name: "e2e-http", version: "1.0.0" }, { capabilities: opts.roots ? { roots: { listChanged: true } } : {} });
  if (opts.roots) {
    const roots = opts.roots.map((d) => ({ uri: pathToFileURL(d).href, name: path.basename(d) }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
  }
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string; data: Record<string, any> }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return { ...r, text, data: (r.structuredContent ?? {}) as Record<string, any> };
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

function post(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on("error", reject);
    req.end(INIT);
  });
}

const AUTH_LESSON = "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed the login route.";
const CACHE_LESSON = "The Redis cache client in src/cache/redis.ts must set a connect timeout; without it the worker hangs forever at startup when Redis is down.";

test("refuses to listen beyond loopback without a token, with a clear error", async () => {
  const { child, stderr } = spawnServer(["--host", "0.0.0.0"]);
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  assert.equal(code, 2);
  assert.match(stderr(), /without a bearer token/);
  assert.match(stderr(), /CAIRN_MCP_TOKEN/);
});

test("the bearer token is enforced: 401 without it or with a wrong one, works with it", async () => {
  const token = "s3cret-token-for-the-e2e-test";
  const { url } = await startServer(["--token", token]);
  const none = await post(url);
  assert.equal(none.status, 401);
  assert.match(String(none.headers["www-authenticate"]), /Bearer/);
  assert.equal((await post(url, { authorization: "Bearer wrong-token" })).status, 401);
  assert.equal((await post(url, { authorization: `Bearer ${token}x` })).status, 401);
  assert.equal((await post(url, { authorization: token })).status, 401, "the Bearer scheme is required");
  await assert.rejects(connect(url), /401|nauthorized/);

  const client = await connect(url, { token });
  const { tools } = await client.listTools();
  assert.equal(tools.length, ALL_TOOLS.length);
  const added = await call(client, "knowledge_add", { lesson: AUTH_LESSON });
  assert.equal(added.data.action, "added");
});

test("a token from CAIRN_MCP_TOKEN allows binding beyond loopback", async () => {
  const token = "env-token-0123456789";
  const { url } = await startServer(["--host", "0.0.0.0"], { CAIRN_MCP_TOKEN: token });
  assert.equal((await post(url)).status, 401);
  const client = await connect(url, { token });
  assert.equal((await client.listTools()).tools.length, ALL_TOOLS.length);
});

test("each HTTP session resolves its own project from its roots; no session sees another's swarm", async () => {
  const fallback = project("http-default");
  const { url } = await startServer(["--project", fallback]);
  const projA = project("http-alpha");
  const projB = project("http-beta");
  const a = await connect(url, { roots: [projA] });
  const b = await connect(url, { roots: [projB] });
  const plain = await connect(url);

  const addedA = await call(a, "knowledge_add", { lesson: AUTH_LESSON });
  const addedB = await call(b, "knowledge_add", { lesson: CACHE_LESSON });
  assert.equal(addedA.data.action, "added", addedA.text);
  assert.equal(addedB.data.action, "added", addedB.text);

  const seen = async (c: Client, query: string) => (await call(c, "knowledge_recall", { query, tier: "swarm" })).data.results.map((r: any) => r.id);
  assert.deepEqual(await seen(a, "session token auth middleware"), [addedA.data.id]);
  assert.deepEqual(await seen(a, "redis cache connect timeout"), []);
  assert.deepEqual(await seen(b, "redis cache connect timeout"), [addedB.data.id]);
  assert.deepEqual(await seen(b, "session token auth middleware"), []);
  assert.deepEqual(await seen(plain, "session token auth middleware"), [], "a client without roots gets --project, not a neighbour's project");
  assert.deepEqual(await seen(plain, "redis cache connect timeout"), []);

  const stats = JSON.parse(resourceText(await plain.readResource({ uri: "cairn://stats" })));
  assert.equal(stats.project.dir, fallback);
  assert.ok(fs.existsSync(path.join(projA, ".swarm", "cairn.db")));
  assert.ok(fs.existsSync(path.join(projB, ".swarm", "cairn.db")));
});

test("a loopback server refuses requests naming a foreign host (DNS rebinding)", async () => {
  const { url } = await startServer([]);
  const port = new URL(url).port;
  assert.equal((await post(url, { host: `attacker.example:${port}` })).status, 403);
  assert.equal((await post(url, { origin: "http://attacker.example" })).status, 403);
  assert.notEqual((await post(url, { host: `localhost:${port}` })).status, 403);
});

/** The text of a resource read (our resources are all text). */
function resourceText(r: { contents: ReadonlyArray<object> }): string {
  const first = r.contents[0] as { text?: unknown } | undefined;
  return typeof first?.text === "string" ? first.text : "";
}
