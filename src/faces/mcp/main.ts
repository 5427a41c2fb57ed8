#!/usr/bin/env node
// Standalone launcher: `node dist/faces/mcp/main.js [--http] [--port P] [--host H] [--token T] [--project dir]`.
import { createMcpCommand } from "./command.js";

process.on("unhandledRejection", (e) => process.stderr.write(`cairn mcp: unhandled rejection: ${String(e)}\n`));
await createMcpCommand("cairn-mcp").parseAsync(process.argv);
