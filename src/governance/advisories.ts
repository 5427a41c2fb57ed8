// Pre-action advisories: which vetted lessons apply to the files and text an agent is about to write, within a time bound.
import { pairPromoted } from "../core/entry-links.js";
import { sanitizeForPrompt } from "../quality/sanitize.js";
import { openTiers, type Services } from "../services.js";
import { isHumanActor } from "./actors.js";
import { patternText, type PatternKind } from "./patterns.js";
import { originalsOfRetiredCopies } from "../lifecycle/retired-copies.js";
import { appliesToProject, projectPaths, rulesFor, type AdvisoryRule } from "./rules.js";

export interface AdvisoryQuery {
  /** The tool about to run (edit, write, patch, bash, …); entries limited to other tools are skipped. */
  tool?: string;
  /** Paths it will touch, relative to the project or absolute inside it. */
  files?: readonly string[];
  /** The new content, patch or command; only the first `governance.advisories.max_text_chars` are read. */
  text?: string;
  sessionId?: string;
  /** Who is about to act; matches count as consultations for everyone but people (default: the engine's actor). */
  actor?: string;
  /** Set false to look without counting. */
  record?: boolean;
}

/** What the agent is told: the rule's identity and advice (`rule` is the lesson when no prevention rule exists), and what matched. */
export interface Advisory extends Pick<AdvisoryRule, "id" | "handle" | "tier" | "title" | "rule" | "why" | "enforcement"> {
  matched: "glob" | "pattern";
  /** The file a glob matched, or the kind of pattern that matched the text. */
  on: string;
  pattern_kind?: PatternKind;
}

interface Hit {
  rule: AdvisoryRule;
  advisory: Advisory;
}

function advisory(r: AdvisoryRule, matched: "glob" | "pattern", on: string): Advisory {
  return {
    id: r.id,
    handle: r.handle,
    tier: r.tier,
    ...(r.title ? { title: r.title } : {}),
    rule: r.rule,
    ...(r.why ? { why: r.why } : {}),
    enforcement: r.enforcement,
    matched,
    on,
    ...(r.pattern ? { pattern_kind: r.pattern.kind } : {}),
  };
}

/**
 * A rule with globs is scoped to those files: its text pattern is tried only when one of them is
 * in play, or when no files are known (a shell command). Regexes run under RE2 (linear time); the
 * text is capped and the whole pattern pass has a time budget, so no stored pattern can stall a tool call.
 */
function matchRule(r: AdvisoryRule, files: string[], text: string, lower: () => string, overBudget: () => boolean): Advisory | undefined {
  const file = r.matchGlob ? files.find((f) => r.matchGlob!(f)) : undefined;
  const p = r.pattern;
  if (p?.kind === "glob") {
    const f = files.find((x) => p.matchFile(x));
    if (f) return advisory(r, "pattern", f);
  } else if (p && text && (file !== undefined || !r.matchGlob || files.length === 0) && !overBudget()) {
    if (p.matchText(text, lower())) return advisory(r, "pattern", p.kind);
  }
  return file !== undefined ? advisory(r, "glob", file) : undefined;
}

export async function checkAdvisories(s: Services, q: AdvisoryQuery, defaultActor = "agent:unknown"): Promise<Advisory[]> {
  const cfg = s.config.governance.advisories;
  if (!cfg.enabled) return [];
  const files = projectPaths(s.project.dir, q.files);
  const text = typeof q.text === "string" ? q.text.slice(0, cfg.max_text_chars) : "";
  if (files.length === 0 && !text) return [];
  let lowered: string | undefined;
  const lower = () => (lowered ??= patternText(text));
  const tool = q.tool?.toLowerCase();
  // Rules load (and compile) before the clock starts: the budget is for matching text, and a cold
  // process spends most of it loading — which used to skip every detection pattern on a first check.
  const tiers = await Promise.all(openTiers(s).map(async (store) => rulesFor(store)));
  // CPU time, not the wall clock: the budget bounds what the patterns cost, and on a busy machine a
  // process descheduled for a few slices before its first pattern used to skip every one of them.
  const cpuMs = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  const deadline = cpuMs() + cfg.budget_ms;
  const overBudget = () => cpuMs() > deadline;

  const hits: Hit[] = [];
  for (const rules of tiers) {
    for (const r of rules) {
      if (tool && r.tools.length && !r.tools.includes(tool)) continue;
      if (!appliesToProject(r.projects, s.project)) continue;
      const a = matchRule(r, files, text, lower, overBudget);
      if (a) hits.push({ rule: r, advisory: a });
    }
  }
  const unique = await withoutRetiredOriginals(s, onePerLesson(hits));
  unique.sort(
    (x, y) =>
      Number(y.rule.enforcement === "enforce") - Number(x.rule.enforcement === "enforce") ||
      Number(y.advisory.matched === "pattern") - Number(x.advisory.matched === "pattern") ||
      y.rule.priority - x.rule.priority ||
      y.rule.confidence - x.rule.confidence,
  );
  const chosen = unique.slice(0, cfg.max_results).map((h) => h.advisory);
  const actor = q.actor ?? defaultActor;
  if (chosen.length && q.record !== false && !isHumanActor(actor)) await recordConsultations(s, chosen, actor, q, files);
  return chosen;
}

