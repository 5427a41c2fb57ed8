// The one rule for a --port value, shared by `cairn ui` and `cairn mcp --http`: plain digits from 0 to 65535.

/** What a refused --port is told, on both servers. */
export const PORT_RULE = "--port must be a whole number from 0 to 65535 (0 picks a free one)";

/** `v` as a port, or undefined when it is none: digits only, so "0x50" or "1e3" (which Number() reads) is no port. */
export function portNumber(v: string | number): number | undefined {
  const text = String(v).trim();
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n <= 65_535 ? n : undefined;
}
