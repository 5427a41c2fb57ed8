// Per-tier caps with priority-aware eviction: retired entries first, then lowest utility, then oldest.
import type { Services } from "../services.js";
import type { Store } from "../store/store.js";

export interface EvictionReport {
  evicted: string[];
}

/** Checks an O(1) counter on every write; only does work when the tier is over its cap. */
export async function enforceCap(s: Services, store: Store): Promise<EvictionReport> {
  const cap = store.tier === "hive" ? s.config.knowledge.hive_max_entries : s.config.knowledge.swarm_max_entries;
  const total = await store.totalEntries();
  if (total <= cap) return { evicted: [] };
  // Promoted entries are never candidates (the store excludes them), so a tier full of them stays over cap loudly.
  const victims = await store.evictionCandidates(total - cap);
  const evicted: string[] = [];
  for (const v of victims) {
    if (await store.deleteEntry(v.id, { type: "evicted", actor: "cairn:cap", data: { cap, status: v.lifecycle.status } })) {
      evicted.push(v.id);
    }
  }
  if (victims.length < total - cap) {
    process.stderr.write(`cairn: ${store.tier} tier holds ${total} entries over its cap of ${cap}; the rest are promoted and are never evicted silently.\n`);
  }
  return { evicted };
}
