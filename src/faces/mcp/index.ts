// The MCP face's public surface, for the CLI and embedders.
export { runMcp, type McpOptions } from "./run.js";
export { createMcpCommand } from "./command.js";
export { runStdioServer, type StdioServerOptions, type McpHandle } from "./stdio.js";
export { runHttpServer, DEFAULT_HTTP_PORT, MCP_PATH, type HttpServerOptions, type HttpHandle } from "./http.js";
export { createCairnMcpServer, type CairnMcpServerOptions, type CairnMcpSession } from "./server.js";
