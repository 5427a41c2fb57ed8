// Adapter: the shared agent tools (ALL_TOOLS) in the shape OpenCode's plugin API expects.
import type { ToolContext, ToolDefinition as PluginTool } from "@opencode-ai/plugin";
import { z } from "zod";
import type { Cairn } from "../../engine.js";
import { isCairnError } from "../../errors.js";
import { ALL_TOOLS, callTool, toolErrorMessage, toolMessage, type ToolDefinition } from "../../tools/index.js";

/**
 * OpenCode builds `z.object(args)` with its own bundled zod and renders it as JSON Schema for the
 * model. Our input schemas carry defaults and refinements meant for validation (`callTool` parses
 * the arguments again with the original shape); what OpenCode needs is the input-side contract:
 * each field optional unless required, with its description and bounds. So each argument is
 * rebuilt from its JSON Schema, a documented format, rather than handed over with a default that
 * output-mode JSON Schema would turn into "required". zod keeps descriptions in a registry shared
 * through globalThis, so OpenCode's copy of zod reads them.
 */
type PZ = typeof z;
/** Any schema; typed as ZodAny so describe/optional are available on every variant. */
type PSchema = ReturnType<PZ["any"]>;

interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

function rebuild(js: JsonSchema, pz: PZ): PSchema {
  let s: PSchema;
  const variants = js.anyOf ?? js.oneOf;
  const type = Array.isArray(js.type) ? undefined : js.type;
  if (js.enum && js.enum.length && js.enum.every((v) => typeof v === "string")) s = pz.enum(js.enum as [string, ...string[]]) as unknown as PSchema;
  else if (js.const !== undefined && ["string", "number", "boolean"].includes(typeof js.const)) s = pz.literal(js.const as string) as unknown as PSchema;
  else if (variants && variants.length >= 2) s = pz.union(variants.map((v) => rebuild(v, pz)) as [PSchema, PSchema, ...PSchema[]]) as unknown as PSchema;
  else if (variants && variants.length === 1) s = rebuild(variants[0]!, pz);
  else if (type === "string") {
    let x = pz.string();
    if (js.minLength !== undefined) x = x.min(js.minLength);
    if (js.maxLength !== undefined) x = x.max(js.maxLength);
    s = x as unknown as PSchema;
  } else if (type === "number" || type === "integer") {
    let x = type === "integer" ? pz.number().int() : pz.number();
    if (js.minimum !== undefined) x = x.min(js.minimum);
    if (js.maximum !== undefined) x = x.max(js.maximum);
    s = x as unknown as PSchema;
  } else if (type === "boolean") s = pz.boolean() as unknown as PSchema;
  else if (type === "null") s = pz.null() as unknown as PSchema;
  else if (type === "array") {
    let x = pz.array(js.items ? rebuild(js.items, pz) : pz.any());
    if (js.minItems !== undefined) x = x.min(js.minItems);
    if (js.maxItems !== undefined) x = x.max(js.maxItems);
    s = x as unknown as PSchema;
  } else if (type === "object" && js.properties) s = pz.object(rebuildShape(js, pz)) as unknown as PSchema;
  else s = pz.any();
  return js.description ? s.describe(js.description) : s;
}

function rebuildShape(js: JsonSchema, pz: PZ): Record<string, PSchema> {
  const required = new Set(js.required ?? []);
  const shape: Record<string, PSchema> = {};
  for (const [key, prop] of Object.entries(js.properties ?? {})) {
    const field = rebuild(prop, pz);
    // Optional, never `.default()`: OpenCode renders output-mode JSON Schema, where a default would make the field required.
    shape[key] = required.has(key) ? field : (field.optional() as unknown as PSchema);
  }
  return shape;
}

/** The argument shape of one shared tool as OpenCode should see it. */
export function pluginArgs(def: ToolDefinition, pz: PZ = z): Record<string, PSchema> {
  const js = z.toJSONSchema(z.object(def.args), { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rebuildShape(js, pz);
}

export interface ToolHost {
  /** The engine for this project; throws with a reason when it could not be opened. */
  cairn(): Promise<Cairn>;
  /** The plan task an agent's reported outcome is of (see ToolCallContext.taskIdOf). */
  taskIdOf?(task: string): string | undefined;
  /** Called after a successful call, e.g. to note an explicit add in the agent-activity log. */
  onResult?(name: string, ctx: ToolContext, data: Record<string, unknown>): void;
}

export function pluginTool(def: ToolDefinition, host: ToolHost): PluginTool {
  // The plugin package's tool() is the identity function; importing it would make the package a runtime dependency.
  return {
    description: def.description,
    args: pluginArgs(def) as never,
    async execute(args: unknown, ctx: ToolContext) {
      try {
        const cairn = await host.cairn();
        const actor = `agent:${ctx.agent || "unknown"}`;
        const r = await callTool(def, args, { cairn, actor, ...(ctx.sessionID ? { sessionId: ctx.sessionID } : {}), ...(host.taskIdOf ? { taskIdOf: host.taskIdOf } : {}) });
        host.onResult?.(def.name, ctx, r.data);
        return { title: def.name, output: r.text, metadata: r.data };
      } catch (e) {
        // OpenCode shows a thrown error as a failed tool call with this message, which the model can act on.
        throw new Error(isCairnError(e) ? `${def.name} failed (${e.code}): ${toolErrorMessage(e)}` : `${def.name} failed: ${toolMessage(String((e as Error)?.message ?? e))}`);
      }
    },
  };
}

/** Every shared tool, keyed by its name (opencode-swarm's names, so its prompts keep working). */
export function pluginTools(host: ToolHost, tools: readonly ToolDefinition[] = ALL_TOOLS): Record<string, PluginTool> {
  return Object.fromEntries(tools.map((t) => [t.name, pluginTool(t, host)]));
}
