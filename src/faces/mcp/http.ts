// The Streamable HTTP face: one long-running server, one MCP session (own roots, own project) per Mcp-Session-Id.
import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { checkBinding, isLoopbackHost, loopbackRequestAllowed, tokenMatches } from "./http-guard.js";
import { errorText, log } from "./log.js";
import { ProjectPool } from "./projects.js";
import { createCairnMcpServer, type CairnMcpSession } from "./server.js";
import type { McpHandle } from "./stdio.js";
import { DEFAULT_HTTP_PORT, MCP_PATH } from "./defaults.js";
import { listenError } from "../../core/listen-error.js";
import { gentleCloser } from "../../core/gentle-close.js";

export { DEFAULT_HTTP_PORT, MCP_PATH };
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const IDLE_SESSION_MS = 60 * 60 * 1000;

export interface HttpServerOptions {
  port?: number;
  /** Interface to bind; default 127.0.0.1. Anything but loopback requires a token. */
  host?: string;
  /** Bearer token; default env CAIRN_MCP_TOKEN. */
  token?: string;
  project?: string;
  env?: NodeJS.ProcessEnv;
}

export interface HttpHandle extends McpHandle {
  url: string;
  port: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  mcp: CairnMcpSession;
  lastSeen: number;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", error: { code, message }, id: null });

async function readJsonBody(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, message: "Request body too large" };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { ok: false, status: 400, message: "Parse error: the body is not JSON" };
  }
}

const initializes = (body: unknown) => (Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body));

export async function runHttpServer(opts: HttpServerOptions = {}): Promise<HttpHandle> {
  const env = opts.env ?? process.env;
  const host = opts.host ?? "127.0.0.1";
  const token = opts.token || env.CAIRN_MCP_TOKEN || undefined;
  checkBinding(host, token);
  const loopback = isLoopbackHost(host);
  const pool = new ProjectPool(env);
  const fallbackDir = opts.project ?? process.cwd();
  const sessions = new Map<string, Session>();

  async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const mcp = createCairnMcpServer({ pool, fallbackDir });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, mcp, lastSeen: Date.now() }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      mcp.dispose();
    };
    await mcp.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== MCP_PATH) return sendJson(res, 404, { error: `not found; the MCP endpoint is ${MCP_PATH}` });
    if (loopback && !loopbackRequestAllowed(req)) return sendJson(res, 403, { error: "forbidden: foreign Host or Origin header" });
    if (token && !tokenMatches(req, token)) {
      return sendJson(res, 401, { error: "unauthorized: send Authorization: Bearer <token>" }, { "www-authenticate": 'Bearer realm="cairn"' });
    }
    let body: unknown;
    if (req.method === "POST") {
      const parsed = await readJsonBody(req);
      if (!parsed.ok) return sendJson(res, parsed.status, rpcError(-32700, parsed.message));
      body = parsed.value;
    }
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const session = sessions.get(sid);
      if (!session) return sendJson(res, 404, rpcError(-32001, "Session not found; initialize a new session"));
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method === "POST" && initializes(body)) return openSession(req, res, body);
    return sendJson(res, 400, rpcError(-32000, "Bad request: no valid Mcp-Session-Id header (initialize first)"));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`HTTP request failed: ${errorText(e)}`);
      if (!res.headersSent) sendJson(res, 500, rpcError(-32603, "Internal error"));
      else res.end();
    });
  });

  // Clients that vanish without DELETE would otherwise keep their session forever.
  const sweeper = setInterval(() => {
    const cutoff = Date.now() - IDLE_SESSION_MS;
    for (const s of sessions.values()) if (s.lastSeen < cutoff) void s.transport.close();
  }, 60_000);
  sweeper.unref();

  const wanted = opts.port ?? DEFAULT_HTTP_PORT;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e) => reject(listenError(e, host, wanted, "`cairn mcp --http`")));
    server.listen(wanted, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}${MCP_PATH}`;
  log(`listening on ${url} (${token ? "bearer token required" : "no token: loopback only"}; default project ${fallbackDir})`);

  // A GET is a session's event stream, open until the client or the server ends it: only calls are waited for.
  const calls = gentleCloser(server, (req) => req.method !== "GET");
  let finished!: () => void;
  const closed = new Promise<void>((resolve) => (finished = resolve));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= Promise.resolve().then(async () => {
      clearInterval(sweeper);
      // A tool call in flight (an add, a quarantine) is answered before its session closes; new connections are refused meanwhile.
      await calls.close();
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
      await pool.closeAll();
      finished();
    }));
  return { url, port, closed, close };
}
