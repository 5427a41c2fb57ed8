// Every ranking weight in one table, each with the reason it exists (shown by `recall --explain`).
import type { Status } from "../core/entry.js";

export interface Weight {
  value: number;
  reason: string;
}

/**
 * Text match decides what a lesson is about; priors only order lessons of similar relevance
 * (they carry no topic, so a strong prior must never lift an off-topic lesson over an on-topic
 * one); context boosts are scaled down by how many candidates share them (see SPECIFICITY).
 */
export const SCORE_WEIGHTS = {
  relevance: { value: 0.5, reason: "Full-text (BM25) match with what the agent is doing now is the strongest signal." },
  focus: { value: 0.3, reason: "Share of the context's terms the lesson holds, weighted by field: BM25 alone weighs a word of chatter like a word of the task." },
  semantic: {
    value: 0.35,
    reason: "Closeness in meaning (cosine of the lesson's and the context's vectors, above the floor where unrelated texts sit): finds a lesson told in other words, which no word match can.",
  },
  kind: { value: 0.06, reason: "Corrections, decisions and commitments change behaviour; notes rarely do (Memory Lane weights)." },
  confidence: { value: 0.05, reason: "Confidence rises with independent confirmations." },
  status: { value: 0.04, reason: "Established and promoted lessons have survived review; candidates have not." },
  feedback: {
    value: 1,
    reason: "Multiplier 0.5 + weight (×0.6 at the 0.1 floor, ×1 without feedback, toward ×1.5 as helpful verdicts add up); verdicts fade by their half-life, and with them the weight returns toward neutral.",
  },
  files: { value: 0.12, reason: "A lesson scoped to the files in play is about this exact work." },
  stack: { value: 0.06, reason: "Matching tech stack makes a generic lesson applicable; a lesson declared for other stacks loses as much." },
  triggers: { value: 0.1, reason: "A trigger phrase present in the context was declared by the lesson's author." },
  phase: { value: 0.04, reason: "A category that fits the phase (testing in a test phase) is more likely useful." },
  tier: { value: 0.03, reason: "Project lessons are more specific than cross-project ones, all else equal." },
  encounter: {
    value: 0.04,
    reason: "Hive lessons met again and again (each sighting weighted by knowledge.same_project_weight in their source project, knowledge.cross_project_weight elsewhere) have proven themselves; saturates, half at an encounter score of 2.",
  },
} as const satisfies Record<string, Weight>;

/** The encounter score at which the encounter component gives half its weight. */
export const ENCOUNTER_HALF = 2;

export type ScoreComponent = keyof typeof SCORE_WEIGHTS;

export const STATUS_PRIOR: Readonly<Partial<Record<Status, number>>> = {
  promoted: 1,
  established: 0.9,
  candidate: 0.5,
  draft: 0.2,
};

/**
 * A context signal shared by n candidates is worth `1 / (1 + ln n)` of its weight: a folder
 * glob that matches forty lessons says little about which one fits, a trigger found once says
 * a lot.
 */
export function specificity(sharedBy: number): number {
  return 1 / (1 + Math.log(Math.max(1, sharedBy)));
}

/** Where query terms come from, how much each field counts in `focus`, and how many terms it may give. */
export const CONTEXT_FIELD_WEIGHTS = {
  task: { value: 1, max: 20, reason: "The task says what is being done." },
  files: { value: 0.8, max: 12, reason: "File and folder names name the subsystem in play." },
  phase: { value: 0.5, max: 8, reason: "The phase title frames the work but is shared by many tasks." },
  message: { value: 0.5, max: 12, reason: "The last message is mostly chatter, but pasted errors live there." },
  stack: { value: 0.2, max: 6, reason: "Stack names match half the store; the stack boost handles them." },
} as const;

/** Path parts that say where code lives, not what it does; they would match every glob in the store. */
export const PATH_NOISE: ReadonlySet<string> = new Set(
  ("src lib app apps packages pkg internal cmd test tests spec specs dist build index main mod " +
    "ts tsx js jsx mjs cjs mts py rs go rb java kt json yaml yml toml md sql sh txt lock cfg ini").split(" "),
);

/** Candidates (best by BM25 first) whose text is checked for each context term in `focus`. */
export const FOCUS_POOL = 60;

/**
 * Intent words in the query boost kinds (Memory Lane +15%). Each keyword in the forms people write
 * it — "the mistakes we made", "fixing the bugs", "which decisions", "our conventions" — not only
 * the document's singular: a plural or -ing form used to lift nothing.
 */
export const INTENT_BOOSTS: ReadonlyArray<{ pattern: RegExp; kinds: readonly string[]; factor: number }> = [
  {
    pattern: /\b(mistakes?|wrong|bugs?|buggy|broke|broken|fail(s|ed|ing|ures?)?|errors?|regress(ed|ions?)?|fix(es|ed|ing)?)\b/i,
    kinds: ["correction", "gap"],
    factor: 1.15,
  },
  { pattern: /\b(decid(e|es|ed|ing)|decisions?|chose|choos(e|es|ing)|chosen|picked)\b/i, kinds: ["decision"], factor: 1.15 },
  { pattern: /\b(patterns?|conventions?|always|never|prefer(s|red|ring)?)\b/i, kinds: ["pattern", "commitment"], factor: 1.15 },
  { pattern: /\b(learn(s|ed|t)?|discover(s|ed|y|ies)?|insights?|noticed)\b/i, kinds: ["learning", "insight"], factor: 1.15 },
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

/**
 * Cosine at or below which a lesson and a context are unrelated for the built-in model (its
 * unrelated pairs sit around 0, paraphrases around 0.3–0.5), and the cosine at which the
 * semantic component is whole: measured on the retrieval eval's paraphrase cases. Every similarity
 * here is on the built-in model's scale: another model's cosines are mapped onto it first
 * (embed/calibration.ts), since many put unrelated texts far above 0.
 */
export const SEMANTIC_FLOOR = 0.05;
export const SEMANTIC_FULL = 0.5;

export function semanticStrength(similarity: number): number {
  return Math.max(0, Math.min(1, (similarity - SEMANTIC_FLOOR) / (SEMANTIC_FULL - SEMANTIC_FLOOR)));
}

/**
 * Cosine at or above which injection counts a lesson as about the work even without a shared
 * word: well above where the built-in model puts unrelated texts (around 0), at the low end of
 * its paraphrases — an empty block still beats an unrelated lesson.
 */
export const RELATED_SIMILARITY = 0.3;

/** Near-duplicate penalty in MMR: 0.7 keeps relevance first while similar lessons give way to different ones. */
export const MMR_LAMBDA = 0.7;

/** Similarity at which MMR treats two lessons as restatements of one (the default dedup threshold). */
export const NEAR_DUPLICATE_SIMILARITY = 0.6;

/** Score multiplier from the decayed feedback weight (0.1..1, 0.5 when there is none). */
export function feedbackFactor(weight: number): number {
  return 0.5 + weight;
}
