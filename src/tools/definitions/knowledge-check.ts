// knowledge_check: before editing files or running a command, which recorded lessons (file globs, detection patterns) apply.
import { z } from "zod";
import { CairnError } from "../../errors.js";
import { renderAdvisories } from "../../governance/advisories.js";
import { hasVisibleText, INVISIBLE_REMOVED, sanitizeForPrompt } from "../../quality/sanitize.js";
import { defineTool } from "./shared.js";

export const knowledgeCheck = defineTool({
  name: "knowledge_check",
  description:
    "Check an action against the team's vetted lessons before you take it: pass the files you are about to edit and/or the new " +
    "content or shell command. Lessons whose file patterns or detection patterns match come back with their prevention rule " +
    "(\"advisories\"); follow the rule unless it clearly does not apply. An advisory marked [enforced] must be followed. " +
    "Each match is counted as a consultation of that lesson. " +
    "Returns the advisories (each lesson's handle, rule, what matched and whether it is enforced) and whether any blocks, or says none applies.",
  args: {
    files: z.array(z.string().min(1).max(500)).max(100).optional().describe("Paths you are about to create or edit, relative to the project root."),
    text: z.string().max(200_000).optional().describe("The new content, patch or shell command (only the first 64 KB are checked)."),
    tool: z.string().max(60).optional().describe('The tool you are about to use, e.g. "edit", "write", "bash".'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(a, ctx) {
    // Text of only hidden characters is no text: it would be answered "no lesson applies" for nothing checked.
    if (!a.files?.length && a.text && !hasVisibleText(a.text)) {
      throw new CairnError("INVALID_INPUT", `The text is empty ${INVISIBLE_REMOVED}: pass the content or command you are about to write, or the files.`);
    }
    if (!a.files?.length && !a.text) throw new CairnError("INVALID_INPUT", "Pass files, text, or both: what you are about to touch or write.");
    const advisories = await ctx.cairn.checkAdvisories({
      ...(a.files ? { files: a.files } : {}),
      ...(a.text ? { text: a.text } : {}),
      ...(a.tool ? { tool: a.tool } : {}),
      actor: ctx.actor,
      ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}),
    });
    const text = advisories.length ? renderAdvisories(advisories) : "No recorded lesson applies to these files or this text.";
    return {
      text,
      data: {
        count: advisories.length,
        blocking: advisories.some((x) => x.enforcement === "enforce"),
        advisories: advisories.map((x) => ({
          ...x,
          rule: sanitizeForPrompt(x.rule, 500),
          on: sanitizeForPrompt(x.on, 200),
          ...(x.title ? { title: sanitizeForPrompt(x.title, 120) } : {}),
          ...(x.why ? { why: sanitizeForPrompt(x.why, 500) } : {}),
        })),
        changed: false,
      },
    };
  },
});
