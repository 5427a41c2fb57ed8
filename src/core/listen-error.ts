// A server's failure to listen (`cairn ui`, `cairn mcp --http`), said in the flags a person changes.
import { CairnError } from "../errors.js";

/** `listen EADDRINUSE` and friends become a CairnError naming the port and what to pass instead; anything else passes through. */
export function listenError(e: unknown, host: string, port: number | string, server: string): unknown {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const at = `port ${port} on ${host}`;
  const why =
    code === "EADDRINUSE" ? `${at} is already in use (another ${server}, or another program). Pass --port 0 to pick a free port, or choose another --port.`
    : code === "EACCES" ? `${at} needs privileges this user lacks (ports below 1024 usually do). Pass --port 0 to pick a free port, or a port above 1023.`
    : code === "EADDRNOTAVAIL" ? `--host ${host} is not an address of this machine. Use 127.0.0.1 (the default), or one of this machine's addresses.`
    : code === "ENOTFOUND" || code === "EAI_AGAIN" ? `--host ${host} does not resolve to an address. Use 127.0.0.1 (the default), or one of this machine's addresses.`
    : undefined;
  return why ? new CairnError("IO_ERROR", `Cannot listen: ${why}`, { host, port }) : e;
}
