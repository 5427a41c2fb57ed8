// The stdio face: one client, protocol on stdout only, every diagnostic on stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { errorText, log } from "./log.js";
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
  // The SDK drops a line it cannot read without a word (and sends no reply): a client author debugging
  // a silent server needs it said, on stderr, where diagnostics go.
  session.server.server.onerror = (e: Error) => log(unreadable(e) ? `ignored input that is not a JSON-RPC message (${oneLine(errorText(e))})` : `protocol error: ${oneLine(errorText(e))}`);
  await session.server.connect(transport);
  log(`stdio server ready (default project ${opts.project ?? process.cwd()})`);
  return { closed, close };
}

/** A line that is not JSON (SyntaxError) or not a JSON-RPC message (the SDK's schema check). */
function unreadable(e: unknown): boolean {
  return e instanceof SyntaxError || (e instanceof Error && e.name === "ZodError");
}

/** An error's first 200 characters on one line: a schema error is pages of JSON. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
