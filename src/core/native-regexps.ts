// Has V8 compile the regular expressions made from now on to machine code at their first run: the CLI, the MCP launcher and an import's worker call it first.

import v8 from "node:v8";

let requested = false;

/**
 * V8 runs a regular expression through its bytecode interpreter the first time and compiles it on the second (regexp
 * tier-up). The gates' cue and secret patterns are large alternations the interpreter walks hundreds of times slower:
 * a process's first lesson gated paid ~350 ms and its next 400 ~0.8 ms each, against ~110 ms and ~0.3 ms compiled at
 * once (docs/performance.md, "The first call of a process").
 *
 * It sets the tier-up count to zero, which V8 reads when a pattern object is made: call it before the modules holding
 * the patterns load (an entry point's dynamic import, a worker thread started after it). Turning tier-up off instead
 * (`--no-regexp-tier-up`) crashed processes at runtime: a pattern already interpreted once was then run as if compiled.
 * Process-wide; it changes only when code is made, never what a pattern matches. Bun (JavaScriptCore) has no such
 * tiering, and there it does nothing.
 */
export function compileRegexpsAtFirstRun(): void {
  if (requested) return;
  requested = true;
  if (process.versions.bun !== undefined) return;
  try {
    v8.setFlagsFromString("--regexp-tier-up-ticks=0");
  } catch {
    // A runtime without V8 flags: regexps tier up as they always did.
  }
}
