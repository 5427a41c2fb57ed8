// Category names: ours, opencode-swarm's older ones mapped onto ours, and the light guess from a lesson's words.
// The one mapping: an import of its files and an add naming one of its categories store a lesson alike.
import type { NewEntryInput } from "./entry.js";
import { CATEGORIES, type Category, type Kind } from "./enums.js";
import { quoteInput } from "../quality/sanitize.js";

/** opencode-swarm's categories that are not ours → our category (guessed from the words when absent) and kind. */
const LEGACY_CATEGORIES = {
  pattern: { kind: "pattern" },
  patterns: { kind: "pattern" },
  decision: { kind: "decision" },
  decisions: { kind: "decision" },
  lesson: { kind: "learning" },
  lessons: { kind: "learning" },
  learning: { kind: "learning" },
  insight: { kind: "insight" },
  domain: { category: "other", kind: "insight" },
  gotcha: { category: "debugging", kind: "learning" },
  bug: { category: "debugging", kind: "learning" },
  convention: { category: "process", kind: "decision" },
  workflow: { category: "process", kind: "workflow_note" },
  correction: { kind: "correction" },
  test: { category: "testing", kind: "learning" },
  tool: { category: "tooling", kind: "learning" },
  tools: { category: "tooling", kind: "learning" },
  perf: { category: "performance", kind: "learning" },
  design: { category: "architecture", kind: "decision" },
  api: { category: "integration", kind: "learning" },
} as const satisfies Readonly<Record<string, { category?: Category; kind: Kind }>>;

export type LegacyCategory = keyof typeof LEGACY_CATEGORIES;
export const LEGACY_CATEGORY_NAMES = Object.keys(LEGACY_CATEGORIES) as LegacyCategory[];
/** A category as a writer may name it: ours, or opencode-swarm's (stored as one of ours). */
export type CategoryName = Category | LegacyCategory;
export const CATEGORY_NAMES = [...CATEGORIES, ...LEGACY_CATEGORY_NAMES] as [CategoryName, ...CategoryName[]];

/** What to name instead of an unknown category: ours, or opencode-swarm's (the flag and a lesson file say the same). */
export const CATEGORY_CHOICES = `Use one of ${CATEGORIES.join(", ")}, or opencode-swarm's ${LEGACY_CATEGORY_NAMES.join(", ")}.`;

/** A category name that is neither ours nor opencode-swarm's, said with what is taken. */
export function unknownCategoryMessage(name: unknown): string {
  return `${quoteInput(name)} is not a category Cairn knows. ${CATEGORY_CHOICES}`;
}

/** For help texts and tool descriptions: the names opencode-swarm users type most, and what happens to them. */
export const LEGACY_CATEGORY_NOTE =
  "opencode-swarm's names (pattern, lesson, domain, decision, gotcha, convention, …) are also taken: " +
  "each is stored as one of these with the kind it implies, and the answer says which";

/** A new lesson whose category may be named the opencode-swarm way (`add`, `promote`, `supersede` take it). */
export type LessonInput = Omit<NewEntryInput, "category"> & { category?: CategoryName };

// Order breaks ties: a security note that mentions a test is still a security note.
const CATEGORY_WORDS: ReadonlyArray<[Category, RegExp]> = [
  ["security", /\b(security|secrets?|auth\w*|tokens?|credentials?|xss|csrf|injection|vulnerab\w*|sanitiz\w*|permissions?)\b/gi],
  ["testing", /\b(tests?|testing|vitest|jest|spec|mocks?|mocking|fixtures?|coverage|tdd|e2e|assertions?)\b/gi],
  ["debugging", /\b(debug\w*|bugs?|bugfix|crash\w*|stack ?trace|root cause|regressions?|gotchas?|workaround)\b/gi],
  ["performance", /\b(perf|performance|latency|slow|faster|optimi[sz]\w*|caching|benchmarks?|memory leaks?|throughput)\b/gi],
  ["architecture", /\b(architecture|design|refactor\w*|layers?|schema|data model|abstractions?)\b/gi],
  ["integration", /\b(api|apis|integrations?|webhooks?|endpoints?|sdk|mcp|http|oauth|third[- ]party)\b/gi],
  ["tooling", /\b(tool|tooling|cli|build|bundler|tsconfig|tsc|eslint|npm|pnpm|bun|git|ci|docker|lint\w*)\b/gi],
  ["process", /\b(workflow|process|review|conventions?|planning|handoff|coordination)\b/gi],
  ["todo", /\b(todo|follow-up|fixme)\b/gi],
];

