// knowledge_recall: the lessons most relevant to a query, best first, from this project and the hive.
import { z } from "zod";
import { counted } from "../../core/counted.js";
import { assertQuery, QUERY_MAX_CHARS, queryTooLongMessage } from "../../core/query-limit.js";
import { sanitizeForPrompt } from "../../quality/sanitize.js";
import { defineTool, entryLine, summarize, TIER_FILTER } from "./shared.js";

export const knowledgeRecall = defineTool({
  name: "knowledge_recall",
  description:
    "Search the recorded lessons for ones relevant to what you are about to do, best match first. " +
    "Use before starting a task or touching unfamiliar code: describe the task, files or error in the query. " +
    "Returns up to top_n live lessons (never archived, superseded or quarantined ones) from this project and the cross-project hive, " +
    "each with its handle (S-12, H-3), id, tier, status, lesson text and score; with files, also the lessons recorded for those files.",
  args: {
    query: z
      .string()
      .min(1)
      // The engine's own limit, so the schema a client reads says what the CLI accepts too.
      .max(QUERY_MAX_CHARS, { error: (issue) => queryTooLongMessage(typeof issue.input === "string" ? issue.input.length : QUERY_MAX_CHARS + 1) })
      // A pattern, not a refinement: clients see it in the tool's JSON schema.
      .regex(/\S/, "The query is blank: describe the task, files or error you are working on.")
      .describe(`What you are working on, in words and identifiers, e.g. "refresh token rotation in src/auth/session.ts"; at most ${QUERY_MAX_CHARS.toLocaleString("en-US")} characters.`),
    top_n: z.number().int().min(1).max(20).default(5).describe("How many lessons to return, 1 to 20 (default 5)."),
    tier: z.enum(TIER_FILTER).default("all").describe("all (default), swarm = this project only, hive = cross-project lessons only."),
    files: z
      .array(z.string().min(1).max(500))
      .max(100)
      .optional()
      .describe("Files you will touch, relative to the project: boosts lessons about them and lists vetted lessons whose file patterns match."),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  async run(a, ctx) {
    const files = a.files?.length ? a.files : undefined;
    // The engine checks a query it is given, not the task of a context: with files the query is checked here.
    if (files) assertQuery(a.query);
    const hits = await ctx.cairn.recall(files ? { task: a.query, files } : a.query, { limit: a.top_n, tier: a.tier });
    // Lessons scoped to these files by their globs, even when the query's words missed them.
    const seen = new Set(hits.map((h) => h.entry.id));
    const related = files
      ? (await ctx.cairn.related({ files, limit: a.top_n })).filter((r) => !seen.has(r.entry.id) && (a.tier === "all" || r.entry.tier === a.tier))
      : [];
    const query = sanitizeForPrompt(a.query, 80);
    const lines = hits.length
      ? [`${counted(hits.length, "lesson")} for "${query}":`, ...hits.map((h) => entryLine(h.entry, `, score ${h.score.toFixed(2)}`))]
      : [`No recorded lessons match "${query}".`];
    if (related.length) lines.push(`Also recorded for these files:`, ...related.map((r) => entryLine(r.entry, ", file match")));
    return {
      text: lines.join("\n"),
      data: {
        query: a.query,
        count: hits.length,
        results: hits.map((h) => ({ rank: h.rank, ...summarize(h.entry), score: Number(h.score.toFixed(4)) })),
        ...(files ? { related: related.map((r) => ({ ...summarize(r.entry), reasons: r.reasons.map((x) => sanitizeForPrompt(x, 200)) })) } : {}),
      },
    };
  },
});
