// The `mcp` command (commander): the same flags for `cairn mcp` and the standalone main.ts.
import { Command } from "commander";
import { isCairnError } from "../../errors.js";
import { DEFAULT_HTTP_PORT } from "./http.js";
import { errorText, log } from "./log.js";
import { runMcp } from "./run.js";

export function createMcpCommand(name = "mcp"): Command {
  return new Command(name)
    .description("Serve Cairn's knowledge tools over the Model Context Protocol (stdio by default).")
    .option("--http", "serve Streamable HTTP instead of stdio")
    .option("--port <port>", `HTTP port (default ${DEFAULT_HTTP_PORT}; 0 picks a free one)`)
    .option("--host <host>", "HTTP interface to bind (default 127.0.0.1; anything else requires a token)")
    .option("--token <token>", "bearer token HTTP clients must send (prefer env CAIRN_MCP_TOKEN: flags show in ps)")
    .option("--project <dir>", "project used when a client offers no roots (default: the working directory)")
    .action(async (o: { http?: boolean; port?: string; host?: string; token?: string; project?: string }) => {
      try {
        const handle = await runMcp(o);
        await handle.closed;
      } catch (e) {
        log(errorText(e));
        // 2 = fix the flags or config and retry; 1 = anything else (e.g. the port is taken).
        process.exitCode = isCairnError(e) && (e.code === "INVALID_CONFIG" || e.code === "INVALID_INPUT") ? 2 : 1;
      }
    });
}