/** Best-guess category: tags count double, text once; nothing recognised → other. */
export function inferCategory(text: string, tags: readonly string[] = []): Category {
  const tagText = tags.join(" ").replace(/[-_]/g, " ");
  let best: Category = "other";
  let bestScore = 0;
  for (const [category, re] of CATEGORY_WORDS) {
    const score = 2 * count(re, tagText) + count(re, text);
    if (score > bestScore) [best, bestScore] = [category, score];
  }
  return best;
}

function count(re: RegExp, text: string): number {
  return text.match(re)?.length ?? 0;
}

/** learning unless the wording plainly records a choice or a correction. */
export function inferKind(text: string): Kind {
  if (/\b(we decided|decided to|decision:|chose to|we chose|opted for|going with)\b/i.test(text)) return "decision";
  if (/\b(correction:|corrected|was wrong|mistake|do not|don't|never|must not|instead of)\b/i.test(text)) return "correction";
  return "learning";
}

export interface PlacedCategory {
  category: Category;
  /** The kind the name implies; absent for one of our own names, or a name nobody maps (the caller decides). */
  kind?: Kind;
  /** Where the name went: `legacy-category:<name>` (and `domain` for opencode-swarm's domain knowledge). */
  tags: string[];
  /** The name was guessed into a category from the lesson's words (opencode-swarm's name implies none). */
  guessed: boolean;
}

/**
 * Where a lesson named with `name` belongs: our own name as it is; opencode-swarm's through the table
 * above; any other (an import of someone's own labels) guessed from the words and kept as a tag.
 */
export function placeCategory(name: string | undefined, lesson: string, tags: readonly string[] = []): PlacedCategory {
  const n = name?.trim().toLowerCase() || undefined;
  if (n && (CATEGORIES as readonly string[]).includes(n)) return { category: n as Category, tags: [], guessed: false };
  const mapped: { category?: Category; kind: Kind } | undefined = n && Object.hasOwn(LEGACY_CATEGORIES, n) ? LEGACY_CATEGORIES[n as LegacyCategory] : undefined;
  return {
    category: mapped?.category ?? inferCategory(lesson, tags),
    ...(mapped ? { kind: mapped.kind } : {}),
    tags: n ? [`legacy-category:${n}`, ...(n === "domain" ? ["domain"] : [])] : [],
    guessed: !mapped?.category,
  };
}

const MAX_TAGS = 30;

/**
 * A new lesson named with one of opencode-swarm's categories, as the import would store it: our category,
 * the kind the name implies (unless the writer gave one), its tags; and the sentence that tells the writer.
 * Our own names, and names nobody maps (the input schema refuses those, listing ours), pass unchanged.
 */
export function ownCategory(input: LessonInput): { input: NewEntryInput; note?: string } {
  // Anything but a lesson object (null from a hostile caller) goes on to the gates, which refuse it.
  const name = input && typeof input === "object" ? input.category : undefined;
  if (name === undefined || (CATEGORIES as readonly string[]).includes(name) || !Object.hasOwn(LEGACY_CATEGORIES, name)) {
    return { input: input as NewEntryInput };
  }
  const placed = placeCategory(name, input.lesson, input.tags ?? []);
  const given = input.tags ?? [];
  const added = placed.tags.filter((t) => !given.includes(t));
  // The writer's own tags come first: the mapping's are dropped rather than pushing the lesson past the cap.
  const tags = given.length + added.length <= MAX_TAGS ? [...added, ...given] : given;
  const kind = input.kind ?? placed.kind;
  const how = placed.guessed ? " (from the lesson's words)" : "";
  const kindNote = input.kind ? "" : `, kind ${kind}`;
  return {
    input: { ...input, category: placed.category, ...(kind ? { kind } : {}), ...(tags.length ? { tags } : {}) },
    note: `category "${name}" is opencode-swarm's name: stored as category ${placed.category}${how}${kindNote}`,
  };
}
