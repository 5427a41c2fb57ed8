// What the engine's modules share: the open tiers, the config and the project in hand.
import type { Tier } from "./core/entry.js";
import type { ProjectIdentity } from "./core/project.js";
import type { CairnConfig } from "./config.js";
import { CairnError } from "./errors.js";
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
}

export function storeFor(s: Services, tier: Tier): Store {
  if (tier === "swarm") return s.swarm;
  // Faces pass strings through; anything else used to fall through to the hive.
  if (tier !== "hive") throw new CairnError("INVALID_INPUT", `Unknown tier "${String(tier).slice(0, 40)}"; use swarm or hive.`);
  if (!s.hive) throw new CairnError("INVALID_INPUT", "The hive is disabled (knowledge.hive_enabled = false).");
  return s.hive;
}

export function openTiers(s: Services): Store[] {
  return s.hive ? [s.swarm, s.hive] : [s.swarm];
}
