// Ctrl-C and SIGTERM during a long command or a server: the first asks it to stop cleanly, a second stops at once; the exit says which signal.
import os from "node:os";

/** The signal that stopped this run, if one did: a CLI process runs one command, so this is that command's. */
let stoppedBy: NodeJS.Signals | undefined;

/** The shell's code for a run stopped by `signal`: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 2);
}

/** The exit code of a run that stopped early because it was asked to: by the signal that asked, else Ctrl-C's 130. */
export function interruptedExitCode(): number {
  return signalExitCode(stoppedBy ?? "SIGINT");
}

export interface Interruption {
  /** Aborted at the first SIGINT or SIGTERM; the command stops where it safely can. */
  signal: AbortSignal;
  /** Stop listening (the command finished). */
  release(): void;
}

/**
 * Listens for SIGINT and SIGTERM while a long command runs. The first aborts `signal` (and calls `onFirst`,
 * e.g. to clear a progress bar and say what happens next); a second exits at once with that signal's code,
 * after `onSecond` says what was kept.
 */
export function stopOnSignal(hooks: { onFirst?: (signal: NodeJS.Signals) => void; onSecond?: () => void } = {}): Interruption {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    stoppedBy = name;
    if (controller.signal.aborted) {
      hooks.onSecond?.();
      process.exit(signalExitCode(name));
    }
    controller.abort();
    hooks.onFirst?.(name);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    release: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}

/**
 * A long-running server (`cairn mcp`, `cairn ui`): the first SIGINT or SIGTERM runs `close` (stop taking
 * requests, close the engine and its stores, so no journal is left behind) and then exits with that signal's
 * code, as a stopped command does; a second exits at once. `onFirst` says on stderr that it is shutting down.
 */
export function closeOnSignal(close: () => Promise<void>, onFirst?: (signal: NodeJS.Signals) => void): Interruption {
  const stop = stopOnSignal({
    onFirst: (signal) => {
      onFirst?.(signal);
      // A close that fails still ends the run the way the signal asked; the stores' own journals keep them whole.
      void close()
        .catch(() => undefined)
        .then(() => process.exit(interruptedExitCode()));
    },
  });
  return stop;
}
