// The web UI in process for tests: the real Hono app on a real engine in a sandbox, with a person (alice) signed in through the token link.
import { openCairn, type Cairn } from "../../src/index.js";
import { createUiApp } from "../../src/faces/web/app.js";
import { makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";

export const TOKEN = "test-token-1234567890";
export const HOST = "127.0.0.1:7392";

/** HTML entities back to text, to read what a page says. */
export const decode = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

export interface SignedInUi {
  sb: Sandbox;
  cairn: Cairn;
  app: ReturnType<typeof createUiApp>["app"];
  /** The session cookie (`name=value`) of the signed-in person. */
  cookie: string;
  /** GET `url` as the signed-in person, the page's HTML. */
  page(url: string): Promise<string>;
  /** The form token a page carries (its csrf-token meta tag). */
  csrfOf(html: string): string;
  /** POST `fields` as a form to `url` with `headers` (no cookie unless given: a signed-out request is a test's own case). */
  post(url: string, headers: Record<string, string>, fields: Record<string, string> | string): Promise<Response>;
  close(): Promise<void>;
}

/** A sandbox, the engine as human:ui, the app on it and alice signed in; `close` removes them all. */
export async function signedInUi(name: string): Promise<SignedInUi> {
  const sb = makeSandbox(name);
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:ui" });
  const { app } = createUiApp({ cairn, token: TOKEN, loopback: true, cookieName: "cairn_ui_test", defaultName: "alice" });
  const login = await app.request(`/login?token=${TOKEN}`, { headers: { host: HOST } });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
  return {
    sb, cairn, app, cookie,
    async page(url) {
      return (await app.request(url, { headers: { host: HOST, cookie } })).text();
    },
    csrfOf(html) {
      return /name="csrf-token" content="([^"]+)"/.exec(html)![1]!;
    },
    async post(url, headers, fields) {
      const body = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
      return app.request(url, { method: "POST", headers: { host: HOST, "content-type": "application/x-www-form-urlencoded", ...headers }, body });
    },
    async close() {
      await cairn.close();
      removeSandbox(sb);
    },
  };
}
