// knowledge_feedback: report how a lesson worked out, which feeds its ranking (with decay) from then on.
import { z } from "zod";
import { REASON_MAX } from "../../core/free-text.js";
import { VERDICTS } from "../../lifecycle/feedback.js";
import { defineTool, entryIdArg, summarize } from "./shared.js";

export const knowledgeFeedback = defineTool({
  name: "knowledge_feedback",
  description:
    "Tell Cairn how a lesson you were shown worked out, so useful lessons rank higher and bad ones sink: " +
    "applied (you followed it), ignored (not relevant here), violated (it applied but was not followed), " +
    "helpful (it prevented a mistake), harmful (it was wrong or misleading — consider knowledge_quarantine too). " +
    "Returns the lesson's handle and id and its usage counts after your verdict.",
  args: {
    id: entryIdArg("The entry the feedback is about, e.g. the [S-12] shown next to a lesson."),
    verdict: z.enum(VERDICTS).describe("applied, ignored, violated, helpful or harmful."),
    note: z.string().max(REASON_MAX).optional().describe("One sentence of context, kept in the audit log."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(a, ctx) {
    const e = await ctx.cairn.feedback(a.id, a.verdict, a.note, ctx.actor);
    const u = e.usage;
    return {
      text: `recorded "${a.verdict}" for ${e.handle} (applied ${u.applied}, ignored ${u.ignored}, violated ${u.violated}, helpful ${u.helpful}, harmful ${u.harmful})`,
      data: { action: "feedback", verdict: a.verdict, entry: summarize(e), usage: { ...u }, changed: false },
    };
  },
});
