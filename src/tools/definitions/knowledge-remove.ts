// knowledge_remove: delete an entry from whichever tier holds it; what a person approved or the hive relies on is not an agent's to delete.
import { z } from "zod";
import { REASON_MAX } from "../../core/free-text.js";
import { defineTool, entryIdArg, shortLesson } from "./shared.js";

export const knowledgeRemove = defineTool({
  name: "knowledge_remove",
  description:
    "Permanently delete a lesson that is wrong or harmful, from this project or the hive (the id says which). " +
    "Prefer knowledge_archive for lessons that are merely outdated, and knowledge_quarantine for suspicious ones: both can be undone, this cannot. " +
    "Lessons a person approved, lessons promoted to the hive, and hive lessons another project contributed are refused: only a person removes them. " +
    "Use knowledge_quarantine to ask a person to review one, or knowledge_add a corrected lesson with `supersedes`. " +
    "Returns the removed lesson's handle, id and tier.",
  // No `force`: only a person may force a removal, and a person uses `cairn remove --force`.
  args: {
    id: entryIdArg("The entry to delete."),
    reason: z.string().max(REASON_MAX).optional().describe("Why it is removed, kept in the audit log."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async run(a, ctx) {
    const e = await ctx.cairn.remove(a.id, { reason: a.reason, actor: ctx.actor });
    // A hive lesson takes along this project's original it was promoted from (archived, a person may restore it).
    const along = (e.also ?? []).map((o) => `; this project's original ${o.handle} it was promoted from is now ${o.status}`).join("");
    return {
      text: `removed ${e.handle} from the ${e.tier} tier: "${shortLesson(e)}"${along}`,
      data: { action: "removed", id: e.id, handle: e.handle, tier: e.tier, changed: true, ...(e.also?.length ? { also: e.also } : {}) },
    };
  },
});
