// knowledge_recall: the lessons most relevant to a query, best first, from this project and the hive.
import { z } from "zod";
import { sanitizeForPrompt } from "../../quality/sanitize.js";
import { defineTool, entryLine, summarize, TIER_FILTER } from "./shared.js";

export const knowledgeRecall = defineTool({
  name: "knowledge_recall",
  description:
    "Search the recorded lessons for ones relevant to what you are about to do, best match first. " +
    "Use before starting a task or touching unfamiliar code: describe the task, files or error in the query. " +
    "Returns only live lessons (never archived, superseded or quarantined ones) from this project and the cross-project hive.",
  args: {
    query: z
      .string()
      .min(1)
      .max(2000)
      .describe('What you are working on, in words and identifiers, e.g. "refresh token rotation in src/auth/session.ts".'),
    top_n: z.number().int().min(1).max(20).default(5).describe("How many lessons to return, 1 to 20 (default 5)."),
    tier: z.enum(TIER_FILTER).default("all").describe("all (default), swarm = this project only, hive = cross-project lessons only."),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  async run(a, ctx) {
    const hits = await ctx.cairn.recall(a.query, { limit: a.top_n, tier: a.tier });
    const query = sanitizeForPrompt(a.query, 80);
    const text = hits.length
      ? [`${hits.length} lesson${hits.length === 1 ? "" : "s"} for "${query}":`, ...hits.map((h) => entryLine(h.entry, `, score ${h.score.toFixed(2)}`))].join("\n")
      : `No recorded lessons match "${query}".`;
    return {
      text,
      data: { query: a.query, count: hits.length, results: hits.map((h) => ({ ...summarize(h.entry), score: Number(h.score.toFixed(4)) })) },
    };
  },
});
