// Web UI test helpers: `cairn ui` as a real child process, Debian's Chromium through playwright-core, axe-core, a no-progress watchdog.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { BIN } from "./cli.js";

export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"];

/** Why browser tests cannot run here, or undefined. In CI a missing browser is a failure, not a skip. */
export function browserSkipReason(): string | undefined {
  if (fs.existsSync(CHROMIUM)) return undefined;
  const why = `no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CAIRN_CHROMIUM)`;
  if (process.env.CI === "true") throw new Error(`${why} — .ci/run installs it`);
  return why;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** A fresh, empty profile every time, at the screenshot size (1280×800). */
export async function launchBrowser(opts: { bypassCSP?: boolean } = {}): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-chromium-"));
  // The browser's own files (crash reports, caches) stay in the temp profile, never the real home.
  const home = path.join(profile, "home");
  fs.mkdirSync(home, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_CACHE_HOME: path.join(home, ".cache") },
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 },
    bypassCSP: opts.bypassCSP ?? false,
  });
  // Generous: the machine is shared; the watchdog, not these, catches a hang.
  context.setDefaultTimeout(120_000);
  context.setDefaultNavigationTimeout(120_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface UiServer {
  base: string;
  loginUrl: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns `cairn --project <dir> ui --port 0 …` and waits for the sign-in line (as long as it keeps starting). */
export function startUi(project: string, env: NodeJS.ProcessEnv, args: string[] = [], opts: { cwd?: string } = {}): Promise<UiServer> {
  const child = spawn(process.execPath, [BIN, "--project", project, "ui", "--port", "0", ...args], { env, stdio: ["ignore", "pipe", "pipe"], ...(opts.cwd ? { cwd: opts.cwd } : {}) });
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (out += d));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /Sign in: (http:\/\/\S+)/.exec(out);
      const at = /Cairn UI for .* at (http:\/\/\S+)/.exec(out);
      if (m && at) {
        clearInterval(timer);
        resolve({ base: at[1]!, loginUrl: m[1]!, child, output: () => out, stop });
      }
    }, 50);
    child.once("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`cairn ui exited ${code} before it was ready:\n${out}`));
    });
  });
}

/** Fails the test when no step has finished for `idleMs` (a hang), however long the whole run takes. */
export function watchdog(idleMs: number): { step(label: string): void; stop(): void; failed: Promise<never> } {
  let last = Date.now();
  let label = "start";
  let fail!: (e: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);
  const timer = setInterval(() => {
    if (Date.now() - last > idleMs) fail(new Error(`no progress for ${Math.round(idleMs / 1000)} s after step "${label}"`));
  }, 1000);
  timer.unref();
  return {
    step(l: string) {
      last = Date.now();
      label = l;
    },
    stop: () => clearInterval(timer),
    failed,
  };
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** axe-core in the page (evaluated through the DevTools protocol, which page CSP does not govern); serious and critical only. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  // A string, not a function: the test code is type-checked without the DOM library.
  const result = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))",
  )) as AxeViolation[];
  return result.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Signs in over plain HTTP with the token link: the session cookie and the page's CSRF token. */
export async function httpSession(ui: UiServer): Promise<{ cookie: string; csrf: string }> {
  const r = await fetch(ui.loginUrl, { redirect: "manual" });
  const set = r.headers.get("set-cookie") ?? "";
  const cookie = set.split(";")[0]!;
  if (!cookie.includes("=")) throw new Error(`no session cookie from the token link (status ${r.status})`);
  const page = await fetch(`${ui.base}/review`, { headers: { cookie } }).then((x) => x.text());
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error("no CSRF token on the review page");
  return { cookie, csrf };
}
