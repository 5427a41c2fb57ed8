// The Cairn facade: every operation a face (CLI, OpenCode plugin, MCP server) may call, in one place.
import path from "node:path";
import { LIVE_STATUSES, STATUSES, type Entry, type EntryEvent, type NewEntryInput, type RejectedLesson, type Status, type Tier } from "./core/entry.js";
import { resolveProject, type ProjectIdentity } from "./core/project.js";
import { loadConfig, platformDataDir, type CairnConfig, type ConfigInput } from "./config.js";
import { CairnError } from "./errors.js";
import { writeExport } from "./io/export.js";
import { importFile, type ImportOptions, type ImportReport } from "./io/import-file.js";
import { recordFeedback, type Verdict } from "./lifecycle/feedback.js";
import { promoteDueEntries, promoteEntry, promoteText, type PromotionResult } from "./lifecycle/promote.js";
import { archiveEntry, locate, quarantineEntry, removeEntry, restoreEntry, supersedeEntry } from "./lifecycle/status.js";
import { sweepExpiredEntries, type SweepReport } from "./lifecycle/sweep.js";
import { writeLesson, type WriteResult } from "./lifecycle/write.js";
import { utilityOf } from "./lifecycle/utility.js";
import { createArbiter } from "./learning/arbiter.js";
import type { OutcomeInput } from "./learning/outcome.js";
import { enqueueOutcome, processReflectionQueue, type ReflectOptions, type ReflectReport } from "./learning/reflect.js";
import type { RetrievalContext } from "./retrieval/context.js";
import { injectForContext, type InjectOptions, type InjectResult } from "./retrieval/inject.js";
import { recallForContext, type RecallOptions } from "./retrieval/recall.js";
import type { ScoredEntry } from "./retrieval/score.js";
import { openTiers, storeFor, type Services } from "./services.js";
import { SqliteStore } from "./store/sqlite-store.js";
import type { EntryFilter, ListOptions, QueuedOutcome, QueueStatus, SourceUsage, Store } from "./store/store.js";

export interface OpenCairnOptions {
  /** The project whose swarm tier lives in `<projectDir>/.swarm/cairn.db`. */
  projectDir: string;
  /** Hive database file; default `CAIRN_HIVE`, then config `hive_path`, then the platform data dir. */
  hivePath?: string;
  /** Overrides merged over the user and project config files. */
  config?: ConfigInput;
  /** Who performs writes by default (`human:cli`, `agent:coder`, …). */
  actor?: string;
  env?: NodeJS.ProcessEnv;
  /** Clock for lifecycle rules; tests move it forward instead of waiting. */
  now?: () => Date;
}

export interface AddOptions {
  tier?: Tier;
  actor?: string;
}

export interface RecallHit {
  entry: Entry;
  tier: Tier;
  score: number;
  breakdown: ScoredEntry["breakdown"];
}

export interface ListFilter extends EntryFilter, ListOptions {
  tier?: Tier | "all";
}

export interface TierStats {
  tier: Tier;
  location: string;
  total: number;
  by_status: Partial<Record<Status, number>>;
  shown: number;
  applied: number;
  rejected_recent: number;
  /** applied / shown per creator kind (agent, human, import, …). */
  application_rate: Array<SourceUsage & { rate: number | null }>;
  /** Entries flagged for review: low utility after enough retrievals. */
  flagged: number;
}

export interface Stats {
  project: ProjectIdentity;
  tiers: TierStats[];
  queue: Partial<Record<QueueStatus, number>>;
}

export interface PhaseCompleteReport {
  sweep: SweepReport[];
  promotions: PromotionResult[];
}

/** Resolves where the hive lives: explicit option, env, config, platform default. */
export function resolveHivePath(opts: { hivePath?: string; env?: NodeJS.ProcessEnv }, config: CairnConfig): string {
  const env = opts.env ?? process.env;
  return path.resolve(opts.hivePath ?? env.CAIRN_HIVE ?? config.hive_path ?? path.join(platformDataDir(env), "hive.db"));
}

