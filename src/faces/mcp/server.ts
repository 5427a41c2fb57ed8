// The MCP server for one session: every shared tool and the resources, bound to the session's own project.
import { asCairnError } from "../../core/validation-error.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isCairnError } from "../../errors.js";
import { ALL_TOOLS, changedEntries, runTool, toolErrorMessage, toolInputSchema, toolMessage } from "../../tools/index.js";
import type { ToolDefinition } from "../../tools/types.js";
import { errorText, log } from "./log.js";
import type { ProjectPool } from "./projects.js";
import { explainArgumentErrors } from "./arguments.js";
import { registerResources } from "./resources.js";
import { SessionProject, type Extra } from "./session.js";
import { packageVersion } from "../../core/package-info.js";

export interface CairnMcpServerOptions {
  pool: ProjectPool;
  /** The project when the client offers no usable roots: --project, else the working directory. */
  fallbackDir: string;
}

export interface CairnMcpSession {
  server: McpServer;
  /** Stops listening for other sessions' changes; call when the session ends. */
  dispose(): void;
}

const INSTRUCTIONS =
  "Cairn holds lessons learned by agents on this project (swarm tier) and across the user's projects (hive tier). " +
  "Call knowledge_context (or knowledge_recall) before a task, knowledge_add when you learn something worth keeping, " +
  "and knowledge_feedback when a lesson you were shown helped or was wrong.";

/** `mcp:<client name>` — the client names itself at initialize; never a human actor, since agents cannot approve. */
function actorFor(server: McpServer): string {
  const name = (server.server.getClientVersion()?.name ?? "client").toLowerCase().replace(/[^a-z0-9._-]+/g, "-").slice(0, 60);
  return `mcp:${name || "client"}`;
}

function toolError(tool: ToolDefinition, thrown: unknown): CallToolResult {
  const e = asCairnError(thrown);
  if (isCairnError(e)) {
    const message = toolErrorMessage(e);
    return { isError: true, content: [{ type: "text", text: message }], structuredContent: { error: e.code, message } };
  }
  log(`${tool.name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return { isError: true, content: [{ type: "text", text: `Internal error in ${tool.name}: ${toolMessage(errorText(e))}` }], structuredContent: { error: "INTERNAL" } };
}

export function createCairnMcpServer(opts: CairnMcpServerOptions): CairnMcpSession {
  const server = new McpServer({ name: "cairn", version: packageVersion() }, { instructions: INSTRUCTIONS });
  const session = new SessionProject(server, opts.pool, opts.fallbackDir);

  for (const tool of ALL_TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: toolInputSchema(tool), annotations: { ...tool.annotations, openWorldHint: false } },
      async (args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> => {
        try {
          const project = await session.resolve(extra);
          const result = await runTool(tool, args, { cairn: project.cairn, actor: actorFor(server), sessionId: extra.sessionId });
          if (changedEntries(result)) opts.pool.notifyChanged(project.dir);
          return { content: [{ type: "text", text: result.text }], structuredContent: result.data };
        } catch (e) {
          return toolError(tool, e);
        }
      },
    );
  }
  registerResources(server, session);
  explainArgumentErrors(server);

  const unsubscribe = opts.pool.subscribe((dir) => {
    if (session.dir === dir && server.isConnected()) server.sendResourceListChanged();
  });
  return { server, dispose: unsubscribe };
}
