// The advisory rule cache: compiled globs and detection patterns of vetted entries, per store, reloaded only when rules change.
import path from "node:path";
import { promotedOriginOf } from "../core/entry-links.js";
import { anyGlobMatcher } from "../core/globs.js";
import type { Entry, Status, Tier } from "../core/entry.js";
import type { ProjectIdentity } from "../core/project.js";
import type { Store } from "../store/store.js";
import { compilePattern, type CompiledPattern } from "./patterns.js";
import { isUnavailable } from "../errors.js";

/** People vouched for these (approval) or they earned it (confirmations); candidates and drafts never interrupt an agent. */
export const ADVISORY_STATUSES: readonly Status[] = ["established", "promoted"];
/** More rules than this are not loaded (the cache stays bounded in memory). */
const MAX_RULES = 20_000;

export interface AdvisoryRule {
  id: string;
  handle: string;
  tier: Tier;
  title?: string;
  rule: string;
  why?: string;
  enforcement: "warn" | "enforce";
  priority: number;
  confidence: number;
  globs: string[];
  matchGlob?: (file: string) => boolean;
  pattern?: CompiledPattern;
  tools: string[];
  projects: string[];
  /** For a hive copy: the project original it was promoted from (both are vetted; one advises). */
  promotedFrom?: string;
  /**
   * For a project original (status promoted): the hive lesson its last promotion went up as. A promotion
   * that reinforced a hive lesson another project put there leaves no promoted_from on it, only this (promoted_to).
   */
  promotedTo?: string;
}

/** Globs read as .gitignore lines: without a slash a file anywhere, a leading slash the project root, a trailing one a folder (core/globs). */
export const globMatcher = anyGlobMatcher;

const PRIORITY_RANK = { low: 0, medium: 1, high: 2, critical: 3 } as const;

function toRule(e: Entry): AdvisoryRule {
  const globs = e.applicability.file_globs;
  return {
    id: e.id,
    handle: e.handle,
    tier: e.tier,
    ...(e.title ? { title: e.title } : {}),
    rule: e.prevention.rule ?? e.lesson,
    ...(e.why ? { why: e.why } : {}),
    enforcement: e.directive.enforcement,
    priority: PRIORITY_RANK[e.directive.priority],
    confidence: e.lifecycle.confidence,
    globs,
    ...(globs.length ? { matchGlob: globMatcher(globs) } : {}),
    ...(e.prevention.detection_pattern ? { pattern: compilePattern(e.prevention.detection_pattern) } : {}),
    tools: e.applicability.tools.map((t) => t.toLowerCase()),
    projects: e.applicability.projects.map((p) => p.toLowerCase()),
    ...(promotedOriginOf(e) ? { promotedFrom: promotedOriginOf(e)! } : {}),
  };
}

interface Cached {
  version: number;
  rules: AdvisoryRule[];
}
const caches = new WeakMap<Store, Cached>();

/** One cheap version read per call; the entries are read again only after a rule-bearing entry changed. */
export async function rulesFor(store: Store): Promise<AdvisoryRule[]> {
  try {
    // Read the version first: a change landing during the load makes the next call reload.
    const version = await store.rulesVersion();
    const hit = caches.get(store);
    if (hit && hit.version === version) return hit.rules;
    const rules: AdvisoryRule[] = [];
    const promoted: AdvisoryRule[] = [];
    for await (const e of store.iterateEntries({ statuses: ADVISORY_STATUSES, advisory: true })) {
      const r = toRule(e);
      rules.push(r);
      if (e.tier === "swarm" && e.lifecycle.status === "promoted") promoted.push(r);
      if (rules.length >= MAX_RULES) break;
    }
    await linkPromotions(store, promoted);
    caches.set(store, { version, rules });
    return rules;
  } catch (e) {
    // A team hive that cannot answer keeps advising with the rules it last loaded (none yet: none).
    if (!isUnavailable(e)) throw e;
    return caches.get(store)?.rules ?? [];
  }
}

/**
 * Sets each promoted original's hive lesson from its promoted_to column, by key: once per cache load, never
 * per check, and only for the originals loaded (not every promotion the tier's event log holds).
 */
async function linkPromotions(store: Store, promoted: AdvisoryRule[]): Promise<void> {
  if (!promoted.length) return;
  const wentUpAs = await store.promotedTo(promoted.map((r) => r.id));
  for (const r of promoted) {
    const to = wentUpAs.get(r.id);
    if (to) r.promotedTo = to;
  }
}

export function appliesToProject(projects: readonly string[], project: ProjectIdentity): boolean {
  if (projects.length === 0 || projects.includes("*")) return true;
  return projects.includes(project.name.toLowerCase()) || projects.includes(project.id.toLowerCase());
}

/** Globs are written relative to the project root; hosts hand over absolute paths. */
export function projectPaths(projectDir: string, files: readonly string[] | undefined, max = 100): string[] {
  const out: string[] = [];
  for (const f of (files ?? []).slice(0, max)) {
    if (typeof f !== "string" || !f.trim()) continue;
    let p = f.trim().replace(/\\/g, "/");
    if (path.isAbsolute(p)) {
      const rel = path.relative(projectDir, p).replace(/\\/g, "/");
      if (!rel.startsWith("../") && rel !== "..") p = rel;
    }
    out.push(p.replace(/^\.\//, ""));
  }
  return out;
}