export class Cairn {
  readonly config: CairnConfig;
  readonly project: ProjectIdentity;
  readonly swarmPath: string;
  readonly hivePath: string | undefined;
  /** Where the effective config came from (files, env, options), lowest precedence first. */
  readonly configSources: string[];
  private readonly services: Services;
  private readonly actor: string;
  private readonly env: NodeJS.ProcessEnv;
  private closed = false;

  /** Use `openCairn()`; the constructor opens both databases synchronously. */
  constructor(opts: OpenCairnOptions) {
    const projectDir = path.resolve(opts.projectDir);
    const loaded = loadConfig({ projectDir, overrides: opts.config, env: opts.env ?? process.env });
    this.config = loaded.config;
    this.configSources = loaded.sources;
    this.project = resolveProject(projectDir);
    this.actor = opts.actor ?? "human:cli";
    this.env = opts.env ?? process.env;
    this.swarmPath = path.join(projectDir, this.config.swarm_dir, "cairn.db");
    const driverOpts = { busyTimeoutMs: this.config.busy_timeout_ms };
    const swarm = new SqliteStore(this.swarmPath, "swarm", driverOpts);
    let hive: Store | undefined;
    if (this.config.knowledge.hive_enabled) {
      this.hivePath = resolveHivePath(opts, this.config);
      if (this.hivePath === this.swarmPath) throw new CairnError("INVALID_CONFIG", "The hive path must differ from the project's swarm database.");
      hive = new SqliteStore(this.hivePath, "hive", driverOpts);
    }
    this.services = { swarm, hive, config: this.config, project: this.project, now: opts.now ?? (() => new Date()) };
  }

  /** Records a lesson through the gates and dedup. A duplicate reinforces the entry it matches. */
  add(input: NewEntryInput, opts: AddOptions = {}): Promise<WriteResult> {
    return writeLesson(this.services, input, { tier: opts.tier ?? "swarm", actor: opts.actor ?? this.actor, source: "add" });
  }

  /** Lessons matching a query (or a whole context), best first. Retired entries only when asked for. */
  async recall(query: string | RetrievalContext, opts: RecallOptions = {}): Promise<RecallHit[]> {
    const ctx = typeof query === "string" ? { task: query } : query;
    const ranked = await recallForContext(this.services, ctx, opts);
    return ranked.map((r) => ({ entry: r.entry, tier: r.entry.tier, score: r.score, breakdown: r.breakdown }));
  }

  /** The block to inject for an agent turn, within the budget regime; its entries are counted as shown. */
  inject(context: RetrievalContext, opts: InjectOptions = {}): Promise<InjectResult> {
    return injectForContext(this.services, context, opts);
  }

  /** One entry by id, handle (S-12, H-3) or imported id, from either tier. */
  async get(ref: string): Promise<Entry> {
    return (await locate(this.services, ref)).entry;
  }

  async list(filter: ListFilter = {}): Promise<Entry[]> {
    const { tier = "all", limit = 50, offset = 0, order, ...f } = filter;
    const stores = openTiers(this.services).filter((s) => tier === "all" || s.tier === tier);
    const lists = (await Promise.all(stores.map((s) => s.listEntries(f, { limit: limit + offset, order })))).flat();
    // Merge the tiers in the same order each returned them in.
    const key = (e: Entry) => (order === "confidence" ? -e.lifecycle.confidence : order === "oldest" ? Date.parse(e.created_at) : -Date.parse(e.created_at));
    return lists.sort((a, b) => key(a) - key(b)).slice(offset, offset + limit);
  }

  /** Entries whose utility fell to the review threshold after enough retrievals (`cairn list --flagged`). */
  async flagged(tier: Tier | "all" = "all", limit = 100): Promise<Entry[]> {
    const k = this.config.knowledge;
    const out: Entry[] = [];
    for (const store of openTiers(this.services).filter((s) => tier === "all" || s.tier === tier)) {
      const rows = await store.listEntries(
        { statuses: LIVE_STATUSES, maxUtility: k.low_utility_threshold, minShown: k.min_retrievals_for_utility },
        { limit },
      );
      out.push(...rows.filter((e) => (utilityOf(e) ?? 1) <= k.low_utility_threshold));
    }
    return out.slice(0, limit);
  }

