#!/usr/bin/env node
// Standalone launcher: `node dist/faces/mcp/main.js [--http] [--port P] [--host H] [--token T] [--project dir]`.
import { compileRegexpsAtFirstRun } from "../../core/native-regexps.js";

// Before the server's modules (and the gates' patterns in them) load.
compileRegexpsAtFirstRun();
const { createMcpCommand } = await import("./command.js");

process.on("unhandledRejection", (e) => process.stderr.write(`cairn mcp: unhandled rejection: ${String(e)}\n`));
await createMcpCommand("cairn-mcp").parseAsync(process.argv);
