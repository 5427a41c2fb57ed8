// Parser for opencode-swarm's legacy `.swarm/context.md`: one record per bullet in known `## ` sections.
import { placeCategory, type LegacyCategory } from "../../core/categories.js";
import type { NewEntryInput } from "../../core/entry.js";
import { NOT_UTF8_LINE, type Line } from "../lines.js";
import type { ParseItem } from "../types.js";

/**
 * Each section's category in opencode-swarm's own migration (seed 001: lessons-learned → lesson, patterns →
 * pattern, sme-cache → domain, decisions → decision). Placed by the one mapping (core/categories.ts), so a
 * bullet is stored as the knowledge.jsonl row that migration writes would be.
 */
const SECTIONS: Readonly<Record<string, LegacyCategory>> = {
  "lessons-learned": "lesson",
  patterns: "pattern",
  "sme-cache": "domain",
  decisions: "decision",
};

/** "Lessons Learned", "lessons_learned", "SME Cache (phase 2)" → the SECTIONS entry, if any. */
export function sectionFor(heading: string): LegacyCategory | undefined {
  const key = heading.trim().toLowerCase().replace(/[\s_-]+/g, "-").replace(/[^a-z0-9-]/g, "");
  const name = Object.keys(SECTIONS).find((k) => key === k || key.startsWith(`${k}-`));
  return name ? SECTIONS[name] : undefined;
}

/**
 * Section-level parser over a line stream. A bullet runs until a blank line, a heading,
 * or an unindented line; indented lines (including nested bullets) are folded into it.
 */
export async function* parseContextMd(lines: AsyncIterable<Line>, source = "context.md"): AsyncGenerator<ParseItem> {
  let section: LegacyCategory | undefined;
  /** The bullet being read; `notUtf8`: the first of its lines whose bytes are not UTF-8, which skips it whole. */
  let open: { line: number; parts: string[]; notUtf8?: number } | undefined;
  let inFence = false;
  /** Whether any bullet was read (or reported); else bullets outside the known sections are reported once at the end. */
  let readAny = false;
  /** Bullets under no section Cairn reads, and the line of the first: a file of only these would import nothing, silently. */
  let outside = 0;
  let firstOutside = 0;

  const close = (): ParseItem | undefined => {
    const bullet = open;
    open = undefined;
    if (!bullet || !section) return undefined;
    // Decoded anyway, its Latin-1 letters would be stored as U+FFFD: reported like a JSONL line, the rest imported.
    readAny = true;
    if (bullet.notUtf8 !== undefined) return { ok: false, bad: { line: bullet.notUtf8, error: NOT_UTF8_LINE } };
    const lesson = bullet.parts.join(" ").trim();
    if (lesson === "") return undefined;
    const placed = placeCategory(section, lesson);
    const input: NewEntryInput = {
      lesson,
      category: placed.category,
      ...(placed.kind ? { kind: placed.kind } : {}),
      tags: placed.tags,
      derived_from: { kind: "import", ref: source },
    };
    return { ok: true, record: { line: bullet.line, input } };
  };

  for await (const { line, text, notUtf8 } of lines) {
    // `#` lines inside code fences are shell comments, not headings.
    if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
    const heading = inFence ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) {
      const done = close();
      if (done) yield done;
      const level = heading[1]!.length;
      if (level <= 2) section = level === 2 ? sectionFor(heading[2]!) : undefined;
      continue;
    }
    const bullet = inFence ? null : /^[-*+]\s+(.*)$/.exec(text);
    if (bullet) {
      const done = close();
      if (done) yield done;
      if (section) open = { line, parts: [bullet[1]!], ...(notUtf8 ? { notUtf8: line } : {}) };
      else if (outside++ === 0) firstOutside = line;
    } else if (open && text.trim() !== "" && /^\s/.test(text)) {
      open.parts.push(text.trim());
      if (notUtf8) open.notUtf8 ??= line;
    } else {
      const done = close();
      if (done) yield done;
    }
  }
  const done = close();
  if (done) yield done;
  if (!readAny && outside > 0) {
    const error = `${outside} bullet${outside === 1 ? "" : "s"}, none under a section Cairn reads: lessons are taken from bullets under ${KNOWN_HEADINGS}; put them under one of these headings and import again.`;
    yield { ok: false, bad: { line: firstOutside, error } };
  }
}

/** The headings a context.md's lessons sit under, as a person would write them. */
const KNOWN_HEADINGS = "## Lessons Learned, ## Patterns, ## SME Cache or ## Decisions";
