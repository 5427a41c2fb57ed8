// Who may use the web UI: the login token, cookie sessions, CSRF tokens, Host/Origin checks and the response headers every page carries.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { checkName } from "../../governance/actor-name.js";
import { isLoopbackHost, loopbackHeadersAllowed } from "../mcp/http-guard.js";

export interface Session {
  id: string;
  /** `human:<name>`: what approvals, edits and rejections record. */
  actor: string;
  csrf: string;
  lastSeen: number;
}

/** A session idle this long must log in again with the token. */
const IDLE_MS = 12 * 60 * 60 * 1000;
const MAX_SESSIONS = 1_000;

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Constant-time and length-blind, like the MCP face's bearer check. */
export function secretMatches(given: string | undefined, expected: string): boolean {
  return timingSafeEqual(digest(given ?? ""), digest(expected)) && typeof given === "string" && given.length > 0;
}

/** A person's name as it goes into `human:<name>` (governance/actor-name.ts says what may be one); undefined when it cannot be one. */
export function cleanName(raw: string | undefined): string | undefined {
  const r = checkName(raw ?? "");
  return "name" in r ? r.name : undefined;
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString("base64url");
}


export class Sessions {
  private readonly byId = new Map<string, Session>();
  constructor(readonly cookieName: string) {}

  create(name: string): Session {
    if (this.byId.size >= MAX_SESSIONS) this.sweep(true);
    const session = { id: randomToken(32), actor: `human:${name}`, csrf: randomToken(24), lastSeen: Date.now() };
    this.byId.set(session.id, session);
    return session;
  }

  /** The request's session, if its cookie names a live one. */
  of(c: Context): Session | undefined {
    const id = getCookie(c, this.cookieName);
    if (!id) return undefined;
    const s = this.byId.get(id);
    if (!s) return undefined;
    if (Date.now() - s.lastSeen > IDLE_MS) {
      this.byId.delete(id);
      return undefined;
    }
    s.lastSeen = Date.now();
    return s;
  }

  drop(c: Context): void {
    const id = getCookie(c, this.cookieName);
    if (id) this.byId.delete(id);
    deleteCookie(c, this.cookieName, { path: "/" });
  }

  /** HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it). */
  setCookie(c: Context, s: Session): void {
    setCookie(c, this.cookieName, s.id, { httpOnly: true, sameSite: "Strict", path: "/" });
  }

  private sweep(evictOldest: boolean): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [id, s] of this.byId) if (s.lastSeen < cutoff) this.byId.delete(id);
    if (evictOldest && this.byId.size >= MAX_SESSIONS) {
      const oldest = [...this.byId.values()].sort((a, b) => a.lastSeen - b.lastSeen)[0];
      if (oldest) this.byId.delete(oldest.id);
    }
  }
}

/**
 * Scripts only from our own files, no inline script or style, no framing, forms only to us: a
 * lesson that slipped past escaping still could not run.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set("content-security-policy", CSP);
  c.res.headers.set("x-content-type-options", "nosniff");
  c.res.headers.set("x-frame-options", "DENY");
  // The login URL carries the token: never hand a URL on to another site. (Not no-referrer: under it
  // browsers send `Origin: null` with our own form posts, which the origin check must refuse.)
  c.res.headers.set("referrer-policy", "same-origin");
  c.res.headers.set("cross-origin-opener-policy", "same-origin");
  c.res.headers.set("cross-origin-resource-policy", "same-origin");
  if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "no-store");
};

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The origin a browser sends for a page of this server: the scheme plus the Host header it used. */
function ownOrigin(c: Context): string | undefined {
  const host = c.req.header("host");
  return host ? `${new URL(c.req.url).protocol}//${host}`.toLowerCase() : undefined;
}

/**
 * DNS rebinding: a loopback server must see a loopback Host (and Origin). Any server: a write
 * must come from a page of this very origin (port included — other local apps are other origins).
 */
export function originGuard(loopback: boolean): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (loopback && !loopbackHeadersAllowed(c.req.header("host"), origin)) return c.text("Forbidden: foreign Host or Origin header.", 403);
    if (UNSAFE.has(c.req.method)) {
      const own = ownOrigin(c);
      const from = origin ?? refererOrigin(c.req.header("referer"));
      // No Origin and no Referer: not a browser form (curl, scripts); the CSRF token still decides.
      if (from !== undefined && from.toLowerCase() !== own) return c.text("Forbidden: this request came from another site.", 403);
    }
    await next();
  };
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "invalid";
  }
}

export { isLoopbackHost };
