// Curation: retrospective bullets and evidence lessons become entries through the normal write path; retractions quarantine.
import type { Entry } from "../core/entry.js";
import type { Cairn } from "../engine.js";
import { CairnError } from "../errors.js";
import { similarity } from "../quality/similarity.js";
import { hasVisibleText } from "../quality/sanitize.js";

export interface LessonsSection {
  /** The `## Phase N: …` heading the section sits under, if any. */
  phase?: string;
  bullets: string[];
  /** The section's raw text, for change detection. */
  text: string;
}

export interface CurateOptions {
  /** Where the lessons came from, e.g. ".swarm/plan.md#phase-2" — kept as provenance. */
  ref: string;
  kind: "retrospective" | "evidence";
  phase?: string;
  actor?: string;
  sessionId?: string;
}

export interface CurateReport {
  added: string[];
  reinforced: string[];
  rejected: Array<{ lesson: string; reason: string }>;
  quarantined: string[];
  /** Retractions that matched no live entry. */
  unmatched: string[];
}

const RETRACTION = /^(?:RETRACT|BAD RULE)\s*:\s*/i;
const REF_IN_TEXT = /\b([SH]-\d{1,12}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/i;
const MAX_BULLET_CHARS = 2000;

/** A RETRACT: / BAD RULE: bullet asks for a lesson to be quarantined; it is not a lesson itself. */
export function isRetraction(bullet: string): boolean {
  return RETRACTION.test(bullet);
}

/**
 * The lesson agents may see that a text became or merged into: the most similar recalled lesson at or
 * above the dedup threshold (recall returns live lessons only), else none — a text the gates refused, or
 * whose lesson was quarantined, archived or superseded since, has none.
 */
export async function liveLessonFor(cairn: Cairn, text: string): Promise<Entry | undefined> {
  // Only hidden characters can be no lesson, and recall refuses such a query.
  if (!hasVisibleText(text)) return undefined;
  const hits = await cairn.recall(text, { limit: 5 });
  const threshold = cairn.config.knowledge.dedup_threshold;
  let best: { entry: Entry; sim: number } | undefined;
  for (const h of hits) {
    const sim = similarity(text, h.entry.lesson);
    if (sim >= threshold && (!best || sim > best.sim)) best = { entry: h.entry, sim };
  }
  return best?.entry;
}

export function emptyReport(): CurateReport {
  return { added: [], reinforced: [], rejected: [], quarantined: [], unmatched: [] };
}

/** Bullets with continuation lines folded in; "- [x]" task checkboxes are not lessons. */
function bulletsOf(lines: string[]): string[] {
  const out: string[] = [];
  let cur: string | undefined;
  for (const line of lines) {
    const m = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (m && !/^\s{4,}/.test(line)) {
      if (cur) out.push(cur);
      cur = /^\[[ xX]\]/.test(m[1]!) ? undefined : m[1]!.trim();
    } else if (cur !== undefined && line.trim() && /^\s+/.test(line)) {
      cur += " " + line.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, "");
    } else if (!line.trim() && cur) {
      out.push(cur);
      cur = undefined;
    }
  }
  if (cur) out.push(cur);
  return out.map((b) => b.slice(0, MAX_BULLET_CHARS)).filter(Boolean);
}

/** Every `### Lessons Learned` section (any heading level ≥ 2), with the phase heading above it. */
export function extractLessonsLearned(markdown: string): LessonsSection[] {
  const lines = markdown.split(/\r?\n/);
  const sections: LessonsSection[] = [];
  let phase: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(lines[i]!);
    if (!h) continue;
    const title = h[2]!;
    if (/^phase\s+\d+/i.test(title) && h[1]!.length <= 2) phase = title.replace(/\s*\[[^\]]*\]\s*$/, "").replace(/\s*✅\s*$/, "").trim();
    if (!/^lessons[\s_-]*learned\b/i.test(title) || h[1]!.length < 2) continue;
    const level = h[1]!.length;
    let j = i + 1;
    while (j < lines.length) {
      const next = /^(#{1,6})\s/.exec(lines[j]!);
      if ((next && next[1]!.length <= level) || /^---\s*$/.test(lines[j]!)) break;
      j++;
    }
    const body = lines.slice(i + 1, j);
    sections.push({ ...(phase ? { phase } : {}), bullets: bulletsOf(body), text: [lines[i], ...body].join("\n") });
    i = j - 1;
  }
  return sections;
}

