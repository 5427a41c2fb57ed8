// What the engine's modules share: the open tiers, the config and the project in hand.
import type { Tier } from "./core/entry.js";
import type { ProjectIdentity } from "./core/project.js";
import type { CairnConfig } from "./config.js";
import { CairnError, type DatabaseDamagedError } from "./errors.js";
import { isDamaged, noticeOnce } from "./store/faults.js";
import type { Store } from "./store/store.js";
import type { EmbeddingService } from "./embed/service.js";

export interface Services {
  swarm: Store;
  /** Undefined when `knowledge.hive_enabled` is false. */
  hive: Store | undefined;
  config: CairnConfig;
  project: ProjectIdentity;
  /** Vectors for lessons and queries; undefined when `embedding.provider` is none. */
  embedding?: EmbeddingService;
  /** Injected clock so lifecycle rules (age, decay) are testable without waiting. */
  now: () => Date;
  /**
   * Tiers whose database could not be opened because it is damaged. A damaged hive is left out
   * (hive is undefined) and a damaged swarm tier is an empty stand-in that refuses writes, so the
   * other tier keeps answering; each says why here, for `cairn doctor` and for writes to it.
   */
  faults?: Partial<Record<Tier, DatabaseDamagedError>>;
}

export function storeFor(s: Services, tier: Tier): Store {
  if (tier === "swarm") return s.swarm;
  // Faces pass strings through; anything else used to fall through to the hive.
  if (tier !== "hive") throw new CairnError("INVALID_INPUT", `Unknown tier "${String(tier).slice(0, 40)}"; use swarm or hive.`);
  if (!s.hive && s.faults?.hive) throw s.faults.hive;
  if (!s.hive) throw new CairnError("INVALID_INPUT", "The hive is disabled (knowledge.hive_enabled = false).");
  return s.hive;
}

export function openTiers(s: Services): Store[] {
  return s.hive ? [s.swarm, s.hive] : [s.swarm];
}

/**
 * The open tiers a read of `tier` answers from. A tier asked for alone whose file is damaged (left out,
 * or an empty stand-in) throws its damage, and a disabled hive says so: an empty answer would read as
 * "no lessons" in a tier that could not be read at all.
 */
export function tiersAsked(s: Services, tier: Tier | "all"): Store[] {
  if (tier === "all") return openTiers(s);
  const fault = s.faults?.[tier];
  if (fault) throw fault;
  return [storeFor(s, tier)];
}

/**
 * For a read across the tiers asked for: when a tier turns out damaged mid-read, the others still answer
 * (the damage said once on stderr) and its part answers empty. When no tier asked for is left, the
 * damage is thrown: a tier asked for alone, or every tier damaged, must not answer "no lessons".
 * Anything but damage is rethrown. One per read: it remembers which tiers failed.
 */
export function spareDamagedTiers(asked: readonly Store[]): <T>(store: Store, e: unknown, empty: T) => T {
  const failed = new Set<Store>();
  return (store, e, empty) => {
    if (!isDamaged(e)) throw e;
    failed.add(store);
    const other = asked.find((st) => !failed.has(st));
    if (!other) throw e;
    noticeOnce(`damaged:${store.location}`, `${e.message} Answering from the ${other.tier === "swarm" ? "project (swarm)" : "hive"} tier only.`);
    return empty;
  };
}
