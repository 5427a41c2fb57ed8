// The stdio face: one client, protocol on stdout only, every diagnostic on stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { log } from "./log.js";
import { ProjectPool } from "./projects.js";
import { createCairnMcpServer } from "./server.js";

export interface StdioServerOptions {
  /** The project when the client offers no roots (default: the working directory). */
  project?: string;
  env?: NodeJS.ProcessEnv;
}

export interface McpHandle {
  /** Resolves once the server has stopped (client gone, or close() called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function runStdioServer(opts: StdioServerOptions = {}): Promise<McpHandle> {
  // One stray console.log from any module would corrupt the JSON-RPC stream; send it to stderr instead.
  console.log = console.error;
  console.info = console.error;
  const pool = new ProjectPool(opts.env ?? process.env);
  const session = createCairnMcpServer({ pool, fallbackDir: opts.project ?? process.cwd() });
  const transport = new StdioServerTransport();

  let finished!: () => void;
  const closed = new Promise<void>((resolve) => (finished = resolve));
  // Deferred: closing the transport calls back into close() before the promise could be stored.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= Promise.resolve().then(async () => {
      session.dispose();
      await session.server.close().catch(() => undefined);
      await pool.closeAll();
      finished();
    }));

  transport.onclose = () => void close();
  // The transport does not notice a closed stdin on its own; the client going away ends the server.
  process.stdin.once("end", () => void close());
  await session.server.connect(transport);
  log(`stdio server ready (default project ${opts.project ?? process.cwd()})`);
  return { closed, close };
}
