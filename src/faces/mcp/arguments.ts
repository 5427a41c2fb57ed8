// A tool call's bad arguments, told to the agent in the tools' own words (which argument, what it must be, an example), not zod's.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { argumentProblems, findTool, notAnObjectMessage, toolInputSchema } from "../../tools/index.js";

type Validate = (tool: unknown, args: unknown, name: string) => Promise<unknown>;
type RequestHandler = (request: { params?: { name?: unknown; arguments?: unknown } }, extra: unknown) => Promise<unknown>;

/**
 * The SDK checks a call's arguments against the tool's schema before the handler runs, and answers a
 * failure with zod's wording ("Invalid input: expected string, received number at query"). It offers no
 * hook for that message, so the server's check is wrapped: when it refuses a Cairn tool's arguments, the same schema's issues
 * are said as `argumentProblems` says them on every other face. test/mcp/argument-errors.test.ts holds this against the SDK.
 */
export function explainArgumentErrors(server: McpServer): void {
  refuseArgumentsNotAnObject(server);
  const inner = server as unknown as { validateToolInput?: Validate };
  const sdkValidate = inner.validateToolInput?.bind(server);
  // An SDK that moved its check leaves zod's wording in place rather than a server that will not start;
  // test/mcp/argument-errors.test.ts fails on such an SDK, so the move is seen at upgrade time.
  if (!sdkValidate) return;
  inner.validateToolInput = async (tool, args, name) => {
    try {
      return await sdkValidate(tool, args, name);
    } catch (e) {
      // Only the schema's refusal is reworded; the SDK's other checks (the size of the arguments) stand as they are.
      const def = findTool(name);
      if (!def || !(e instanceof McpError) || e.code !== ErrorCode.InvalidParams) throw e;
      const parsed = await toolInputSchema(def).safeParseAsync(args ?? {});
      if (parsed.success) throw e;
      throw new McpError(ErrorCode.InvalidParams, argumentProblems(def, parsed.error.issues, args ?? {}));
    }
  };
}

/**
 * Before any tool runs, the SDK checks the whole tools/call request, where `arguments` must be an object;
 * null, a string or a list failed that check as an internal error (-32603) carrying zod's raw issue list.
 * The request's handler is wrapped so such a call is InvalidParams saying what the tool takes.
 */
function refuseArgumentsNotAnObject(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  const sdkHandler = handlers?.get("tools/call");
  // As above: an SDK that moved its handlers keeps its own wording, and test/mcp/argument-errors.test.ts fails.
  if (!handlers || !sdkHandler) return;
  handlers.set("tools/call", (request, extra) => {
    const params = request.params;
    const args = params?.arguments;
    const def = typeof params?.name === "string" ? findTool(params.name) : undefined;
    if (def && params && "arguments" in params && (args === null || typeof args !== "object" || Array.isArray(args))) {
      return Promise.reject(new McpError(ErrorCode.InvalidParams, notAnObjectMessage(def, args)));
    }
    return sdkHandler(request, extra);
  });
}
