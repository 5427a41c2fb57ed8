// Who may talk to the HTTP server: bearer token (constant-time), loopback binding rules, DNS-rebinding checks.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import { CairnError } from "../../errors.js";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  if (LOOPBACK_NAMES.has(h)) return true;
  return net.isIPv4(h) && h.startsWith("127.");
}

const MCP_TOKEN_HINT = "Pass --token <secret> or set CAIRN_MCP_TOKEN";

/** Refuses a configuration that would expose the lessons to the network without a token. */
export function checkBinding(host: string, token: string | undefined, tokenHint = MCP_TOKEN_HINT): void {
  if (!isLoopbackHost(host) && !token) {
    throw new CairnError(
      "INVALID_CONFIG",
      `Refusing to listen on ${host} without a bearer token: anyone who can reach it could read and change your lessons. ` +
        `${tokenHint}, or bind to 127.0.0.1 (the default).`,
    );
  }
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Compares digests so neither the token's content nor its length shows in the timing. */
export function tokenMatches(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? "";
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return timingSafeEqual(digest(m?.[1] ?? ""), digest(token)) && Boolean(m);
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1);
  return hostHeader.split(":")[0] ?? "";
}

/**
 * A loopback server is still reachable from a browser page through DNS rebinding; a foreign
 * Host or Origin header gives such a request away. Shared by the MCP and web faces.
 */
export function loopbackHeadersAllowed(hostHeader: string | undefined, origin: string | undefined): boolean {
  if (!isLoopbackHost(hostnameOf(hostHeader ?? ""))) return false;
  if (!origin) return true;
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export function loopbackRequestAllowed(req: IncomingMessage): boolean {
  return loopbackHeadersAllowed(req.headers.host, req.headers.origin);
}
