// A real `cairn mcp` over stdio for tests: one temp folder holding the home, the hive and the projects, and the MCP SDK's client connected to the server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, type CallToolResult, type ClientCapabilities, type Root } from "@modelcontextprotocol/sdk/types.js";

/** The built server entry: MCP tests run what a client starts (`npm run build` first). */
export const MCP_MAIN = fileURLToPath(new URL("../../dist/mcp.js", import.meta.url));

export interface McpSandbox {
  /** The temp folder everything lives in (removed after the file's tests). */
  base: string;
  /** An environment with its own home, data and config folders and a hive file in `base`: never the user's. */
  env: Record<string, string>;
  /** A new project folder in `base`. */
  project(name?: string): string;
  /** A client connected to a server started in `cwd` (closed after the file's tests); `roots`: the workspace roots it answers with. */
  connect(cwd: string, opts?: { name?: string; args?: string[]; capabilities?: ClientCapabilities; roots?: Root[] }): Promise<Client>;
}

/** A tool result's text parts, joined: what an agent reads. */
export function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

/** One sandbox per test file: call at the top level (it registers the clean-up with `after`). */
export function mcpSandbox(prefix: string): McpSandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `cairn-mcp-${prefix}-`)));
  const home = path.join(base, "home");
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config"), CAIRN_HIVE: path.join(base, "hive.db") };
  const clients: Client[] = [];
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    fs.rmSync(base, { recursive: true, force: true });
  });
  return {
    base,
    env,
    project(name = "p") {
      const dir = path.join(base, name);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    async connect(cwd, opts = {}) {
      const capabilities = opts.roots ? { ...opts.capabilities, roots: { listChanged: true } } : opts.capabilities;
      const client = new Client({ name: opts.name ?? `${prefix}-test`, version: "1.0.0" }, capabilities ? { capabilities } : undefined);
      // The workspace roots the client answers with, set before connecting: the server asks for them at once.
      if (opts.roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: opts.roots! }));
      clients.push(client);
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_MAIN, ...(opts.args ?? [])], cwd, env, stderr: "pipe" }));
      return client;
    },
  };
}
