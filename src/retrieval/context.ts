// The live context of an agent turn, and the weighted query built from it (task and files over chatter).
import { queryTerms, splitIdentifiers } from "../core/text.js";

export interface RetrievalContext {
  /** Current phase title, e.g. "Phase 2: Auth middleware". */
  phase?: string;
  /** Current task title and description. */
  task?: string;
  /** The last user message (chatter weighs least). */
  lastMessage?: string;
  /** Files being read or edited, relative to the project. */
  files?: string[];
  agent?: string;
  tool?: string;
  /** Declared tech stack, e.g. ["typescript", "postgres"]. */
  techStack?: string[];
  /** Tokens used by the conversation so far, for the budget regime. */
  tokensUsed?: number;
  /** Model id, to look up its context window in `model_limits`. */
  model?: string;
}

/** Query terms with repetition as weight: task and file terms are repeated so BM25 favours them. */
export function buildContextQuery(ctx: RetrievalContext, maxTerms = 40): string[] {
  const fileWords = (ctx.files ?? []).flatMap((f) => splitIdentifiers(f)).join(" ");
  const ordered = [
    ...queryTerms(ctx.task ?? "", 20),
    ...queryTerms(fileWords, 12),
    ...queryTerms(ctx.phase ?? "", 8),
    ...queryTerms((ctx.techStack ?? []).join(" "), 6),
    ...queryTerms(ctx.lastMessage ?? "", 12),
  ];
  return [...new Set(ordered)].slice(0, maxTerms);
}

/** All the text of the context in one lower-cased string, for trigger and intent matching. */
export function contextText(ctx: RetrievalContext): string {
  return [ctx.phase, ctx.task, ctx.lastMessage, ...(ctx.files ?? []), ctx.agent, ctx.tool, ...(ctx.techStack ?? [])]
    .filter(Boolean)
    .join("\n")
    .toLowerCase();
}
