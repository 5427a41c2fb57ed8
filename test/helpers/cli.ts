// Runs the built `cairn` CLI as a child process inside a throwaway home, so no test touches real user dirs.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = path.join(REPO, "bin", "cairn.js");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The signal that ended the process (a test's `timeoutMs` sends SIGTERM). */
  signal?: NodeJS.Signals | null;
}

export interface Sandbox {
  root: string;
  hive: string;
  env: NodeJS.ProcessEnv;
  /** A new, existing project directory inside the sandbox. */
  project(name: string): string;
  /** Runs `cairn --project <dir> …args`. */
  run(project: string, ...args: string[]): Promise<CliResult>;
  /** Runs `cairn …args --json` and parses stdout (which must be exactly one JSON value). */
  json<T = any>(project: string, ...args: string[]): Promise<CliResult & { body: T }>;
  /** Runs without --project, e.g. for `--help`. */
  raw(args: string[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliResult>;
  cleanup(): void;
}

/** Only the variables a CLI needs; everything user-specific points into the sandbox. */
function sandboxEnv(root: string, hive: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: "1", LANG: "C.UTF-8" };
  env.HOME = path.join(root, "home");
  env.XDG_DATA_HOME = path.join(root, "xdg-data");
  env.XDG_CONFIG_HOME = path.join(root, "xdg-config");
  env.CAIRN_HIVE = hive;
  for (const d of [env.HOME, env.XDG_DATA_HOME, env.XDG_CONFIG_HOME]) fs.mkdirSync(d!, { recursive: true });
  return env;
}

export function runCli(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: opts.env, maxBuffer: 64 * 1024 * 1024, timeout: opts.timeoutMs ?? 0 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr, signal: err ? ((err as { signal?: NodeJS.Signals | null }).signal ?? null) : null });
    });
  });
}

export function sandbox(): Sandbox {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cairn-cli-")));
  const hive = path.join(root, "hive", "hive.db");
  // A user's CAIRN_HIVE names a file in a folder that exists (a missing folder is refused as a typo).
  fs.mkdirSync(path.dirname(hive));
  const env = sandboxEnv(root, hive);
  const sb: Sandbox = {
    root,
    hive,
    env,
    project(name) {
      const dir = path.join(root, "projects", name);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    run(project, ...args) {
      return runCli(["--project", project, ...args], { cwd: root, env });
    },
    async json(project, ...args) {
      const r = await sb.run(project, ...args, "--json");
      let body: any;
      try {
        body = JSON.parse(r.stdout);
      } catch {
        throw new Error(`stdout is not one JSON value (exit ${r.code}):\n${r.stdout}\nstderr:\n${r.stderr}`);
      }
      return { ...r, body };
    },
    raw(args, opts = {}) {
      return runCli(args, { cwd: opts.cwd ?? root, env: opts.env ?? env, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return sb;
}

/** Every byte under `dir` (databases, WAL and SHM files), for asserting a secret never reached disk. */
export function bytesUnder(dir: string): Buffer {
  if (!fs.existsSync(dir)) return Buffer.alloc(0);
  const parts: Buffer[] = [];
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const p = path.join(dir, name);
    if (fs.statSync(p).isFile()) parts.push(fs.readFileSync(p));
  }
  return Buffer.concat(parts);
}
