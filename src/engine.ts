// The Cairn facade: every operation a face (CLI, OpenCode plugin, MCP server) may call, in one place.
import path from "node:path";
import { LIVE_STATUSES, STATUSES, type Entry, type EntryEvent, type NewEntryInput, type RejectedLesson, type Status, type Tier } from "./core/entry.js";
import { resolveProject, type ProjectIdentity } from "./core/project.js";
import { loadConfig, platformDataDir, type CairnConfig, type ConfigInput } from "./config.js";
import { CairnError, NotFoundError } from "./errors.js";
import { validateEntryRef } from "./core/ids.js";
import { isHumanActor } from "./governance/actors.js";
import { checkAdvisories, type Advisory, type AdvisoryQuery } from "./governance/advisories.js";
import { approveEntry, rejectEntry, type ApprovalResult } from "./governance/approval.js";
import { editEntry, type EditResult } from "./governance/edit.js";
import { proposeGuardrail, type GuardrailProposal } from "./governance/guardrail.js";
import { governanceMetrics, type GovernanceMetrics } from "./governance/metrics.js";
import { attachMirror, pullMirror, rebuildMirror, type MirrorReport, type PullReport } from "./governance/mirror.js";
import { markPrevented } from "./governance/prevention.js";
import { relatedEntries, type RelatedHit, type RelatedQuery } from "./governance/related.js";
import type { LessonFields } from "./governance/structured.js";
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
  private readonly detachMirror: (() => void) | undefined;

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
    this.detachMirror = this.config.governance.mirror.enabled ? attachMirror(this.services) : undefined;
  }

  /** Drafts wait for a person: to any other actor (agents, MCP clients) a draft does not exist. */
  private async visibleEntry(ref: string, actor: string): Promise<Entry> {
    const { entry } = await locate(this.services, ref);
    if (entry.lifecycle.status === "draft" && !isHumanActor(actor)) throw new NotFoundError(validateEntryRef(ref));
    return entry;
  }

  private async hideDraft(ref: string, actor: string): Promise<void> {
    if (!isHumanActor(actor)) await this.visibleEntry(ref, actor);
  }

  private visibleStatuses(statuses: readonly Status[] | undefined): readonly Status[] | undefined {
    if (isHumanActor(this.actor)) return statuses;
    return (statuses ?? STATUSES).filter((st) => st !== "draft");
  }

  /** Records a lesson through the gates and dedup. A duplicate reinforces the entry it matches. */
  add(input: NewEntryInput, opts: AddOptions = {}): Promise<WriteResult> {
    return writeLesson(this.services, input, { tier: opts.tier ?? "swarm", actor: opts.actor ?? this.actor, source: "add" });
  }

  /** Lessons matching a query (or a whole context), best first. Retired entries only when asked for. */
  async recall(query: string | RetrievalContext, opts: RecallOptions = {}): Promise<RecallHit[]> {
    const ctx = typeof query === "string" ? { task: query } : query;
    const statuses = opts.statuses ? this.visibleStatuses(opts.statuses) : undefined;
    const ranked = await recallForContext(this.services, ctx, statuses ? { ...opts, statuses } : opts);
    return ranked.map((r) => ({ entry: r.entry, tier: r.entry.tier, score: r.score, breakdown: r.breakdown }));
  }

  /** The block to inject for an agent turn, within the budget regime; its entries are counted as shown. */
  inject(context: RetrievalContext, opts: InjectOptions = {}): Promise<InjectResult> {
    return injectForContext(this.services, context, opts);
  }

  /** One entry by id, handle (S-12, H-3) or imported id, from either tier. */
  get(ref: string): Promise<Entry> {
    return this.visibleEntry(ref, this.actor);
  }

  async list(filter: ListFilter = {}): Promise<Entry[]> {
    const { tier = "all", limit = 50, offset = 0, order, ...rest } = filter;
    const statuses = this.visibleStatuses(rest.statuses);
    const f: EntryFilter = statuses ? { ...rest, statuses } : rest;
    const stores = openTiers(this.services).filter((s) => tier === "all" || s.tier === tier);
    const lists = (await Promise.all(stores.map((s) => s.listEntries(f, { limit: limit + offset, order })))).flat();
    // Merge the tiers in the same order each returned them in.
    const key = (e: Entry) => (order === "confidence" ? -e.lifecycle.confidence : order === "oldest" ? Date.parse(e.created_at) : -Date.parse(e.created_at));
    return lists.sort((a, b) => key(a) - key(b)).slice(offset, offset + limit);
  }

  /**
   * Entries flagged for review (`cairn list --flagged`): utility at or below the threshold after
   * enough retrievals and enough applications — a lesson agents keep following that keeps going wrong.
   */
  async flagged(tier: Tier | "all" = "all", limit = 100): Promise<Entry[]> {
    const k = this.config.knowledge;
    const out: Entry[] = [];
    for (const store of openTiers(this.services).filter((s) => tier === "all" || s.tier === tier)) {
      const rows = await store.listEntries(
        { statuses: LIVE_STATUSES, maxUtility: k.low_utility_threshold, minShown: k.min_retrievals_for_utility, minApplied: k.low_utility_min_applied },
        { limit },
      );
      out.push(...rows.filter((e) => (utilityOf(e) ?? 1) <= k.low_utility_threshold));
    }
    return out.slice(0, limit);
  }

  async quarantine(ref: string, reason: string, actor = this.actor): Promise<Entry> {
    await this.hideDraft(ref, actor);
    return quarantineEntry(this.services, ref, reason, actor);
  }

  async restore(ref: string, actor = this.actor): Promise<Entry> {
    await this.hideDraft(ref, actor);
    return restoreEntry(this.services, ref, actor);
  }

  async archive(ref: string, reason?: string, actor = this.actor): Promise<Entry> {
    await this.hideDraft(ref, actor);
    return archiveEntry(this.services, ref, reason, actor);
  }

  /** Deletes from whichever tier holds it; promoted or approved entries need `force`. */
  async remove(ref: string, opts: { force?: boolean; reason?: string; actor?: string } = {}): Promise<Entry> {
    const actor = opts.actor ?? this.actor;
    await this.hideDraft(ref, actor);
    return removeEntry(this.services, ref, { force: opts.force, reason: opts.reason, actor });
  }

  /** Promotes a swarm entry (by id) or a new lesson text to the hive through the hive gate. */
  async promote(what: { id: string } | { lesson: NewEntryInput }, actor = this.actor): Promise<PromotionResult> {
    if (!("id" in what)) return promoteText(this.services, what.lesson, actor);
    await this.hideDraft(what.id, actor);
    return promoteEntry(this.services, what.id, actor);
  }

  /**
   * Marks `oldRef` superseded by `replacement` (an existing ref, or a new lesson added first).
   * A new lesson that lands as a draft (approval required) retires the old one only when approved.
   */
  async supersede(oldRef: string, replacement: string | NewEntryInput, actor = this.actor): Promise<{ old: Entry; replacement: Entry }> {
    const old = await this.visibleEntry(oldRef, actor);
    let newRef: string;
    if (typeof replacement === "string") {
      await this.hideDraft(replacement, actor);
      newRef = replacement;
    } else {
      const r = await writeLesson(this.services, { ...replacement, supersedes: old.id }, { tier: old.tier, actor, source: "add" });
      if (r.action === "rejected" || !r.id) throw new CairnError("REJECTED", `Replacement rejected: ${r.reason}`, { issues: r.issues });
      if (r.superseded || r.status === "draft") {
        return { old: (await locate(this.services, old.id)).entry, replacement: (await locate(this.services, r.id)).entry };
      }
      newRef = r.id;
    }
    return supersedeEntry(this.services, oldRef, newRef, actor);
  }

  /** A person approves a lesson: established, approved_by/at recorded, what it supersedes retired. Agents get FORBIDDEN. */
  approve(ref: string, actor = this.actor): Promise<ApprovalResult> {
    return approveEntry(this.services, ref, actor);
  }

  /** A person rejects a draft (or candidate): archived with the reason, counted in the approval rate. */
  reject(ref: string, reason?: string, actor = this.actor): Promise<Entry> {
    return rejectEntry(this.services, ref, reason, actor);
  }

  /** A person edits a lesson's fields (those named replace the current ones), through the write gates. */
  edit(ref: string, fields: LessonFields, actor = this.actor, via = "api"): Promise<EditResult> {
    return editEntry(this.services, ref, fields, actor, via);
  }

  /**
   * Vetted lessons whose file globs or detection patterns match what an agent is about to do — the
   * pre-action hook. Cheap when nothing changed (one counter read per tier); matches count as consultations.
   */
  checkAdvisories(query: AdvisoryQuery): Promise<Advisory[]> {
    return checkAdvisories(this.services, query, this.actor);
  }

  /** Counts a prevention for entries whose advisory made the agent change course. */
  async markPrevented(refs: string | readonly string[], opts: { actor?: string; note?: string } = {}): Promise<number> {
    const list = typeof refs === "string" ? [refs] : refs;
    const actor = opts.actor ?? this.actor;
    for (const ref of list) await this.hideDraft(ref, actor);
    return markPrevented(this.services, list, actor, opts.note ? { note: opts.note.slice(0, 300) } : {});
  }

  /** Vetted entries that apply to files (glob match) and tags (overlap), for this project. */
  related(query: RelatedQuery): Promise<RelatedHit[]> {
    return relatedEntries(this.services, query);
  }

  /** Writes `.swarm/guardrails/<handle>-<slug>.md` from the entry's suggested guardrail. */
  proposeGuardrail(ref: string, opts: { force?: boolean } = {}): Promise<GuardrailProposal> {
    return proposeGuardrail(this.services, ref, opts);
  }

  /** Rewrites the Markdown mirror from the databases (whether or not sync is enabled). */
  rebuildMirror(): Promise<MirrorReport> {
    return rebuildMirror(this.services);
  }

  /** Applies edits made in the Markdown mirror; conflicts with newer database versions are reported, not applied. */
  pullMirror(actor = this.actor): Promise<PullReport> {
    return pullMirror(this.services, actor);
  }

  /** The Knowledge Objects success metrics (`cairn stats --governance`). */
  governanceStats(): Promise<GovernanceMetrics> {
    return governanceMetrics(this.services);
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

  /** The automatic promotions alone (explicit, fast-track, age), e.g. for `/swarm curate`. */
  promoteDue(actor = "cairn:promoter"): Promise<PromotionResult[]> {
    return promoteDueEntries(this.services, actor);
  }

  async feedback(ref: string, verdict: Verdict, note?: string, actor = this.actor): Promise<Entry> {
    await this.hideDraft(ref, actor);
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
    const entry = await this.visibleEntry(ref, this.actor);
    return storeFor(this.services, entry.tier).listEvents(entry.id, 1000);
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
    this.detachMirror?.();
    await this.services.swarm.close();
    await this.services.hive?.close();
  }
}

/** Opens (creating if needed, and migrating) the project's swarm database and the user's hive. */
export async function openCairn(opts: OpenCairnOptions): Promise<Cairn> {
  return new Cairn(opts);
}
