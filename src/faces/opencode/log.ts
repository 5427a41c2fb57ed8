// The plugin's own log file (<project>/.swarm/cairn-plugin.log): hook failures land here instead of breaking the session.
import fs from "node:fs";
import path from "node:path";
import { makeFolder } from "../../core/folders.js";

const MAX_BYTES = 1_000_000;

export class PluginLog {
  readonly file: string;
  private checked = false;

  constructor(projectDir: string, swarmDir = ".swarm") {
    this.file = path.join(projectDir, swarmDir, "cairn-plugin.log");
  }

  /** Synchronous on purpose: it runs rarely (failures, reports), and a crash right after must not lose the line. */
  write(level: "error" | "warn" | "info", message: string): void {
    try {
      makeFolder(path.dirname(this.file));
      if (!this.checked) {
        this.checked = true;
        // One rotation per process keeps a runaway failure loop from filling the disk.
        if (fs.existsSync(this.file) && fs.statSync(this.file).size > MAX_BYTES) fs.renameSync(this.file, `${this.file}.1`);
      }
      fs.appendFileSync(this.file, `${new Date().toISOString()} ${level.toUpperCase()} ${message.replace(/\n/g, "\n    ")}\n`);
    } catch {
      // Nowhere left to report to; the session matters more than the log.
    }
  }

  error(where: string, err: unknown): void {
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    this.write("error", `${where}: ${detail}`);
  }
}

/** A deliberate refusal (an enforced lesson), not a failure: safeHook lets it through so OpenCode fails the tool call. */
export class HookVeto extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HookVeto";
  }
}

/** Wraps a hook so an exception is logged and swallowed: a knowledge feature must never break the user's session. */
export function safeHook<F extends (...args: any[]) => Promise<void>>(log: PluginLog, name: string, fn: F): F {
  return (async (...args: Parameters<F>) => {
    try {
      await fn(...args);
    } catch (err) {
      if (err instanceof HookVeto) throw err;
      log.error(name, err);
    }
  }) as F;
}
