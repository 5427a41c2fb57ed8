// knowledge_query: list entries by status, category, kind and tier (newest first), for review rather than relevance.
import { z } from "zod";
import { counted } from "../../core/counted.js";
import { CATEGORIES, KINDS, type StatusFilter } from "../../core/entry.js";
import type { ListedLesson } from "../../governance/list-tiers.js";
import { defineTool, entryLine, summarize, TIER_FILTER } from "./shared.js";

/** Everything an agent may still act on; retired entries only when asked for by status. Drafts (waiting for a person) and quarantined entries (suspect) are never listed to an agent: the engine leaves them out. */
const DEFAULT_STATUSES: readonly StatusFilter[] = ["candidate", "established", "promoted"];
/** With "approved" (the Markdown mirror's approved/ folder: established and promoted), which the engine expands (STATUS_ALIASES). */
const AGENT_STATUSES = ["candidate", "established", "promoted", "archived", "superseded", "quarantined", "approved"] as const satisfies readonly StatusFilter[];

export const knowledgeQuery = defineTool({
  name: "knowledge_query",
  description:
    "List recorded lessons by filter (newest first) — for reviewing what is known, finding an id to give feedback on, " +
    "or checking what was archived. For lessons relevant to a task use knowledge_recall instead. " +
    "By default lists candidates, established and promoted entries; pass status to see archived or superseded ones. " +
    "Drafts and quarantined entries are listed to people only (a human:* actor). " +
    "Returns each entry's handle (S-12, H-3), id, tier, status, category, kind and lesson text.",
  args: {
    status: z
      .array(z.enum(AGENT_STATUSES))
      .min(1)
      .optional()
      .describe("Statuses to include (default candidate, established, promoted); approved is established and promoted."),
    category: z.enum(CATEGORIES).optional().describe("Only this category."),
    kind: z.enum(KINDS).optional().describe("Only this kind."),
    tier: z.enum(TIER_FILTER).default("all").describe("all (default), swarm = this project, hive = cross-project."),
    limit: z.number().int().min(1).max(200).default(20).describe("At most this many entries, 1 to 200 (default 20)."),
    offset: z.number().int().min(0).max(100000).default(0).describe("Skip this many entries first, to page through a long list."),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  async run(a, ctx) {
    const statuses = a.status ?? DEFAULT_STATUSES;
    // A promoted lesson once: its hive copy, naming the project original, as `/swarm knowledge` lists it.
    const listed = await ctx.cairn.listLessons({
      tier: a.tier,
      statuses,
      ...(a.category ? { categories: [a.category] } : {}),
      ...(a.kind ? { kinds: [a.kind] } : {}),
      limit: a.limit,
      offset: a.offset,
      order: "newest",
    });
    const line = (l: ListedLesson) => entryLine(l.entry, l.promoted_from ? `, promoted from this project's ${l.promoted_from.handle}` : "");
    const summary = (l: ListedLesson) => (l.promoted_from ? { ...summarize(l.entry), promoted_from: l.promoted_from } : summarize(l.entry));
    const text = listed.length
      ? [`${counted(listed.length, "entry", "entries")} (${statuses.join(", ")}):`, ...listed.map(line)].join("\n")
      : `No entries with status ${statuses.join(", ")}${a.category ? ` in ${a.category}` : ""}${a.kind ? ` of kind ${a.kind}` : ""}.`;
    return { text, data: { count: listed.length, statuses, entries: listed.map(summary) } };
  },
});
