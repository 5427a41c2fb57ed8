// `runMcp`: the one entry every launcher (the cairn CLI, main.ts) calls with parsed options.
import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../../config.js";
import { PORT_RULE, portNumber } from "../../core/port.js";
import { CairnError } from "../../errors.js";
import { closeOnSignal } from "../cli/interrupt.js";
import { runHttpServer, type HttpHandle } from "./http.js";
import { log } from "./log.js";
import { runStdioServer, type McpHandle } from "./stdio.js";

export interface McpOptions {
  /** Serve Streamable HTTP instead of stdio. */
  http?: boolean;
  port?: number | string;
  host?: string;
  /** Bearer token for HTTP (else env CAIRN_MCP_TOKEN); required off loopback. */
  token?: string;
  /** Project used when a client offers no roots (default: the working directory). */
  project?: string;
  env?: NodeJS.ProcessEnv;
  /** Close cleanly and exit on SIGINT/SIGTERM (default true; pass false when embedding). */
  handleSignals?: boolean;
}

function parsePort(port: number | string | undefined): number | undefined {
  if (port === undefined) return undefined;
  const n = portNumber(port);
  if (n === undefined) throw new CairnError("INVALID_INPUT", `${PORT_RULE}, not "${port}".`);
  return n;
}

function checkProject(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  const abs = path.resolve(dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new CairnError("INVALID_INPUT", `--project ${dir} is not a directory.`);
  return abs;
}

/** --port, --host and --token shape the HTTP server only: over stdio they were silently ignored. */
function assertHttpOnlyFlags(opts: McpOptions): void {
  if (opts.http) return;
  const given = (["port", "host", "token"] as const).filter((k) => opts[k] !== undefined).map((k) => `--${k}`);
  if (!given.length) return;
  throw new CairnError(
    "INVALID_INPUT",
    `${given.join(", ")} ${given.length > 1 ? "are" : "is"} for the HTTP server: add --http (e.g. cairn mcp --http --port 7391), or leave ${given.length > 1 ? "them" : "it"} out to serve over stdio.`,
  );
}

export async function runMcp(opts: McpOptions = {}): Promise<McpHandle | HttpHandle> {
  assertHttpOnlyFlags(opts);
  const project = checkProject(opts.project);
  // As every command does: a bad config (an unknown key, a wrong value) is refused before the server
  // starts, not found by the first tool call of a client that was told the server was ready.
  loadConfig({ projectDir: project ?? process.cwd(), env: opts.env ?? process.env });
  const handle = opts.http
    ? await runHttpServer({ port: parsePort(opts.port), host: opts.host, token: opts.token, project, env: opts.env })
    : await runStdioServer({ project, env: opts.env });
  // Exits 128 + the signal (SIGTERM 143, Ctrl-C 130) once closed, as every stopped command does.
  if (opts.handleSignals !== false) closeOnSignal(() => handle.close(), (signal) => log(`${signal}: shutting down`));
  return handle;
}
