// The published package, as a user gets it: pack the tarball, install it into a scratch project, use every face from there.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { messageText, startModelServer, type ChatRequest, type ModelServer, type Reply } from "../fixtures/model-server/server.js";
import { networkEnv } from "../helpers/network-env.js";
import { isolatedEnv, modelConfig, REPO, runFailure, runOpencode } from "./support/opencode.js";

const PACKAGE = "cairn-knowledge";
/** The whole install (Cairn and everything it pulls in) must stay small (issue: ≤ 40 MB). */
const MAX_INSTALL_BYTES = 40 * 1024 * 1024;

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cairn-pkg-e2e-")));
const scratch = path.join(root, "scratch");
// npm's cache lives with the checkout, never in the user's home; reused between local runs.
const npmCache = path.join(REPO, "node_modules", ".cache", "cairn-e2e", "npm-cache");
let tarball = "";
let installLog = "";

/** A user-like environment: nothing from the developer's home, npm's cache inside the checkout. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = path.join(root, "home");
  for (const d of ["", "data", "config"]) fs.mkdirSync(path.join(home, d), { recursive: true });
  return {
    PATH: process.env.PATH,
    ...networkEnv(),
    HOME: home,
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_CONFIG_HOME: path.join(home, "config"),
    npm_config_cache: npmCache,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    NO_COLOR: "1",
    ...extra,
  };
}

function sh(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { cwd: opts.cwd, env: opts.env ?? userEnv(), maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += dirBytes(p);
    else if (e.isFile()) total += fs.statSync(p).size;
  }
  return total;
}

before(async () => {
  assert.ok(fs.existsSync(path.join(REPO, "dist", "cli.js")), "run `npm run build` first");
  // --ignore-scripts: dist is already built by `npm test`; the tarball is what `npm publish` would upload.
  const packed = await sh("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", root], { cwd: REPO });
  assert.equal(packed.code, 0, packed.stderr);
  const info = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(root, info[0]!.filename);
  fs.mkdirSync(scratch, { recursive: true });
  fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "scratch", version: "1.0.0", private: true, type: "module" }));
  const install = await sh("npm", ["install", tarball], { cwd: scratch });
  installLog = install.stdout + install.stderr;
  assert.equal(install.code, 0, installLog);
});

after(() => fs.rmSync(root, { recursive: true, force: true }));

test("the tarball installs small and clean: no engine warnings on this Node, the size within budget", (t) => {
  assert.doesNotMatch(installLog, /EBADENGINE/, installLog);
  const bytes = dirBytes(path.join(scratch, "node_modules"));
  t.diagnostic(`installed ${(bytes / 1048576).toFixed(1)} MB (budget ${MAX_INSTALL_BYTES / 1048576} MB)`);
  assert.ok(bytes <= MAX_INSTALL_BYTES, `installed ${(bytes / 1048576).toFixed(1)} MB, budget ${MAX_INSTALL_BYTES / 1048576} MB`);
  const pkg = JSON.parse(fs.readFileSync(path.join(scratch, "node_modules", PACKAGE, "package.json"), "utf8")) as { bin: Record<string, string> };
  assert.equal(pkg.bin.cairn, "./bin/cairn.js", "the command keeps its short name");
});

test("npx cairn works from the project that installed it: --version, add, recall", async () => {
  const version = await sh("npx", ["cairn", "--version"], { cwd: scratch });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);
  const add = await sh("npx", ["cairn", "add", "Run prisma generate after editing prisma/schema.prisma or the client is stale", "--category", "tooling", "--json"], { cwd: scratch });
  assert.equal(add.code, 0, add.stdout + add.stderr);
  assert.equal((JSON.parse(add.stdout) as { action: string }).action, "added");
  const recall = await sh("npx", ["cairn", "recall", "prisma client stale after schema change", "--json"], { cwd: scratch });
  assert.equal(recall.code, 0, recall.stderr);
  assert.match(recall.stdout, /prisma generate/);
});

test("the library imports by package name and records a lesson", async () => {
  const script = `
    import { openCairn } from "${PACKAGE}";
    const cairn = await openCairn({ projectDir: process.cwd() });
    const r = await cairn.add({ lesson: "Pin the Node version in CI to the one production runs, or lockfiles drift", category: "tooling" });
    const hits = await cairn.recall("node version pinned in CI");
    await cairn.close();
    console.log(JSON.stringify({ action: r.action, found: hits.some((h) => h.entry.id === r.id) }));`;
  const r = await sh(process.execPath, ["--input-type=module", "-e", script], { cwd: scratch });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout.trim()), { action: "added", found: true });
});

test("a global install puts `cairn` on the PATH, and MCP clients start it as the README's snippets do", async (t) => {
  const prefix = path.join(root, "global");
  const started = Date.now();
  const g = await sh("npm", ["install", "--global", "--prefix", prefix, tarball], { cwd: root });
  assert.equal(g.code, 0, g.stdout + g.stderr);
  t.diagnostic(`global install took ${Math.round((Date.now() - started) / 1000)} s`);
  const PATH = `${path.join(prefix, "bin")}${path.delimiter}${process.env.PATH}`;
  const version = await sh("cairn", ["--version"], { cwd: root, env: userEnv({ PATH }) });
  assert.equal(version.code, 0, version.stderr);
  // { "command": "cairn", "args": ["mcp", "--project", …] } — what .mcp.json and Cursor's mcp.json run.
  const client = new Client({ name: "pkg-e2e", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: "cairn",
    args: ["mcp", "--project", scratch],
    cwd: scratch,
    env: userEnv({ PATH }) as Record<string, string>,
    stderr: "pipe",
  });
  await client.connect(transport);
  t.diagnostic(`MCP client connected ${Math.round((Date.now() - started) / 1000)} s after the install began`);
  try {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(tools.includes("knowledge_add") && tools.includes("knowledge_recall"), tools.join(", "));
    const r = (await client.callTool({ name: "knowledge_recall", arguments: { query: "prisma client stale" } })) as CallToolResult;
    assert.ok(!r.isError, JSON.stringify(r));
    assert.match(JSON.stringify(r.content), /prisma generate/);
  } finally {
    await client.close();
  }
});

test("OpenCode loads the plugin by package name from the tarball, and its tools work", async () => {
  let server: ModelServer | undefined;
  const project = path.join(root, "oc-project");
  fs.mkdirSync(project, { recursive: true });
  const lesson = "Close the billing worker's database cursor in a finally block; leaked cursors exhausted the pool twice";
  const respond = (req: ChatRequest): Reply => {
    if (!req.tools?.length) return { text: "Title" };
    const afterTool = req.messages[req.messages.length - 1]?.role === "tool";
    return afterTool ? { text: "Recorded." } : { toolCalls: [{ name: "knowledge_add", arguments: { lesson, category: "debugging" } }] };
  };
  try {
    server = await startModelServer(respond);
    // The spec a user writes is the bare name; `name@file:<tarball>` makes opencode install it the same way, from the tarball.
    const config = modelConfig(server, { plugin: [`${PACKAGE}@file:${tarball}`] });
    fs.writeFileSync(path.join(project, "opencode.json"), JSON.stringify(config, null, 2));
    const env = isolatedEnv(path.join(root, "oc-home"), project, { npm_config_cache: npmCache, CAIRN_HIVE: path.join(root, "oc-hive.db") });
    const run = await runOpencode(["remember the billing worker lesson"], { cwd: project, env, server });
    assert.equal(run.code, 0, runFailure(run));
    assert.doesNotMatch(run.stderr, /failed to load plugin/i, run.stderr.slice(-2000));
    const offered = server.requests.find((r) => r.body.tools?.length)?.body.tools?.map((t) => t.function.name) ?? [];
    assert.ok(offered.includes("knowledge_add"), `the plugin's tools reach the model: ${offered.join(", ")}`);
    const call = run.events.find((e) => e.type === "tool_use" && e.part?.tool === "knowledge_add");
    assert.equal(call?.part?.state?.status, "completed", JSON.stringify(run.events).slice(0, 1500));
    assert.match(call?.part?.state?.output ?? "", /added S-\d+/);
    const toolMessage = run.requests.at(-1)?.messages.find((m) => m.role === "tool");
    assert.match(toolMessage ? messageText(toolMessage) : "", /added S-\d+/);
  } finally {
    await server?.close();
  }
});
