// A long-running `cairn` (a server: mcp, ui) as a child process in a CLI sandbox, its output collected, for tests that signal it while it runs.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { BIN, type Sandbox } from "./cli.js";

export interface Running {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `cairn --project <p> …args` in `p` with the sandbox's environment. */
export function startCli(sb: Sandbox, p: string, args: string[]): Running {
  const child = spawn(process.execPath, [BIN, "--project", p, ...args], { cwd: p, env: sb.env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  return { child, out: () => stdout, err: () => stderr, exited };
}

/** Polls until `ready()` holds or the process ends (no fixed sleeps, no wall-clock limit but the test's own); `what` names the wait. */
export async function until(r: Running, ready: () => boolean, what = "it was ready"): Promise<void> {
  let ended = false;
  void r.exited.then(() => (ended = true));
  while (!ready()) {
    if (ended) throw new Error(`the server ended before ${what}:\n${r.out()}\n${r.err()}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}
