// `cairn ui`: opens the engine for one project, serves the web UI on loopback (or a configured host with a configured token), prints the sign-in link.
import { spawn } from "node:child_process";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { serve } from "@hono/node-server";
import { openCairn } from "../../engine.js";
import { checkBinding, isLoopbackHost } from "../mcp/http-guard.js";
import { createUiApp } from "./app.js";
import { Assets } from "./assets.js";
import { cleanName, randomToken } from "./security.js";
import { listenError } from "../../core/listen-error.js";
import { gentleCloser } from "../../core/gentle-close.js";
import { visibleControls } from "../../quality/sanitize.js";

export const DEFAULT_UI_PORT = 7392;

export interface UiServerOptions {
  projectDir: string;
  hivePath?: string;
  env?: NodeJS.ProcessEnv;
  port?: number;
  host?: string;
  /** A configured token (else env CAIRN_UI_TOKEN, else a random one printed at start). */
  token?: string;
  /** Name for the token link's session (else a human:* CAIRN_ACTOR, else the OS user). */
  name?: string;
  /** Open the sign-in link in the default browser. */
  open?: boolean;
  /** Where the sign-in link is written (stdout by default). */
  print?: (line: string) => void;
  /** `cairn ui --json`: the link as one JSON line ({url, sign_in, project}) instead of two lines of text. */
  json?: boolean;
}

export interface UiHandle {
  url: string;
  /** The sign-in link (carries the token). */
  loginUrl: string;
  port: number;
  closed: Promise<void>;
  /** Stops taking requests, lets those in flight finish (up to CLOSE_GRACE_MS), then closes the engine. */
  close(): Promise<void>;
  /** Requests being answered now. */
  inFlight(): number;
}

function defaultName(env: NodeJS.ProcessEnv, given?: string): string {
  const actor = env.CAIRN_ACTOR?.trim();
  const candidates = [given, actor?.startsWith("human:") ? actor : undefined, env.USER, env.USERNAME, safeOsUser()];
  for (const c of candidates) {
    const name = cleanName(c);
    if (name) return name;
  }
  return "reviewer";
}

function safeOsUser(): string | undefined {
  try {
    return os.userInfo().username;
  } catch {
    return undefined;
  }
}

/**
 * The platform's "open this URL" command; failures only cost the convenience, but the user is told, with the link to open by hand
 * (`shownLink`: the printed sign-in link, which leaves a configured token out).
 */
function openBrowser(url: string, shownLink: string): void {
  const [cmd, args] =
    process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  let told = false;
  const couldNot = (why: string) => {
    if (told) return;
    told = true;
    process.stderr.write(`cairn ui: could not open a browser (${why}); open this link yourself: ${shownLink}\n`);
  };
  try {
    const child = spawn(cmd, args as string[], { stdio: "ignore", detached: true });
    child.on("error", (e: NodeJS.ErrnoException) => couldNot(e.code === "ENOENT" ? `${cmd} not found` : `${cmd}: ${e.message}`));
    // xdg-open with no browser configured exits non-zero without a word; the server still runs.
    child.on("exit", (code, signal) => {
      if (code !== 0 && code !== null) couldNot(`${cmd} exited ${code}`);
      else if (signal) couldNot(`${cmd} was stopped by ${signal}`);
    });
    child.unref();
  } catch (e) {
    couldNot(e instanceof Error ? e.message : String(e));
  }
}

export async function runUiServer(opts: UiServerOptions): Promise<UiHandle> {
  const env = opts.env ?? process.env;
  const host = opts.host ?? "127.0.0.1";
  const configured = opts.token || env.CAIRN_UI_TOKEN || undefined;
  // A random token is printed to whoever runs this; on a network interface the token must be one the owner chose.
  checkBinding(host, configured, "Set CAIRN_UI_TOKEN (or pass --token) to a secret of your own");
  const token = configured ?? randomToken(24);
  const assets = new Assets();
  const cairn = await openCairn({ projectDir: opts.projectDir, ...(opts.hivePath ? { hivePath: opts.hivePath } : {}), env, actor: "human:ui", createHiveFolder: false });
  const port = opts.port ?? DEFAULT_UI_PORT;
  let server: Server;
  try {
    const { app } = createUiApp({
      cairn,
      token,
      loopback: isLoopbackHost(host),
      // Cookies ignore ports: two servers on one host must not overwrite each other's session.
      cookieName: `cairn_ui_${randomToken(6)}`,
      defaultName: defaultName(env, opts.name),
      assets,
    });
    server = await new Promise<Server>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(s as Server)) as Server;
      s.once("error", (e) => reject(listenError(e, host, port, "`cairn ui`")));
    });
  } catch (e) {
    await cairn.close();
    throw e;
  }
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  const url = `http://${shownHost}:${bound}`;
  const loginUrl = `${url}/login?token=${encodeURIComponent(token)}`;
  const print = opts.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const shownLink = configured ? `${url}/login` : loginUrl;
  if (opts.json) print(JSON.stringify({ url, sign_in: shownLink, token_configured: Boolean(configured), project: cairn.project }));
  else {
    print(`Cairn UI for ${cairn.project.name} at ${url}`);
    print(configured ? `Sign in with your configured token (CAIRN_UI_TOKEN or --token): ${shownLink}` : `Sign in: ${shownLink}`);
  }
  process.stderr.write(`cairn ui: listening on ${host}:${bound}; project ${visibleControls(cairn.project.dir)}; stop with Ctrl-C\n`);
  if (opts.open) openBrowser(loginUrl, shownLink);

  const requests = gentleCloser(server);
  let finished!: () => void;
  const closed = new Promise<void>((resolve) => (finished = resolve));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // A save in flight when Ctrl-C comes is finished (bounded), not cut off half-answered.
      await requests.close();
      await cairn.close();
      finished();
    })());
  return { url, loginUrl, port: bound, closed, close, inFlight: requests.inFlight };
}
