// Shared mapping for foreign formats: tag cleaning, date conversion, light category/kind guessing.
import { NewEntryInputSchema, type Category, type Kind } from "../../core/entry.js";

const TAG = NewEntryInputSchema.shape.tags.unwrap().element;
const MAX_TAGS = 30;
const NOT_TAG_CHARS = /[^\p{L}\p{N}_.:/+#-]+/gu;

/**
 * Makes foreign tags acceptable to NewEntryInputSchema: odd characters become `-`, too-long
 * or empty ones are dropped, duplicates removed. `reserved` tags are kept first so the
 * 30-tag cap never squeezes out the provenance tags we add ourselves.
 */
export function cleanTags(raw: readonly string[], reserved: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const t of [...reserved, ...raw]) {
    const slug = t.trim().replace(NOT_TAG_CHARS, "-").replace(/-{2,}/g, "-").replace(/^-+|-+$/g, "");
    if (!out.includes(slug) && TAG.safeParse(slug).success) out.push(slug);
    if (out.length >= MAX_TAGS) break;
  }
  return out;
}

const ISO = NewEntryInputSchema.shape.created_at.unwrap();

/** Epoch milliseconds (number or numeric string, e.g. "1766343300618.0") or a date string → ISO; else undefined. */
export function toIsoDate(v: unknown): string | undefined {
  if (typeof v === "number" || (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v))) {
    const ms = Number(v);
    // Ten digits or fewer is epoch seconds; nobody means a 1970 date.
    const d = new Date(ms < 1e11 ? ms * 1000 : ms);
    return Number.isFinite(d.getTime()) ? d.toISOString() : undefined;
  }
  if (typeof v !== "string" || v.trim() === "") return undefined;
  if (ISO.safeParse(v.trim()).success) return v.trim();
  const t = Date.parse(v);
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

/** The report line for a foreign date that could not be read (the value itself is not echoed). */
export function dateWarnings(raw: unknown, iso: string | undefined): string[] | undefined {
  return raw != null && raw !== "" && iso === undefined ? ["created_at is not a date-time; the import time is used"] : undefined;
}

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
