// Closing a server (`cairn ui`, `cairn mcp --http`) without cutting off a request in flight: stop accepting, let those finish (bounded), then close the rest.
import type { IncomingMessage, Server } from "node:http";

/** How long a stopping server waits for the requests in flight before cutting them off. */
export const CLOSE_GRACE_MS = 5_000;

export interface GentleCloser {
  /** Requests counted and not yet answered. */
  inFlight(): number;
  /** Stops taking connections, waits up to `graceMs` for the counted requests in flight, then closes every connection left. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Counts the requests `server` is answering (those `counts` accepts: a long-lived event stream, which never ends by
 * itself, is left out so it does not hold the stop for the whole grace period).
 */
export function gentleCloser(server: Server, counts: (req: IncomingMessage) => boolean = () => true): GentleCloser {
  let inFlight = 0;
  let settled: (() => void) | undefined;
  server.on("request", (req: IncomingMessage, res) => {
    if (!counts(req)) return;
    inFlight++;
    res.once("close", () => {
      inFlight--;
      if (inFlight === 0) settled?.();
    });
  });
  return {
    inFlight: () => inFlight,
    async close(graceMs = CLOSE_GRACE_MS) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections would otherwise hold close() open; the busy ones finish their request first.
      server.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          settled = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
