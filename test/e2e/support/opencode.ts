// Runs the real opencode binary for e2e tests: offline config home, isolated XDG dirs, and a watchdog on no progress.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isSideRequest, type ChatRequest, type ModelServer } from "../../fixtures/model-server/server.js";
import { networkEnv } from "../../helpers/network-env.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const OPENCODE_BIN = path.join(REPO, "node_modules", ".bin", "opencode");

/**
 * Without progress for this long, a run is a hang and is killed. Progress is output, a request to the
 * model server, or a line of opencode's own INFO log (startup, each loop step, each model call): on a
 * 2-core machine at load 15+ one start takes minutes, most of it silent on stdout, yet it logs a
 * milestone every few seconds. A run stuck in a hook logs nothing more and is still caught.
 */
export const IDLE_LIMIT_MS = Number(process.env.CAIRN_E2E_IDLE_MS ?? 150_000);

/** The opencode-ai version installed as a dev dependency; the plugin SDK it wants has the same version. */
export function opencodeVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO, "node_modules", "opencode-ai", "package.json"), "utf8")) as { version: string }).version;
}

/**
 * On every start opencode makes sure its config folder lists @opencode-ai/plugin (for plugins written
 * as local .ts files) and installs it from the registry when the folder's package-lock.json does not
 * name it: 60+ MB fetched inside the first timed run of every fresh checkout. Cairn's plugin needs
 * none of it, so the folder is given a manifest and lock that already name the package, and opencode
 * finds nothing to install.
 */
export function prepareConfigHome(xdgConfigHome: string): void {
  const dir = path.join(xdgConfigHome, "opencode");
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  const deps = { "@opencode-ai/plugin": opencodeVersion() };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ dependencies: deps }, null, 2));
  fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies: deps } } }, null, 2));
}

/** HOME and the XDG folders under `root`, plus the switches that keep opencode offline and quiet. */
export function isolatedEnv(root: string, project: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dirs = Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"].map((k) => [k, path.join(root, k.toLowerCase())]));
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  prepareConfigHome(dirs.XDG_CONFIG_HOME!);
  return {
    PATH: process.env.PATH,
    // opencode installs npm plugins itself: it needs the machine's registry CA and proxy, nothing else of the user's.
    ...networkEnv(),
    ...dirs,
    // Bun reads the working directory from PWD; an inherited one would run opencode in the repo.
    PWD: project,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    ...extra,
  };
}

/** An opencode.json using the scripted model server as its only provider. */
export function modelConfig(server: ModelServer, rest: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    provider: { mock: { npm: "@ai-sdk/openai-compatible", name: "Mock", options: { baseURL: server.url, apiKey: "test" }, models: { m: { name: "Mock model" } } } },
    model: "mock/m",
    small_model: "mock/m",
    autoupdate: false,
    share: "disabled",
    permission: { edit: "allow", bash: "allow" },
    ...rest,
  };
}

export interface OpencodeEvent {
  type: string;
  part?: { tool?: string; text?: string; state?: { status?: string; output?: string } };
}

export interface OpencodeRun {
  code: number | null;
  events: OpencodeEvent[];
  /** The model requests this run made (title and other side requests left out). */
  requests: ChatRequest[];
  stderr: string;
  /** True when the watchdog killed a run that made no progress for IDLE_LIMIT_MS. */
  hung: boolean;
  ms: number;
  /** Progress lines (output or log) the watchdog saw before this run's first model request: opencode's silent start made visible. */
  linesBeforeFirstRequest: number;
}

/**
 * `opencode run --format json …` in `cwd`. There is no total time limit — a busy machine may take
 * minutes — only a watchdog that kills the run when it stops making progress.
 */
export async function runOpencode(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; server: ModelServer; idleMs?: number }): Promise<OpencodeRun> {
  const started = Date.now();
  const from = opts.server.requests.length;
  // --print-logs sends opencode's log to stderr, which the watchdog counts as progress (and runFailure shows).
  const child = spawn(OPENCODE_BIN, ["run", "--print-logs", "--log-level", "INFO", "--format", "json", ...args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let lastProgress = Date.now();
  let requestsSeen = from;
  let linesBeforeFirstRequest = 0;
  const progress = (text: string) => {
    lastProgress = Date.now();
    if (opts.server.requests.length === from) linesBeforeFirstRequest += text.split("\n").filter((l) => l.trim()).length;
  };
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    progress(d.toString());
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
    progress(d.toString());
  });
  let hung = false;
  const idle = opts.idleMs ?? IDLE_LIMIT_MS;
  const watchdog = setInterval(() => {
    if (opts.server.requests.length !== requestsSeen) {
      requestsSeen = opts.server.requests.length;
      lastProgress = Date.now();
    }
    if (Date.now() - lastProgress > idle) {
      hung = true;
      child.kill("SIGKILL");
    }
  }, 1000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearInterval(watchdog);
  const events = out
    .split("\n")
    .filter((l) => l.trim().startsWith("{"))
    .map((l) => JSON.parse(l) as OpencodeEvent);
  const requests = opts.server.requests.slice(from).map((r) => r.body).filter((b) => !isSideRequest(b));
  const ms = Date.now() - started;
  // Scene times under load are what item 15 of issue 11 was about; CAIRN_E2E_TIMES=1 prints them.
  if (process.env.CAIRN_E2E_TIMES) process.stderr.write(`[e2e] opencode ${args.join(" ").slice(0, 40)} → ${code} in ${ms} ms\n`);
  return { code, events, requests, stderr: err, hung, ms, linesBeforeFirstRequest };
}

/** A message for a failed exit-code assertion: why it ended and the end of its stderr. */
export function runFailure(run: OpencodeRun): string {
  const why = run.hung ? `opencode made no progress for ${Math.round(IDLE_LIMIT_MS / 1000)} s and was killed` : `opencode exited with ${run.code}`;
  return `${why} after ${Math.round(run.ms / 1000)} s; the end of its log:\n${run.stderr.slice(-3000)}`;
}
