// Shared mapping for foreign formats: tag cleaning, date conversion (category and kind guessing: core/categories.ts).
import { NewEntryInputSchema } from "../../core/entry.js";

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
