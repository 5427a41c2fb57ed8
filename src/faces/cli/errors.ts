// Turns any failure into an exit code and one message (stderr, or a JSON error object on stdout with --json).
import { asCairnError } from "../../core/validation-error.js";
import { CairnError, isCairnError, NotFoundError, type CairnErrorCode } from "../../errors.js";
import type { Output } from "./format.js";
import { interruptedExitCode } from "./interrupt.js";

/** Exit codes are part of the CLI contract: scripts branch on them. */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2, NOT_FOUND: 3, CONFLICT: 4 } as const;

const CODE_EXIT: Partial<Record<CairnErrorCode, number>> = {
  REJECTED: EXIT.USAGE,
  INVALID_INPUT: EXIT.USAGE,
  INVALID_ID: EXIT.USAGE,
  INVALID_CONFIG: EXIT.USAGE,
  NOT_FOUND: EXIT.NOT_FOUND,
  FORCE_REQUIRED: EXIT.CONFLICT,
  CONFLICT: EXIT.CONFLICT,
};

export function exitCodeFor(code: string): number {
  // The shell's code for a run stopped by a signal: 130 for Ctrl-C, 143 for SIGTERM (128 + its number).
  if (code === "INTERRUPTED") return interruptedExitCode();
  return CODE_EXIT[code as CairnErrorCode] ?? EXIT.FAILURE;
}

/** File-system failures are the user's to fix, so they read like CairnErrors rather than crashes. */
function fsMessage(e: unknown): string | undefined {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err.code !== "string" || !err.syscall) return undefined;
  const where = err.path ? ` ${err.path}` : "";
  const what: Record<string, string> = {
    ENOENT: "no such file or directory",
    EACCES: "permission denied",
    EISDIR: "is a directory",
    ENOTDIR: "not a directory",
    EEXIST: "already exists",
  };
  return `Cannot ${err.syscall}${where}: ${what[err.code] ?? err.code}`;
}

/** What a CLI user types next, for errors whose engine message cannot know the face; `said`: a message naming it needs no hint. */
const CLI_HINTS: Partial<Record<CairnErrorCode, { hint: string; said?: string }>> = {
  FORCE_REQUIRED: { hint: "Run the command again with --force to do it anyway.", said: "--force" },
  FORBIDDEN: { hint: "Run it as yourself: without --actor (or --actor human:<name>), from your own terminal rather than an agent's shell." },
};

/** The CLI's advice for `e`, unless its message already gives it (an export's "Pass --force to replace it"). */
function cliHint(e: CairnError): string | undefined {
  if (e instanceof NotFoundError) return "Run `cairn list` to see ids.";
  const h = CLI_HINTS[e.code];
  return h && !(h.said && e.message.includes(h.said)) ? h.hint : undefined;
}

/** Longest run of non-space characters an error repeats whole; a longer one (a pasted path, a runaway variable) is shortened. */
const LONGEST_WORD = 200;

/**
 * `message` as one readable line: its line breaks folded, and any word past LONGEST_WORD characters kept as
 * its start and end with the length between, so a 100,000-character argument never floods the terminal.
 */
export function readableMessage(message: string): string {
  return message
    .replace(/\s*\n\s*/g, " ")
    .replace(new RegExp(`\\S{${LONGEST_WORD + 1},}`, "gu"), (w) => {
      // Whole characters only: a cut through an emoji would leave half a surrogate pair.
      const chars = Array.from(w);
      return `${chars.slice(0, 120).join("")}…(${chars.length.toLocaleString("en-US")} characters)…${chars.slice(-40).join("")}`;
    });
}

/** Reports `e` and returns the exit code. Stack traces only for unexpected errors under CAIRN_DEBUG=1. */
export function reportError(thrown: unknown, out: Output): number {
  const e = asCairnError(thrown);
  const fsMsg = isCairnError(e) ? undefined : fsMessage(e);
  const unexpected = !isCairnError(e) && !fsMsg;
  const code = isCairnError(e) ? e.code : fsMsg ? "IO_ERROR" : "INTERNAL";
  const hint = isCairnError(e) ? cliHint(e) : undefined;
  const message = readableMessage(isCairnError(e) ? `${e.message}${hint ? ` ${hint}` : ""}` : (fsMsg ?? (e instanceof Error ? e.message : String(e))));
  if (out.json) out.print({ error: { code, message } });
  else out.error(`error: ${message}`);
  if (unexpected) {
    if (process.env.CAIRN_DEBUG === "1" && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
    else out.note("(set CAIRN_DEBUG=1 for a stack trace)");
  }
  return isCairnError(e) ? exitCodeFor(e.code) : EXIT.FAILURE;
}

export function usageError(message: string): CairnError {
  return new CairnError("INVALID_INPUT", message);
}
