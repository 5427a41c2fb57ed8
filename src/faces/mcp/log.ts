// Diagnostics for the MCP server: always stderr, because stdout carries the protocol in stdio mode.
import { visibleControls } from "../../quality/sanitize.js";

export function log(message: string): void {
  process.stderr.write(`cairn mcp: ${visibleControls(message)}\n`);
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
