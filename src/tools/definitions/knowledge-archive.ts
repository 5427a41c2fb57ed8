// knowledge_archive: retire an outdated entry (kept for history, never recalled; a person can restore it).
import { z } from "zod";
import { REASON_MAX } from "../../core/free-text.js";
import { defineTool, entryIdArg, shortLesson, summarize } from "./shared.js";

export const knowledgeArchive = defineTool({
  name: "knowledge_archive",
  description:
    "Retire a lesson that no longer applies (the code changed, the decision was reversed). " +
    "It stays in the history but is no longer recalled or injected; a person can restore it with `cairn restore`. " +
    "A lesson a person approved, or a hive lesson another project contributed, is refused: only a person retires it (use knowledge_quarantine to ask for a review). " +
    "Returns the lesson's handle, id and new status (archived).",
  args: {
    id: entryIdArg("The entry to archive."),
    reason: z.string().max(REASON_MAX).optional().describe("Why it no longer applies."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async run(a, ctx) {
    const e = await ctx.cairn.archive(a.id, a.reason, ctx.actor);
    return {
      text: `archived ${e.handle}: "${shortLesson(e)}"`,
      data: { action: "archived", entry: summarize(e), changed: true },
    };
  },
});
