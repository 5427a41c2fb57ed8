// knowledge_remove: delete an entry from whichever tier holds it; promoted or approved entries need force.
import { z } from "zod";
import { defineTool, entryIdArg, shortLesson } from "./shared.js";

export const knowledgeRemove = defineTool({
  name: "knowledge_remove",
  description:
    "Permanently delete a lesson that is wrong or harmful, from this project or the hive (the id says which). " +
    "Prefer knowledge_archive for lessons that are merely outdated, and knowledge_quarantine for suspicious ones: both can be undone, this cannot. " +
    "Promoted or human-approved entries are refused unless force is true.",
  args: {
    id: entryIdArg("The entry to delete."),
    force: z.boolean().default(false).describe("Also delete a promoted or human-approved entry (default false)."),
    reason: z.string().max(500).optional().describe("Why it is removed, kept in the audit log."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async run(a, ctx) {
    const e = await ctx.cairn.remove(a.id, { force: a.force, reason: a.reason, actor: ctx.actor });
    return {
      text: `removed ${e.handle} from the ${e.tier} tier: "${shortLesson(e)}"`,
      data: { action: "removed", id: e.id, handle: e.handle, tier: e.tier, changed: true },
    };
  },
});
