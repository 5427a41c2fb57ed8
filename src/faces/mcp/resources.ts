// MCP resources: each entry as cairn://entries/{id} (listed newest first) and the project's stats as cairn://stats.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Status } from "../../core/entry.js";
import { isCairnError } from "../../errors.js";
import { sanitizeForPrompt, sanitizeValueForPrompt } from "../../quality/sanitize.js";
import { toolMessage } from "../../tools/index.js";
import type { Extra, SessionProject } from "./session.js";

const LISTED_STATUSES: readonly Status[] = ["draft", "candidate", "established", "promoted"];
const LISTED_MAX = 200;
/** The spec's code for an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * Stored text passed the gates, but a resource lands in a prompt, and some of it never met a gate (a project's
 * name is its folder's, a location its path): every string goes through the sanitiser, keys included.
 */
function cleanJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_k, v: unknown) => {
      if (typeof v === "string") return sanitizeValueForPrompt(v);
      if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [sanitizeValueForPrompt(k), x]));
    },
    2,
  );
}

function asMcpError(e: unknown): unknown {
  if (!isCairnError(e)) return e;
  // The message may quote what the client sent (an id from the URI): it reaches the model like any tool message.
  return new McpError(e.code === "NOT_FOUND" ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, toolMessage(e.message));
}

/**
 * A URI segment decoded. A broken %-escape ("%E0%A4") made decodeURIComponent throw, which reached the
 * client as an internal error ("URI malformed"); kept as written, the engine refuses it as it refuses any
 * id that is not one, saying what an id holds.
 */
function uriSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function guarded(fn: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await fn();
  } catch (e) {
    throw asMcpError(e);
  }
}

export function registerResources(server: McpServer, session: SessionProject): void {
  const entries = new ResourceTemplate("cairn://entries/{id}", {
    list: async (extra: Extra) => {
      const { cairn } = await session.resolve(extra);
      const list = await cairn.list({ tier: "all", statuses: LISTED_STATUSES, limit: LISTED_MAX, order: "newest" });
      return {
        resources: list.map((e) => ({
          uri: `cairn://entries/${e.id}`,
          name: `${e.handle}: ${sanitizeForPrompt(e.title ?? e.lesson, 80)}`,
          description: `${e.tier} ${e.lifecycle.status} ${e.category} lesson`,
          mimeType: "application/json",
        })),
      };
    },
  });

  server.registerResource(
    "entry",
    entries,
    { title: "Cairn entry", description: "One lesson with its lifecycle, provenance and usage, as JSON.", mimeType: "application/json" },
    (uri, vars, extra) =>
      guarded(async () => {
        const id = Array.isArray(vars.id) ? vars.id[0] : vars.id;
        const { cairn } = await session.resolve(extra);
        // The engine validates the id (no paths, no SQL); this face only decodes the URI segment.
        const entry = await cairn.shownEntry(await cairn.get(uriSegment(id ?? "")));
        const links = await cairn.links(entry);
        return { contents: [{ uri: uri.href, mimeType: "application/json", text: cleanJson(Object.keys(links).length ? { ...entry, links } : entry) }] };
      }),
  );

  server.registerResource(
    "stats",
    "cairn://stats",
    { title: "Cairn stats", description: "Counts by tier and status, usage totals, and which project this session is on.", mimeType: "application/json" },
    (uri, extra) =>
      guarded(async () => {
        const { cairn, source } = await session.resolve(extra);
        const stats = await cairn.stats();
        return { contents: [{ uri: uri.href, mimeType: "application/json", text: cleanJson({ ...stats, project_source: source }) }] };
      }),
  );
}