/**
 * A promoted lesson matches twice, as its project original and as the hive copy it went up as: the copy
 * advises for both (it is where every project's consultations count), unless only the original is marked
 * `enforce` — a person's stricter setting on it is never dropped for a warning. Which copy stands for which
 * original is pairPromoted's rule (the copy's promoted_from, else the original's last promotion).
 */
function onePerLesson(hits: Hit[]): Hit[] {
  const copies = hits.filter((h) => h.rule.tier === "hive").map((h) => h.rule);
  if (copies.length === 0) return hits;
  const originals = hits.filter((h) => h.rule.tier === "swarm").map((h) => h.rule);
  const dropped = new Set<string>();
  for (const { original, copy } of pairPromoted(originals, copies).values()) {
    const keepOriginal = original.enforcement === "enforce" && copy.enforcement !== "enforce";
    dropped.add(keepOriginal ? copy.id : original.id);
  }
  return hits.filter((h) => !dropped.has(h.rule.id));
}

/**
 * A promoted original that matched without the hive lesson it last went up as: when another project
 * superseded, quarantined or archived that lesson, the original advises no more (lifecycle/retired-copies.ts).
 * The hive is asked only when such an original matched.
 */
async function withoutRetiredOriginals(s: Services, hits: Hit[]): Promise<Hit[]> {
  const hiveIds = new Set(hits.filter((h) => h.rule.tier === "hive").map((h) => h.rule.id));
  const alone = new Map<string, string>();
  for (const { rule } of hits) if (rule.tier === "swarm" && rule.promotedTo && !hiveIds.has(rule.promotedTo)) alone.set(rule.id, rule.promotedTo);
  if (!alone.size) return hits;
  const hidden = await originalsOfRetiredCopies(s, alone);
  return hidden.size ? hits.filter((h) => !hidden.has(h.rule.id)) : hits;
}

/** One event per entry, carrying what matched: outcome evaluation later needs to know it was the pattern. */
async function recordConsultations(s: Services, chosen: Advisory[], actor: string, q: AdvisoryQuery, files: string[]): Promise<void> {
  for (const store of openTiers(s)) {
    for (const matched of ["pattern", "glob"] as const) {
      const ids = chosen.filter((a) => a.tier === store.tier && a.matched === matched).map((a) => a.id);
      if (!ids.length) continue;
      await store.recordUsage(ids, "consulted", actor, {
        matched,
        // Which project's agent was warned: the hive is shared, and only that project's outcome may claim a prevention.
        project_id: s.project.id,
        ...(q.tool ? { tool: q.tool.slice(0, 60) } : {}),
        ...(q.sessionId ? { session_id: q.sessionId.slice(0, 200) } : {}),
        ...(files.length ? { files: files.slice(0, 5).map((f) => f.slice(0, 200)) } : {}),
      });
    }
  }
}

/** The block a host attaches for the agent; every stored string is sanitised, as in injection. */
export function renderAdvisories(advisories: readonly Advisory[]): string {
  if (advisories.length === 0) return "";
  const lines = ["Cairn advisory — recorded lessons apply to what you are about to do:"];
  for (const a of advisories) {
    const head = a.title ? `${sanitizeForPrompt(a.title, 80)}: ` : "";
    // A glob detection pattern matches a file too: the path is the agent's own (a cloned repo's file names), never trusted text.
    const where = a.matched === "glob" || a.pattern_kind === "glob" ? `file ${sanitizeForPrompt(a.on, 120)}` : `${sanitizeForPrompt(a.on, 40)} pattern`;
    const flag = a.enforcement === "enforce" ? " [enforced]" : "";
    lines.push(`- [${a.handle}]${flag} ${head}${sanitizeForPrompt(a.rule, 400)} (matched ${where})`);
    if (a.why) lines.push(`  Why: ${sanitizeForPrompt(a.why, 300)}`);
  }
  return lines.join("\n");
}

/** True when an advisory comes from an entry marked `enforce`: the host should stop the call, not just warn. */
export function isBlocking(advisories: readonly Advisory[]): boolean {
  return advisories.some((a) => a.enforcement === "enforce");
}