/** `lessons_learned` arrays anywhere in an evidence document (opencode-swarm nests them in bundles). */
export function extractEvidenceLessons(doc: unknown, depth = 0): string[] {
  if (depth > 6 || doc === null || typeof doc !== "object") return [];
  if (Array.isArray(doc)) return doc.flatMap((d) => extractEvidenceLessons(d, depth + 1));
  const out: string[] = [];
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    if (key === "lessons_learned" && Array.isArray(value)) {
      for (const v of value) {
        const text = typeof v === "string" ? v : v && typeof v === "object" && typeof (v as { lesson?: unknown }).lesson === "string" ? (v as { lesson: string }).lesson : "";
        if (text.trim()) out.push(text.trim().slice(0, MAX_BULLET_CHARS));
      }
    } else if (value && typeof value === "object") out.push(...extractEvidenceLessons(value, depth + 1));
  }
  return out;
}

/** Finds the live entry a retraction names: an explicit id/handle first, else the most similar recalled lesson. */
async function findRetracted(cairn: Cairn, text: string): Promise<string | undefined> {
  const ref = REF_IN_TEXT.exec(text)?.[1];
  if (ref) {
    try {
      return (await cairn.get(ref)).id;
    } catch (e) {
      if (!(e instanceof CairnError)) throw e;
    }
  }
  return (await liveLessonFor(cairn, text))?.id;
}

/**
 * Minimal curator over the facade: every lesson goes through `cairn.add` (gates and dedup
 * apply), every retraction through `cairn.quarantine`. Nothing is written any other way.
 */
export async function curateLessons(cairn: Cairn, bullets: readonly string[], opts: CurateOptions): Promise<CurateReport> {
  const report = emptyReport();
  const actor = opts.actor ?? "curator";
  for (const bullet of bullets) {
    if (RETRACTION.test(bullet)) {
      const text = bullet.replace(RETRACTION, "").trim();
      const id = text ? await findRetracted(cairn, text) : undefined;
      if (!id) {
        report.unmatched.push(text);
        continue;
      }
      const e = await cairn.quarantine(id, `retracted in ${opts.ref}: ${text.slice(0, 200)}`, actor);
      // A lesson a person approved is only flagged with a request (lifecycle/status.ts): say so.
      report.quarantined.push(e.lifecycle.status === "quarantined" ? e.handle : `${e.handle} (requested: a person approved it)`);
      continue;
    }
    const r = await cairn.add(
      {
        lesson: bullet,
        kind: "learning",
        ...(opts.phase ? { phase: opts.phase } : {}),
        auto_generated: true,
        created_by: actor,
        derived_from: { kind: opts.kind, ref: opts.ref.slice(0, 300) },
        ...(opts.sessionId ? { session_id: opts.sessionId } : {}),
      },
      { tier: "swarm", actor },
    );
    if (r.action === "added") report.added.push(r.handle ?? r.id ?? "");
    else if (r.action === "reinforced") report.reinforced.push(r.handle ?? r.id ?? "");
    else report.rejected.push({ lesson: bullet.slice(0, 120), reason: r.reason ?? "rejected" });
  }
  return report;
}

export function mergeReports(a: CurateReport, b: CurateReport): CurateReport {
  return {
    added: [...a.added, ...b.added],
    reinforced: [...a.reinforced, ...b.reinforced],
    rejected: [...a.rejected, ...b.rejected],
    quarantined: [...a.quarantined, ...b.quarantined],
    unmatched: [...a.unmatched, ...b.unmatched],
  };
}

export function describeReport(r: CurateReport): string {
  const parts = [
    `${r.added.length} added${r.added.length ? ` (${r.added.join(", ")})` : ""}`,
    `${r.reinforced.length} reinforced`,
    `${r.rejected.length} rejected`,
    `${r.quarantined.length} quarantined${r.quarantined.length ? ` (${r.quarantined.join(", ")})` : ""}`,
  ];
  if (r.unmatched.length) parts.push(`${r.unmatched.length} retraction(s) matched no entry`);
  return parts.join(", ");
}