  quarantine(ref: string, reason: string, actor = this.actor): Promise<Entry> {
    return quarantineEntry(this.services, ref, reason, actor);
  }

  restore(ref: string, actor = this.actor): Promise<Entry> {
    return restoreEntry(this.services, ref, actor);
  }

  archive(ref: string, reason?: string, actor = this.actor): Promise<Entry> {
    return archiveEntry(this.services, ref, reason, actor);
  }

  /** Deletes from whichever tier holds it; promoted or approved entries need `force`. */
  remove(ref: string, opts: { force?: boolean; reason?: string; actor?: string } = {}): Promise<Entry> {
    return removeEntry(this.services, ref, { force: opts.force, reason: opts.reason, actor: opts.actor ?? this.actor });
  }

  /** Promotes a swarm entry (by id) or a new lesson text to the hive through the hive gate. */
  promote(what: { id: string } | { lesson: NewEntryInput }, actor = this.actor): Promise<PromotionResult> {
    return "id" in what ? promoteEntry(this.services, what.id, actor) : promoteText(this.services, what.lesson, actor);
  }

  /** Marks `oldRef` superseded by `replacement` (an existing ref, or a new lesson added first). */
  async supersede(oldRef: string, replacement: string | NewEntryInput, actor = this.actor): Promise<{ old: Entry; replacement: Entry }> {
    let newRef: string;
    if (typeof replacement === "string") newRef = replacement;
    else {
      const old = await this.get(oldRef);
      const r = await writeLesson(this.services, replacement, { tier: old.tier, actor, source: "add" });
      if (r.action === "rejected" || !r.id) throw new CairnError("REJECTED", `Replacement rejected: ${r.reason}`, { issues: r.issues });
      newRef = r.id;
    }
    return supersedeEntry(this.services, oldRef, newRef, actor);
  }

  /** The TTL sweep alone (what `cairn sweep` runs). */
  sweep(opts: { phase?: string; actor?: string } = {}): Promise<SweepReport[]> {
    return sweepExpiredEntries(this.services, opts);
  }

  /** Phase completion: the sweep, then the automatic promotions. */
  async completePhase(phase?: string, actor = "cairn:phase"): Promise<PhaseCompleteReport> {
    const sweep = await sweepExpiredEntries(this.services, { phase, actor });
    const promotions = await promoteDueEntries(this.services, actor);
    return { sweep, promotions };
  }

  feedback(ref: string, verdict: Verdict, note?: string, actor = this.actor): Promise<Entry> {
    return recordFeedback(this.services, ref, verdict, actor, note);
  }

  /**
   * Records a task outcome. It is enqueued durably and processed in the background (the
   * caller never waits): implicit feedback to the entries shown, and lessons extracted.
   */
  async recordOutcome(outcome: OutcomeInput): Promise<{ id: string; queued: boolean }> {
    const r = await enqueueOutcome(this.services, outcome);
    if (this.config.learning.reflect_in_background) this.scheduleReflection();
    return r;
  }

  /** Drains the reflection queue now (what `cairn reflect` runs). */
  reflect(opts: ReflectOptions = {}): Promise<ReflectReport> {
    const l = this.config.learning;
    const arbiter = l.llm_url ? createArbiter({ url: l.llm_url, model: l.llm_model, apiKeyEnv: l.llm_api_key_env, timeoutMs: l.llm_timeout_ms }, this.env) : undefined;
    return processReflectionQueue(this.services, { maxAttempts: l.reflection_max_attempts, ...(arbiter ? { arbiter } : {}), ...opts });
  }

