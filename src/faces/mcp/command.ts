// The `mcp` command (commander): the same flags for `cairn mcp` and the standalone main.ts.
import { Command, Option } from "commander";
import { nonEmpty } from "../cli/non-empty.js";
import { isCairnError } from "../../errors.js";
import { DEFAULT_HTTP_PORT } from "./defaults.js";
import { errorText, log } from "./log.js";

/** `environment`: what the server's engines see (the CLI passes its global --hive and --config this way); default process.env. */
export function createMcpCommand(name = "mcp", environment?: () => NodeJS.ProcessEnv): Command {
  return new Command(name)
    .description("Serve Cairn's knowledge tools over the Model Context Protocol (stdio by default).")
    .option("--http", "serve Streamable HTTP instead of stdio")
    .option("--port <port>", `HTTP port (default ${DEFAULT_HTTP_PORT}; 0 picks a free one)`)
    .addOption(new Option("--host <host>", "HTTP interface to bind (default 127.0.0.1; anything else requires a token)").argParser(nonEmpty("--host", "an interface, e.g. 127.0.0.1")))
    // An empty --token (an unset shell variable) would serve with no token at all.
    .addOption(new Option("--token <token>", "bearer token HTTP clients must send (prefer env CAIRN_MCP_TOKEN: flags show in ps)").argParser(nonEmpty("--token", "a secret")))
    .addOption(new Option("--project <dir>", "project used when a client offers no roots (default: the working directory)").argParser(nonEmpty("--project", "a path")))
    .addHelpText(
      "after",
      `
Logs go to stderr; over stdio, stdout carries only the protocol.

Examples:
  $ cairn mcp                                   # stdio, for Claude Code, Cursor, OpenCode
  $ claude mcp add cairn -- cairn mcp           # register it with Claude Code
  $ cairn mcp --project ~/code/api              # when the client sends no workspace roots
  $ CAIRN_MCP_TOKEN=$(openssl rand -hex 24) cairn mcp --http --port 7391   # one long-running server`,
    )
    .action(async (o: { http?: boolean; port?: string; host?: string; token?: string; project?: string }, cmd: Command) => {
      // `cairn --json mcp`: a server that cannot start answers like every other command, with one JSON error on stdout.
      const json = Boolean((cmd.optsWithGlobals() as { json?: boolean }).json);
      // Said once: as the JSON value under --json (as every command says an error), else as a stderr line.
      let saidAsJson = false;
      try {
        // The SDK and the engine load only when the server starts, not for `cairn --help`.
        const { runMcp } = await import("./run.js");
        let handle: Awaited<ReturnType<typeof runMcp>>;
        try {
          handle = await runMcp({ ...o, ...(environment ? { env: environment() } : {}) });
        } catch (e) {
          // Not started, so stdout carries no protocol yet.
          if (json) {
            process.stdout.write(`${JSON.stringify({ error: { code: isCairnError(e) ? e.code : "INTERNAL", message: errorText(e) } }, null, 2)}\n`);
            saidAsJson = true;
          }
          throw e;
        }
        await handle.closed;
      } catch (e) {
        if (!saidAsJson) log(errorText(e));
        // 2 = fix the flags or config and retry; 1 = anything else (e.g. the port is taken).
        process.exitCode = isCairnError(e) && (e.code === "INVALID_CONFIG" || e.code === "INVALID_INPUT") ? 2 : 1;
      }
    });
}
