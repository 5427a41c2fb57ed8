#!/usr/bin/env node
// Entry point of the `cairn` command: the bundled CLI in dist/ (built by `npm run build`).
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (existsSync(cli)) {
  // First, so the gates' patterns are compiled at their first run (src/core/native-regexps.ts).
  const { compileRegexpsAtFirstRun } = await import(new URL("../dist/native-regexps.js", import.meta.url).href);
  compileRegexpsAtFirstRun();
  await import(cli.href);
} else {
  // A source checkout before its first build: say what to run instead of a module-not-found trace.
  process.stderr.write("cairn: the CLI is not built yet; run `npm run build` in the Cairn checkout first.\n");
  process.exitCode = 1;
}
