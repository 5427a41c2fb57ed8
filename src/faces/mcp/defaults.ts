// The MCP face's defaults, in a module of their own so `cairn mcp --help` loads no server code.
export const DEFAULT_HTTP_PORT = 7391;
export const MCP_PATH = "/mcp";
