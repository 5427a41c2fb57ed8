// The shape of one agent-facing tool, defined once and served by both the OpenCode plugin and the MCP server.
import type { z } from "zod";
import type { Cairn } from "../engine.js";

export interface ToolCallContext {
  /** The engine for the caller's project (the face resolves which project; tools never pick one). */
  cairn: Cairn;
  /** Who is calling, e.g. `agent:architect` or `mcp:claude-code`. Never `human:*`: agents cannot approve. */
  actor: string;
  /** Session id, when the host has one. */
  sessionId?: string;
  /** The host's id of the task an agent reports the outcome of (the OpenCode plugin's plan task), so the host's own outcome of it and the report count once. */
  taskIdOf?(task: string): string | undefined;
}

export interface ToolResult {
  /** Concise text for the model. */
  text: string;
  /** The same answer as data (MCP structuredContent, JSON for scripts). */
  data: Record<string, unknown>;
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  /** What the tool does and when to use it, written for an LLM. */
  description: string;
  /** Zod object shape of the arguments, each field with a `.describe()`. */
  args: Shape;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint?: boolean };
  /** Throws CairnError on bad input; faces turn that into a tool error with the message. */
  run(args: z.infer<z.ZodObject<Shape>>, ctx: ToolCallContext): Promise<ToolResult>;
}
