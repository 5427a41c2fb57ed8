// Every ranking weight in one table, each with the reason it exists (shown by `recall --explain`).
import type { Status } from "../core/entry.js";

export interface Weight {
  value: number;
  reason: string;
}

export const SCORE_WEIGHTS = {
  relevance: { value: 0.5, reason: "Text match with what the agent is doing now is the strongest signal." },
  kind: { value: 0.12, reason: "Corrections, decisions and commitments change behaviour; notes rarely do (Memory Lane weights)." },
  confidence: { value: 0.1, reason: "Confidence rises with independent confirmations." },
  status: { value: 0.08, reason: "Established and promoted lessons have survived review; candidates have not." },
  feedback: { value: 0.08, reason: "Helpful/harmful feedback, decayed by its half-life so old verdicts fade." },
  files: { value: 0.12, reason: "A lesson scoped to the files in play is about this exact work." },
  stack: { value: 0.06, reason: "Matching tech stack makes a generic lesson applicable." },
  triggers: { value: 0.1, reason: "A trigger phrase present in the context was declared by the lesson's author." },
  phase: { value: 0.04, reason: "A category that fits the phase (testing in a test phase) is more likely useful." },
  tier: { value: 0.03, reason: "Project lessons are more specific than cross-project ones, all else equal." },
} as const satisfies Record<string, Weight>;

export type ScoreComponent = keyof typeof SCORE_WEIGHTS;

export const STATUS_PRIOR: Readonly<Partial<Record<Status, number>>> = {
  promoted: 1,
  established: 0.9,
  candidate: 0.5,
  draft: 0.2,
};

/** Intent words in the query boost kinds (Memory Lane +15%). */
export const INTENT_BOOSTS: ReadonlyArray<{ pattern: RegExp; kinds: readonly string[]; factor: number }> = [
  { pattern: /\b(mistake|wrong|bug|broke|broken|fail(ed|ing|ure)?|error|regression|fix)\b/i, kinds: ["correction", "gap"], factor: 1.15 },
  { pattern: /\b(decid(e|ed|ing)|decision|chose|choose|chosen|picked)\b/i, kinds: ["decision"], factor: 1.15 },
  { pattern: /\b(pattern|convention|always|never|prefer)\b/i, kinds: ["pattern", "commitment"], factor: 1.15 },
  { pattern: /\b(learn(ed|t)?|discover(ed)?|insight|noticed)\b/i, kinds: ["learning", "insight"], factor: 1.15 },
];

/** Which categories fit a phase, by words in the phase or task title. */
export const PHASE_CATEGORY_HINTS: ReadonlyArray<{ pattern: RegExp; categories: readonly string[] }> = [
  { pattern: /\b(test|tests|testing|qa|verify|verification|coverage)\b/i, categories: ["testing"] },
  { pattern: /\b(debug|fix|bug|incident|triage)\b/i, categories: ["debugging"] },
  { pattern: /\b(perf|performance|optimi[sz]e|latency|speed|benchmark)\b/i, categories: ["performance"] },
  { pattern: /\b(security|auth|secrets?|harden|audit)\b/i, categories: ["security"] },
  { pattern: /\b(design|architecture|architect|plan|refactor)\b/i, categories: ["architecture", "process"] },
  { pattern: /\b(integrat(e|ion)|api|deploy|release|ci|pipeline)\b/i, categories: ["integration", "tooling"] },
  { pattern: /\b(setup|set up|tooling|build|config|scaffold)\b/i, categories: ["tooling"] },
];

/** Near-duplicate penalty in MMR: 0.7 keeps relevance first but never lets twins fill the slots. */
export const MMR_LAMBDA = 0.7;
