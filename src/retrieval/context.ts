// The live context of an agent turn, and the weighted query built from it (task and files over chatter).
import { queryTerms, splitIdentifiers } from "../core/text.js";
import { compoundForms, compoundSpellings, numberForms, phrasalForms, versionForms } from "./query-variants.js";
import { withoutPasteNoise } from "./paste-noise.js";
import { CONTEXT_FIELD_WEIGHTS, PATH_NOISE } from "./weights.js";

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
  /** The model's context window as its host reports it; `model_limits` overrides it for the ids it names. */
  contextWindow?: number;
  /** Model id, to look up its context window in `model_limits`. */
  model?: string;
}

export interface WeightedTerm {
  term: string;
  /** How much finding this term in a lesson says it is about the work (CONTEXT_FIELD_WEIGHTS). */
  weight: number;
}

// "Phase 3:" numbers a phase; it says nothing about the work, and "phase" is in many lessons.
const PHASE_PREFIX_RE = /^\s*phase\s*[\d.]+\s*[:.)-]?\s*/i;

/** The phase title without its "Phase N:" numbering. */
export function phaseTitle(phase: string | undefined): string {
  return (phase ?? "").replace(PHASE_PREFIX_RE, "");
}

function fileTerms(files: readonly string[]): string[] {
  return splitIdentifiers(files.join(" ")).filter((t) => !PATH_NOISE.has(t));
}

/** How many other spellings (see query-variants.ts) a field may add past its own terms. */
const MAX_VARIANTS = 4;

/** A free-text field's terms, then the other spellings of its versions, hyphenated words, phrasal verbs, compounds and irregular plurals that are not among them. */
function textTerms(text: string, max: number): string[] {
  const terms = queryTerms(text, max);
  const have = new Set(terms);
  const variants = new Set([...versionForms(text), ...compoundForms(text), ...phrasalForms(text), ...compoundSpellings(text), ...numberForms(text)]);
  return [...terms, ...[...variants].filter((t) => !have.has(t)).slice(0, MAX_VARIANTS)];
}

/**
 * Distinct query terms, each with the weight of the most important field it came from:
 * the task first, then the files in play, the phase, the last message, the stack.
 */
export function weightedContextTerms(ctx: RetrievalContext): WeightedTerm[] {
  const W = CONTEXT_FIELD_WEIGHTS;
  const fields: Array<[string[], number]> = [
    // A pasted error's frames, a diff's headers or a log line's ids would fill the field's terms before its message.
    [textTerms(withoutPasteNoise(ctx.task ?? ""), W.task.max), W.task.value],
    [queryTerms(fileTerms(ctx.files ?? []).join(" "), W.files.max), W.files.value],
    [textTerms(phaseTitle(ctx.phase), W.phase.max), W.phase.value],
    [textTerms(withoutPasteNoise(ctx.lastMessage ?? ""), W.message.max), W.message.value],
    [queryTerms((ctx.techStack ?? []).join(" "), W.stack.max), W.stack.value],
  ];
  const out = new Map<string, number>();
  for (const [terms, weight] of fields) for (const t of terms) out.set(t, Math.max(out.get(t) ?? 0, weight));
  return [...out].map(([term, weight]) => ({ term, weight }));
}

/** Query terms for the full-text index, most important first. */
export function buildContextQuery(ctx: RetrievalContext, maxTerms = 24): string[] {
  return weightedContextTerms(ctx)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, maxTerms)
    .map((t) => t.term);
}

/** All the text of the context in one lower-cased string, for trigger and intent matching. */
export function contextText(ctx: RetrievalContext): string {
  return [ctx.phase, ctx.task, ctx.lastMessage, ...(ctx.files ?? []), ctx.agent, ctx.tool, ...(ctx.techStack ?? [])]
    .filter(Boolean)
    .join("\n")
    .toLowerCase();
}