  async queue(status: QueueStatus = "dead", limit = 50): Promise<{ counts: Partial<Record<QueueStatus, number>>; items: QueuedOutcome[] }> {
    return { counts: await this.services.swarm.queueCounts(), items: await this.services.swarm.listQueue(status, limit) };
  }

  private reflecting: Promise<unknown> | undefined;
  private scheduleReflection(): void {
    if (this.reflecting || this.closed) return;
    this.reflecting = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (this.closed ? undefined : this.reflect()))
      .catch((e: unknown) => process.stderr.write(`cairn: background reflection failed: ${(e as Error).message}\n`))
      .finally(() => {
        this.reflecting = undefined;
      });
  }

  importFile(file: string, opts: ImportOptions = {}): Promise<ImportReport> {
    return importFile(this.services, path.resolve(file), { actor: `import:${this.actor}`, ...opts });
  }

  /** Writes every entry of the chosen tier(s) as lossless JSONL (atomic rename). */
  async exportFile(file: string, opts: { format?: "cairn" | "jsonl"; tier?: Tier | "all" } = {}): Promise<{ written: number }> {
    const tier = opts.tier ?? "all";
    const stores = openTiers(this.services).filter((s) => tier === "all" || s.tier === tier);
    async function* all(): AsyncIterable<Entry> {
      for (const s of stores) yield* s.iterateEntries();
    }
    return writeExport(path.resolve(file), all(), { format: opts.format ?? "cairn" });
  }

  async history(ref: string): Promise<EntryEvent[]> {
    const loc = await locate(this.services, ref);
    return loc.store.listEvents(loc.entry.id, 1000);
  }

  rejected(tier: Tier = "swarm", limit = 50): Promise<RejectedLesson[]> {
    return storeFor(this.services, tier).listRejected(limit);
  }

  async stats(): Promise<Stats> {
    const tiers: TierStats[] = [];
    for (const store of openTiers(this.services)) {
      const by_status: TierStats["by_status"] = {};
      for (const st of STATUSES) {
        const n = await store.countEntries({ statuses: [st] });
        if (n) by_status[st] = n;
      }
      const bySource = await store.usageBySource();
      const shown = bySource.reduce((a, b) => a + b.shown, 0);
      const applied = bySource.reduce((a, b) => a + b.applied, 0);
      tiers.push({
        tier: store.tier,
        location: store.location,
        total: await store.totalEntries(),
        by_status,
        shown,
        applied,
        rejected_recent: (await store.listRejected(1000)).length,
        application_rate: bySource.map((b) => ({ ...b, rate: b.shown ? b.applied / b.shown : null })),
        flagged: (await this.flagged(store.tier, 1000)).length,
      });
    }
    return { project: this.project, tiers, queue: await this.services.swarm.queueCounts() };
  }

  /** Health of both databases: integrity, schema, counts, where they live. */
  async doctor(): Promise<Array<{ tier: Tier; location: string; integrity: string; entries: number; schema_version: number }>> {
    const out = [];
    for (const store of openTiers(this.services)) {
      out.push({
        tier: store.tier,
        location: store.location,
        integrity: await store.integrityCheck(),
        entries: await store.totalEntries(),
        schema_version: await store.schemaVersion(),
      });
    }
    return out;
  }

  /** Category/status filters parse here so faces do not re-implement them. */
  static parseStatuses(list: string | undefined): Status[] | undefined {
    if (!list) return undefined;
    const values = list.split(",").map((s) => s.trim()).filter(Boolean);
    const bad = values.filter((v) => !(STATUSES as readonly string[]).includes(v));
    if (bad.length) throw new CairnError("INVALID_INPUT", `Unknown status ${bad.join(", ")}; use ${STATUSES.join(", ")}.`);
    return values as Status[];
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.reflecting;
    await this.services.swarm.close();
    await this.services.hive?.close();
  }
}

/** Opens (creating if needed, and migrating) the project's swarm database and the user's hive. */
export async function openCairn(opts: OpenCairnOptions): Promise<Cairn> {
  return new Cairn(opts);
}
