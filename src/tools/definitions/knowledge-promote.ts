// knowledge_promote: lift a project lesson (or a new one) into the cross-project hive through the hive gate.
import { z } from "zod";
import { CATEGORY_NAMES, LEGACY_CATEGORY_NOTE, unknownCategoryMessage } from "../../core/categories.js";
import { CATEGORIES } from "../../core/entry.js";
import { CairnError } from "../../errors.js";
import { defineTool, writeOutcome } from "./shared.js";

export const knowledgePromote = defineTool({
  name: "knowledge_promote",
  description:
    "Share a lesson with every project of this user by promoting it to the hive. Pass id to promote an existing project lesson, " +
    "or lesson to add a new cross-project lesson directly. Only for lessons true beyond this codebase; the hive gate is stricter " +
    '(placeholder or test text is refused) and a refusal comes back as "rejected: <reason>". ' +
    "Returns the hive lesson's handle (H-3), id and status, or those of the hive lesson it reinforced.",
  args: {
    id: z.string().min(1).max(200).optional().describe("A project (swarm) entry to promote: its UUID or handle such as S-12."),
    lesson: z.string().min(1).optional().describe("Or: the text of a new cross-project lesson (instead of id)."),
    category: z.enum(CATEGORY_NAMES, { error: (issue) => unknownCategoryMessage(issue.input) }).optional().describe(`Category of the new lesson (only with lesson): ${CATEGORIES.join(", ")}. ${LEGACY_CATEGORY_NOTE}.`),
    tags: z.array(z.string().min(1)).max(30).optional().describe("Tags of the new lesson (only with lesson)."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(a, ctx) {
    if ((a.id === undefined) === (a.lesson === undefined)) {
      throw new CairnError("INVALID_INPUT", "Pass exactly one of id (an existing swarm entry such as S-12) or lesson (the text of a new hive lesson).");
    }
    const r =
      a.id !== undefined
        ? await ctx.cairn.promote({ id: a.id }, ctx.actor)
        : await ctx.cairn.promote({ lesson: { lesson: a.lesson ?? "", category: a.category, tags: a.tags, auto_generated: false } }, ctx.actor);
    const out = writeOutcome(r, { route: r.route, ...(r.from ? { from: r.from } : {}) });
    if (r.action === "rejected") return out;
    return { text: `promoted to the hive: ${out.text}`, data: out.data };
  },
});
