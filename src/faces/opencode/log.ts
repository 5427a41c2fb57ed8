// The plugin's own log file (<project>/.swarm/cairn-plugin.log, else a user-level fallback): hook failures land here instead of breaking the session.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { platformDataDir } from "../../config.js";
import { makeFolder } from "../../core/folders.js";

const MAX_BYTES = 1_000_000;

/**
 * Where the log goes when the project's `.swarm` cannot take it (a read-only checkout, a full disk): a file
 * the user owns beside the hive, one per project folder (its name and a hash of its path).
 */
export function pluginLogFallback(projectDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = path.resolve(projectDir);
  const hash = createHash("sha256").update(dir).digest("hex").slice(0, 12);
  const name = path.basename(dir).replace(/[^\w.-]+/g, "_").slice(0, 40) || "project";
  return path.join(platformDataDir(env), "plugin-logs", `${name}-${hash}.log`);
}

export interface PluginLogOptions {
  /** The file to use once the project's log cannot be written (default: pluginLogFallback). */
  fallback?: string;
  /** Told once that the project's log cannot be written and where the lines go instead (already in the fallback file). */
  onUnwritable?: (message: string) => void;
}

export class PluginLog {
  readonly file: string;
  private readonly fallback: string;
  private readonly onUnwritable: ((message: string) => void) | undefined;
  /** The file lines go to now: the project's, then the fallback once it failed, then none once both did. */
  private target: string | undefined;
  private checked = false;

  constructor(projectDir: string, swarmDir = ".swarm", opts: PluginLogOptions = {}) {
    this.file = path.join(projectDir, swarmDir, "cairn-plugin.log");
    this.target = this.file;
    this.fallback = opts.fallback ?? pluginLogFallback(projectDir);
    this.onUnwritable = opts.onUnwritable;
  }

  /** Synchronous on purpose: it runs rarely (failures, reports), and a crash right after must not lose the line. */
  write(level: "error" | "warn" | "info", message: string): void {
    const target = this.target;
    if (!target) return;
    const failed = append(target, stamped(level, message), !this.checked);
    this.checked = true;
    if (!failed) return;
    if (target !== this.file) {
      this.target = undefined;
      return;
    }
    // Said once, loudly: a silent log loses every hook failure after it. The fallback opens with why it is used.
    const moved = `the plugin log ${this.file} cannot be written (${failed}); the plugin logs to ${this.fallback} instead.`;
    const fallbackFailed = append(this.fallback, stamped("warn", moved), true);
    this.target = fallbackFailed ? undefined : this.fallback;
    if (this.target) append(this.target, stamped(level, message), false);
    try {
      this.onUnwritable?.(fallbackFailed ? `the plugin log ${this.file} cannot be written (${failed}), nor can ${this.fallback} (${fallbackFailed}); problems go to OpenCode's log only.` : moved);
    } catch {
      // Nowhere left to report to; the session matters more than the log.
    }
  }

  error(where: string, err: unknown): void {
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    this.write("error", `${where}: ${detail}`);
  }
}

/** Appends one line (rotating an oversized file first when asked); returns why it could not, or undefined. */
function append(file: string, line: string, rotate: boolean): string | undefined {
  try {
    makeFolder(path.dirname(file));
    // One rotation per process keeps a runaway failure loop from filling the disk.
    if (rotate && fs.existsSync(file) && fs.statSync(file).size > MAX_BYTES) fs.renameSync(file, `${file}.1`);
    fs.appendFileSync(file, line);
    return undefined;
  } catch (e) {
    return whyUnwritable(e);
  }
}

function stamped(level: "error" | "warn" | "info", message: string): string {
  return `${new Date().toISOString()} ${level.toUpperCase()} ${message.replace(/\n/g, "\n    ")}\n`;
}

function whyUnwritable(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EROFS") return "read-only file system";
  if (code === "ENOSPC" || code === "EDQUOT") return "the disk is full";
  return e instanceof Error ? e.message : String(e);
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
