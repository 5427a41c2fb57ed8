// Related knowledge: vetted entries that apply to given files and tags (glob match from the rule cache, tag overlap in SQL).
import { pairPromoted, promotedOriginOf, type PromotedOriginal } from "../core/entry-links.js";
import type { Entry } from "../core/entry.js";
import { openTiers, type Services } from "../services.js";
import { originalsOfRetiredCopies } from "../lifecycle/retired-copies.js";
import { ADVISORY_STATUSES, appliesToProject, projectPaths, rulesFor } from "./rules.js";

/** Entries read per query for glob matches; a glob like "**" on every lesson must not read them all. */
const MAX_GLOB_HITS = 200;

export interface RelatedQuery {
  files?: readonly string[];
  tags?: readonly string[];
  limit?: number;
}

export interface RelatedHit {
  entry: Entry;
  /** Why it applies: `file:<glob> <path>` and/or `tag:<tag>`. */
  reasons: string[];
}

export async function relatedEntries(s: Services, q: RelatedQuery): Promise<RelatedHit[]> {
  const limit = Math.min(Math.max(q.limit ?? 10, 1), 100);
  const files = projectPaths(s.project.dir, q.files);
  const tags = [...new Set((q.tags ?? []).map((t) => t.trim().toLowerCase()).filter(Boolean))].slice(0, 30);
  if (files.length === 0 && tags.length === 0) return [];
  const hits = new Map<string, RelatedHit>();
  const add = (entry: Entry, reason: string) => {
    const h = hits.get(entry.id) ?? { entry, reasons: [] };
    h.reasons.push(reason);
    hits.set(entry.id, h);
  };
  for (const store of openTiers(s)) {
    if (files.length) {
      for (const r of await rulesFor(store)) {
        if (!r.matchGlob || !appliesToProject(r.projects, s.project)) continue;
        const f = files.find((x) => r.matchGlob!(x));
        if (!f) continue;
        if (hits.size >= MAX_GLOB_HITS) break;
        const entry = await store.getEntry(r.id);
        if (entry) add(entry, `file:${f}`);
      }
    }
    if (tags.length) {
      for (const e of await store.listEntries({ statuses: ADVISORY_STATUSES, anyTags: tags }, { limit: 200, order: "confidence" })) {
        if (!appliesToProject(e.applicability.projects.map((p) => p.toLowerCase()), s.project)) continue;
        for (const t of e.tags.filter((x) => tags.includes(x))) add(e, `tag:${t}`);
      }
    }
  }
  const shown = [...hits.values()];
  const standIns = await originalsWithCopies(s, shown);
  return shown
    .filter((h) => !standIns.has(h.entry.id))
    .sort((a, b) => b.reasons.length - a.reasons.length || b.entry.lifecycle.confidence - a.entry.lifecycle.confidence)
    .slice(0, limit);
}

/**
 * A promoted lesson is listed once, as the hive copy that stands for its project original (pairPromoted,
 * as advisories pair them). An original the copy's promoted_from does not name — a promotion that
 * reinforced a hive lesson already there — is paired by its last promotion, read by key from its
 * promoted_to column (only promoted originals listed here, a few).
 * An original whose hive lesson is not listed is left out too when another project retired that lesson
 * (lifecycle/retired-copies.ts), as advisories leave it out.
 */
async function originalsWithCopies(s: Services, shown: readonly RelatedHit[]): Promise<Set<string>> {
  const copies = shown.filter((h) => h.entry.tier === "hive").map((h) => ({ id: h.entry.id, promotedFrom: promotedOriginOf(h.entry) }));
  const named = new Set(copies.map((c) => c.promotedFrom));
  const originals: PromotedOriginal[] = shown.filter((h) => h.entry.tier === "swarm").map((h) => ({ id: h.entry.id }));
  const unnamed = new Set(shown.filter((h) => h.entry.tier === "swarm" && h.entry.lifecycle.status === "promoted" && !named.has(h.entry.id)).map((h) => h.entry.id));
  if (unnamed.size && s.hive) {
    const promotedTo = await s.swarm.promotedTo([...unnamed]).catch(() => new Map<string, string>());
    for (const o of originals) if (unnamed.has(o.id)) o.promotedTo = promotedTo.get(o.id);
  }
  const paired = pairPromoted(originals, copies);
  const alone = new Map(originals.flatMap((o) => (o.promotedTo && !paired.has(o.id) ? [[o.id, o.promotedTo] as const] : [])));
  return new Set([...paired.keys(), ...(await originalsOfRetiredCopies(s, alone))]);
}
