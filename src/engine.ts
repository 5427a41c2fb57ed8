// The Cairn facade: every operation a face (CLI, OpenCode plugin, MCP server) may call, in one place.
// Modules that only some operations need (import/export, mirror, advisories, reflection, the write path) are
// imported inside those operations, so opening the engine for a read does not load them.
import path from "node:path";
import fs from "node:fs";
import { STATUSES, expandStatuses, parseStatuses, type Entry, type StatusFilter, type EntryEvent, type RejectedLesson, type Status, type Tier } from "./core/entry.js";
import { ownCategory, type LessonInput } from "./core/categories.js";
import { relativeToProject } from "./core/project-glob.js";
import { resolveProject, type ProjectIdentity } from "./core/project.js";
import { detectTechStack } from "./core/tech-stack.js";
import { loadConfig, platformDataDir, type CairnConfig, type ConfigInput, type ConfigProblem } from "./config.js";
import { CairnError, isUnavailable, KnowledgeDisabledError, NotFoundError, type DatabaseDamagedError } from "./errors.js";
import { nearestExistingAncestor } from "./core/folders.js";
import { assertQuery } from "./core/query-limit.js";
import { damagedDoctorMessage, isDamaged, noticeOnce, readOnlyTierMessage } from "./store/faults.js";
import type { RepairReport } from "./store/repair.js";
import { isEntryRef, validateEntryRef } from "./core/ids.js";
import { assertHuman, isHumanActor } from "./governance/actors.js";
import type { Advisory, AdvisoryQuery } from "./governance/advisories.js";
import type { BrowsePage, BrowseQuery } from "./governance/browse.js";
import type { Dashboard } from "./governance/dashboard.js";
import type { EntryLinks } from "./core/entry-links.js";
import type { LessonDetail } from "./governance/lesson-detail.js";
import type { Neighbour, ReviewQueue } from "./governance/queue.js";
import { approveEntries, approveEntry, rejectEntry, type ApprovalResult, type DecisionOptions } from "./governance/approval.js";
import type { EditOptions, EditResult } from "./governance/edit.js";
import type { GuardrailProposal } from "./governance/guardrail.js";
import type { GovernanceMetrics } from "./governance/metrics.js";
import type { ApprovalConsent, MirrorReport, PullReport } from "./governance/mirror.js";
import type { RelatedHit, RelatedQuery } from "./governance/related.js";
import type { LessonFields } from "./governance/structured.js";
import type { ImportOptions, ImportReport } from "./io/import-file.js";
import { recordFeedback, type Verdict } from "./lifecycle/feedback.js";
import type { PromotionResult } from "./lifecycle/promote.js";
import { actsForPerson, archiveEntry, assertAgentMayReplace, assertNotSuperseded, hiddenFrom, locate, protectedFrom, quarantineEntry, removeEntry, restoreEntry, retiredBy, supersedeEntry, type StatusChange } from "./lifecycle/status.js";
import { carriedFromSuperseded, withSupersededFields } from "./lifecycle/supersede-carry.js";
import type { SweepReport } from "./lifecycle/sweep.js";
import type { ListedLesson } from "./governance/list-tiers.js";
import type { WriteResult } from "./lifecycle/write.js";
import type { OutcomeInput } from "./learning/outcome.js";
import type { ReflectOptions, ReflectReport } from "./learning/reflect.js";
import type { RetrievalContext } from "./retrieval/context.js";
import type { InjectOptions, InjectResult } from "./retrieval/inject.js";
import { recallForContext, type RecallOptions } from "./retrieval/recall.js";
import type { ScoredEntry } from "./retrieval/score.js";
import { openTiers, storeFor, tiersAsked, type Services } from "./services.js";
import { SqliteStore } from "./store/sqlite-store.js";
import type { ReplayReport } from "./hive/outbox.js";
import type { TeamHiveStore } from "./hive/team-hive.js";
import { assertHiveFileNotUrl, maskUrl, resolveHiveUrl } from "./store/pg/url.js";
import { assertNotOtherFile } from "./store/sqlite-file.js";
import { lazyModule } from "./core/lazy.js";
import type { EntryFilter, ListOptions, OutboxItem, QueuedOutcome, QueueStatus, SourceUsage, Store, VectorSpace } from "./store/store.js";
import { embeddingFor } from "./embed/service.js";
import { attachEmbedding, reindexStore, vectorStatus, type ReindexProgress, type ReindexReport, type VectorStatus } from "./embed/entry-vectors.js";
import { countsByStatus, sumTallies, usageBySourceOf } from "./store/tallies.js";
import { asCall } from "./store/between-calls.js";

export interface OpenCairnOptions {
  /** The project whose swarm tier lives in `<projectDir>/.swarm/cairn.db`. */
  projectDir: string;
  /**
   * Hive database file (default `CAIRN_HIVE`, then config `hive_path`, then the platform data dir),
   * or a team database URL `postgres://…` (default: config `hive_url`, env `CAIRN_HIVE_URL`).
   */
  hivePath?: string;
  /** Overrides merged over the user and project config files. */
  config?: ConfigInput;
  /** Who performs writes by default (`human:cli`, `agent:coder`, …). */
  actor?: string;
  env?: NodeJS.ProcessEnv;
  /** Clock for lifecycle rules; tests move it forward instead of waiting. */
  now?: () => Date;
  /**
   * Create the project's `.swarm/cairn.db` when it does not exist (default true). Read-only callers
   * (the CLI's recall, list, stats…) pass false: a folder with no database then gets none, and the
   * project tier answers as empty (an in-memory store; anything written to it is discarded).
   */
  createSwarm?: boolean;
  /**
   * Open even when a config file or env layer is invalid: that layer is left out and said in
   * `configProblems` (`cairn doctor`, which a person runs when things are broken). Default false:
   * every other command refuses to run on a config it cannot honour.
   */
  lenientConfig?: boolean;
  /** The caller reports damaged tiers itself (`cairn doctor`): no "Working without…" notice on stderr. */
  quietDamage?: boolean;
  /**
   * Whether the missing folders of a hive path chosen by a setting (`--hive`, CAIRN_HIVE, hive_path) are
   * created. Default true for a program embedding Cairn (the library, the opencode plugin: a configured
   * path is made, as any library makes its data folder). The CLI and `cairn ui` pass false, so a typo a
   * person just typed does not quietly start a new empty hive; `cairn init`, asked to set things up,
   * passes true. The platform data folder is always created on first use.
   */
  createHiveFolder?: boolean;
}

export interface AddOptions {
  tier?: Tier;
  actor?: string;
}

export interface RecallHit {
  entry: Entry;
  tier: Tier;
  /**
   * 1-based position in the answer. The order is best first after diversity (MMR): a lesson that
   * restates one above it gives way to a different one, so `score` need not fall from rank to rank.
   */
  rank: number;
  score: number;
  breakdown: ScoredEntry["breakdown"];
  /**
   * Cosine of the lesson's vector to the query's (the semantic part of `breakdown`), when vectors were
   * searched; an endpoint model's read on the built-in model's scale (embed/calibration.ts).
   */
  similarity?: number;
}

export interface ListFilter extends Omit<EntryFilter, "statuses">, ListOptions {
  tier?: Tier | "all";
  /** Statuses, or a name for a set of them (approved, active: STATUS_ALIASES). */
  statuses?: readonly StatusFilter[];
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
  /** Vectors per model, and whether `cairn reindex` is needed. */
  vectors?: VectorStatus;
}

/** `cairn stats` counts rejected and flagged lessons up to this (then stops reading). */
const STATS_CAP = 1000;

export interface Stats {
  project: ProjectIdentity;
  tiers: TierStats[];
  queue: Partial<Record<QueueStatus, number>>;
}

export interface DoctorTier {
  tier: Tier;
  kind: "sqlite" | "postgres";
  location: string;
  integrity: string;
  entries: number;
  schema_version: number;
  /** Team hive only: whether it answered, and how long a round trip took. */
  reachable?: boolean;
  latency_ms?: number;
  error?: string;
  /** On the project tier: hive writes waiting in its outbox (pending) and parked for a person (dead). */
  outbox?: { pending: number; dead: number; oldest?: string };
  /** Why this user cannot write the file (it was opened read-only: reads work, writes are refused). */
  read_only?: string;
  /** The file is damaged: `cairn doctor --repair` salvages what can be read into a fresh file. */
  damaged?: boolean;
  /** Vectors per model, and whether `cairn reindex` is needed. */
  vectors?: VectorStatus;
}

export interface PhaseCompleteReport {
  sweep: SweepReport[];
  promotions: PromotionResult[];
}

/** Resolves where the hive lives: explicit option, env, config, platform default. */
export function resolveHivePath(opts: { hivePath?: string; env?: NodeJS.ProcessEnv }, config: CairnConfig): string {
  const env = opts.env ?? process.env;
  // An empty CAIRN_HIVE is unset, as the config reads it (`CAIRN_HIVE= cairn …` once opened the working directory).
  const chosen = opts.hivePath || env.CAIRN_HIVE || config.hive_path;
  if (chosen !== undefined) assertHiveFileNotUrl(chosen, hivePathSetting(opts, config));
  return path.resolve(chosen ?? path.join(platformDataDir(env), "hive.db"));
}

/** Which setting chose the hive file, in the words a person changes it by. */
function hivePathSetting(opts: { hivePath?: string; env?: NodeJS.ProcessEnv }, config: CairnConfig): string {
  if (opts.hivePath) return "--hive";
  if ((opts.env ?? process.env).CAIRN_HIVE) return "CAIRN_HIVE";
  return config.hive_path ? "hive_path in the config" : "the platform data folder";
}

/** A path's stat, or undefined when there is nothing there (ENOENT, or ENOTDIR: a file stands in the way). */
function statOf(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
}

/** A hive path that can never be a database file (a folder, or a path through a file) is a setting to fix, said as such. */
function assertHiveFilePath(file: string, setting: string): void {
  if (statOf(file)?.isDirectory()) {
    throw new CairnError("INVALID_CONFIG", `The hive path ${file} (from ${setting}) is a folder; it must name a database file, e.g. ${path.join(file, "hive.db")}.`);
  }
  // The nearest existing ancestor must be a folder, or the hive's folder can never be created.
  const dir = nearestExistingAncestor(path.dirname(file));
  if (dir && !statOf(dir)?.isDirectory()) {
    throw new CairnError("INVALID_CONFIG", `The hive path ${file} (from ${setting}) cannot be created: ${dir} is a file, not a folder. Point ${setting} at a file inside a folder.`);
  }
}

/**
 * A hive path chosen by a setting names a file in a folder that exists: a mistyped path would otherwise
 * become a new, empty hive, and the user's lessons would seem to vanish. The default platform folder is
 * Cairn's own and is made on first use.
 */
function assertChosenHiveFolderExists(file: string, opts: { hivePath?: string; env?: NodeJS.ProcessEnv }, config: CairnConfig): void {
  const setting = hivePathSetting(opts, config);
  if (setting === "the platform data folder" || statOf(path.dirname(file))) return;
  const dir = path.dirname(file);
  const shown = /^[\w./:\\-]+$/.test(dir) ? dir : JSON.stringify(dir);
  throw new CairnError(
    "INVALID_CONFIG",
    `The hive path ${file} (from ${setting}) is in a folder that does not exist: ${dir}. Check ${setting} for a typo; to start a new hive there, create the folder first (mkdir -p ${shown}) or run cairn init with the same setting.`,
    { path: file },
  );
}

/**
 * Entries an agent never reads, whatever it asks for: drafts wait for a person; quarantined entries are
 * suspect, and seed 000's rule is that they are excluded from reads so they cannot influence a prompt.
 */
const HIDDEN_FROM_AGENTS: readonly Status[] = ["draft", "quarantined"];

// The hot operations' lazily loaded modules, held once loaded (see core/lazy.ts: import() per call cost a turn of the event loop).
const injectModule = lazyModule(() => import("./retrieval/inject.js"));
const writeModule = lazyModule(() => import("./lifecycle/write.js"));
const outboxModule = lazyModule(() => import("./hive/outbox.js"));

/** Opens one tier; a damaged file is recorded in `faults` (and said once on stderr) instead of stopping the other tier. */
function openTier(open: () => SqliteStore, faults: Partial<Record<Tier, DatabaseDamagedError>>, tier: Tier, quiet = false): SqliteStore | undefined {
  try {
    return open();
  } catch (e) {
    if (!isDamaged(e)) throw e;
    faults[tier] = e;
    if (!quiet) noticeOnce(`damaged:${e.details.path}`, `${e.message} Working without the ${tier} tier until then.`);
    return undefined;
  }
}

/** An empty in-memory swarm tier standing in for a damaged file: reads answer empty, writes fail with the damage. */
function damagedStandIn(file: string, fault: DatabaseDamagedError): SqliteStore {
  const store = new SqliteStore(":memory:", "swarm", {}, file);
  store.driver.refuseWrites(fault);
  return store;
}

export class Cairn {
  readonly config: CairnConfig;
  readonly project: ProjectIdentity;
  readonly swarmPath: string;
  /** The hive file, when the hive is a file. */
  readonly hivePath: string | undefined;
  /** Where the hive lives, as it may be shown: the file, or the team database URL with its password masked. */
  readonly hiveLocation: string | undefined;
  private readonly teamHiveUrl: string | undefined;
  /** Where the effective config came from (files, env, options), lowest precedence first. */
  readonly configSources: string[];
  /** Config layers left out because they do not read or validate (only with `lenientConfig`). */
  readonly configProblems: ConfigProblem[];
  private readonly services: Services;
  private readonly actor: string;
  private readonly env: NodeJS.ProcessEnv;
  private closed = false;
  private detachMirror: (() => void) | undefined;
  /** Embedding subscriptions per open tier (vectors follow every write). */
  private readonly embedders: Array<{ detach: () => void; drain: () => Promise<void> }> = [];

  /** Use `openCairn()`; the constructor opens both databases synchronously. */
  constructor(opts: OpenCairnOptions) {
    const projectDir = path.resolve(opts.projectDir);
    const loaded = loadConfig({ projectDir, overrides: opts.config, env: opts.env ?? process.env, ...(opts.lenientConfig ? { lenient: true } : {}) });
    this.config = loaded.config;
    this.configSources = loaded.sources;
    this.configProblems = loaded.problems;
    this.project = resolveProject(projectDir);
    this.actor = opts.actor ?? "human:cli";
    this.env = opts.env ?? process.env;
    this.swarmPath = path.join(projectDir, this.config.swarm_dir, "cairn.db");
    const driverOpts = { busyTimeoutMs: this.config.busy_timeout_ms };
    const faults: Partial<Record<Tier, DatabaseDamagedError>> = {};
    // swarm_dir naming another application's folder: its cairn.db is not ours to migrate.
    const swarmFrom = { setting: `swarm_dir (${this.config.swarm_dir})`, instead: `set swarm_dir to a folder of Cairn's own (the default is .swarm)` };
    assertNotOtherFile(this.swarmPath, swarmFrom.setting, swarmFrom.instead);
    // Looking must not leave files behind: with nothing on disk a read session gets an empty tier.
    // A damaged file gets the same empty stand-in, which refuses writes with the damage: the hive keeps answering.
    const swarm =
      opts.createSwarm === false && !fs.existsSync(this.swarmPath)
        ? new SqliteStore(":memory:", "swarm", driverOpts, this.swarmPath)
        : (openTier(() => new SqliteStore(this.swarmPath, "swarm", { ...driverOpts, from: swarmFrom }), faults, "swarm", opts.quietDamage) ?? damagedStandIn(this.swarmPath, faults.swarm!));
    let hive: Store | undefined;
    if (this.config.knowledge.hive_enabled) {
      this.teamHiveUrl = resolveHiveUrl(opts.hivePath, this.config);
      if (this.teamHiveUrl) {
        // Opened by start(), which openCairn awaits.
        this.hiveLocation = maskUrl(this.teamHiveUrl);
      } else {
        this.hivePath = resolveHivePath(opts, this.config);
        if (this.hivePath === this.swarmPath) throw new CairnError("INVALID_CONFIG", "The hive path must differ from the project's swarm database.");
        const setting = hivePathSetting(opts, this.config);
        assertHiveFilePath(this.hivePath, setting);
        assertNotOtherFile(this.hivePath, setting);
        if (opts.createHiveFolder === false) assertChosenHiveFolderExists(this.hivePath, opts, this.config);
        const hivePath = this.hivePath;
        // A damaged hive is left out (with one notice): the project's own lessons keep working.
        hive = openTier(() => new SqliteStore(hivePath, "hive", { ...driverOpts, from: { setting } }), faults, "hive", opts.quietDamage);
        this.hiveLocation = hivePath;
      }
    }
    const embedding = embeddingFor(this.config.embedding, this.env);
    this.services = { swarm, hive, config: this.config, project: this.project, now: opts.now ?? (() => new Date()), faults, ...(embedding ? { embedding } : {}) };
  }

  /**
   * Work `openCairn` does after the databases are open. Modules most sessions never use load here
   * only when enabled: the Markdown mirror, and the team hive's code with its PostgreSQL driver.
   */
  async start(): Promise<this> {
    if (this.teamHiveUrl && !this.services.hive) {
      // A team database: connected lazily, so opening Cairn never waits on the network.
      const { openTeamHive } = await import("./hive/open.js");
      const { replayOutbox } = await import("./hive/outbox.js");
      const team = openTeamHive(this.teamHiveUrl, this.config, this.services.swarm);
      team.setReplayer(() => replayOutbox(this.services, team.remote));
      this.services.hive = team;
    }
    if (this.services.embedding && this.embedders.length === 0) {
      for (const store of openTiers(this.services)) this.embedders.push(attachEmbedding(store, this.services.embedding, this.config.embedding.batch_size));
    }
    if (this.config.governance.mirror.enabled && !this.detachMirror) {
      const { attachMirror } = await import("./governance/mirror.js");
      this.detachMirror = attachMirror(this.services);
    }
    return this;
  }

  private warming: Promise<void> | undefined;
  /**
   * Primes what the first add, recall and inject of a process would otherwise pay (module loading,
   * prepared statements, term statistics, the JIT). Read-only and best effort; once per engine.
   * For long-running faces, called off the hot path after open — never by the CLI, whose one call
   * would only pay it twice.
   */
  warm(): Promise<void> {
    // The hot operations' own module handles too: an add or inject that still has to settle its
    // import() can wait on the loader (12 ms idle seen in one first add's profile under tsx).
    this.warming ??= Promise.all([import("./warm.js"), injectModule(), writeModule(), ...(this.teamHiveUrl ? [outboxModule()] : [])])
      .then(([{ warmServices }]) => (this.closed ? undefined : warmServices(this.services)))
      .catch(() => undefined);
    return this.warming;
  }

  private stack?: string[];

  /** The project's tech stack, read once from its root manifests (core/tech-stack.ts), for faces with no stack to give. */
  techStack(): readonly string[] {
    return (this.stack ??= detectTechStack(this.project.dir));
  }

  /** The team hive wrapper, when the hive is a PostgreSQL database (opened by start()). */
  private teamHive(): TeamHiveStore | undefined {
    return this.teamHiveUrl ? (this.services.hive as TeamHiveStore | undefined) : undefined;
  }

  /**
   * The master switch (knowledge.enabled). Off means off: nothing is injected (inject checks it),
   * the tools answer that knowledge is disabled (src/tools), no advisory is given, and every write
   * of lessons, feedback or outcomes below refuses with DISABLED — whoever calls, curator included —
   * as does machine curation (the sweep, automatic promotion). Reads, review (edit, archive,
   * quarantine, restore, remove) and imports stay open to a person, and to no one else.
   */
  get enabled(): boolean {
    return this.config.knowledge.enabled;
  }

  /**
   * The tiers left out because their SQLite file is damaged (said once on stderr when opened), with the
   * message that sends a person to `cairn doctor`: for faces whose users never see that stderr line.
   */
  damagedTiers(): Array<{ tier: Tier; path: string; message: string }> {
    const faults = this.services.faults ?? {};
    return (["swarm", "hive"] as const).flatMap((tier) => {
      const f = faults[tier];
      return f ? [{ tier, path: f.details.path, message: f.message }] : [];
    });
  }

  /**
   * The tiers opened read-only for this user (reads work, usage counters and writes do not: said once on
   * stderr when first counted), with a message saying so: for faces whose users never see that stderr line.
   */
  readOnlyTiers(): Array<{ tier: Tier; path: string; reason: string; message: string }> {
    return openTiers(this.services).flatMap((store) => {
      const reason = store instanceof SqliteStore ? store.driver.readOnly : undefined;
      return reason ? [{ tier: store.tier, path: store.location, reason, message: readOnlyTierMessage(store.location, reason) }] : [];
    });
  }

  private assertEnabled(): void {
    if (!this.enabled) throw new KnowledgeDisabledError();
  }

  /** With knowledge off, only a person may review or import (an agent's shell carries CAIRN_ACTOR=agent:…). */
  private assertOpenTo(actor: string): void {
    if (!this.enabled && !isHumanActor(actor)) throw new KnowledgeDisabledError();
  }

  /** Drafts wait for a person: to any other actor (agents, MCP clients) a draft does not exist. */
  /** An entry an actor may read: to an agent, a draft (waiting for a person) and a quarantined entry (suspect) do not exist. */
  private async visibleEntry(ref: string, actor: string, hidden: readonly Status[] = HIDDEN_FROM_AGENTS): Promise<Entry> {
    const { entry } = await locate(this.services, ref);
    if (hidden.includes(entry.lifecycle.status) && !isHumanActor(actor)) throw new NotFoundError(validateEntryRef(ref));
    return entry;
  }

  /**
   * Before an agent acts on an entry: a draft is not there for it, nor a lesson a person quarantined (the answers of
   * feedback, archive and quarantine carried its text, and an agent could archive or delete it before the person's
   * review): hiddenFrom, the rule writes use too. What an agent or the system quarantined, an agent may still restore,
   * archive or report on.
   */
  private async hideFromAgent(ref: string, actor: string): Promise<void> {
    if (isHumanActor(actor)) return;
    const loc = await locate(this.services, ref);
    if (!hiddenFrom(loc.entry, actor)) return;
    if (loc.entry.lifecycle.status === "quarantined") {
      const by = await retiredBy(loc);
      if (by && !actsForPerson(by)) return;
    }
    throw new NotFoundError(validateEntryRef(ref));
  }

  /** A status filter with its aliases expanded (approved, active), less what the actor may not see. */
  private visibleStatuses(asked: readonly StatusFilter[] | undefined): readonly Status[] | undefined {
    const statuses = asked ? expandStatuses(asked) : undefined;
    if (isHumanActor(this.actor)) return statuses;
    return (statuses ?? STATUSES).filter((st) => !HIDDEN_FROM_AGENTS.includes(st));
  }

  /**
   * Records a lesson through the gates and dedup. A duplicate reinforces the entry it matches. A category
   * named the opencode-swarm way (pattern, lesson, domain, decision, …) is stored as an import stores it,
   * and the answer says as what.
   */
  async add(lesson: LessonInput, opts: AddOptions = {}): Promise<WriteResult> {
    this.assertEnabled();
    const actor = opts.actor ?? this.actor;
    // Naming the lesson it replaces, a new lesson keeps where and how that one applied unless it says otherwise.
    const { input, note } = ownCategory(await withSupersededFields(this.services, this.projectGlobs(lesson), actor));
    if (opts.tier === "hive" && this.services.hive) {
      const { writeHiveLesson } = await outboxModule();
      return withCategoryNote(await writeHiveLesson(this.services, input, { actor, source: "add" }), note);
    }
    const { writeLesson } = await writeModule();
    return withCategoryNote(await writeLesson(this.services, input, { tier: opts.tier ?? "swarm", actor, source: "add" }), note);
  }

  /** Lessons matching a query (or a whole context), best first after diversity (see `RecallHit.rank`). Retired entries only when asked for. */
  async recall(query: string | RetrievalContext, opts: RecallOptions = {}): Promise<RecallHit[]> {
    this.assertTierOpen(opts.tier);
    // A person's or an agent's query; a context the plugin assembles is trimmed where it is built.
    if (typeof query === "string") assertQuery(query);
    const ctx = typeof query === "string" ? { task: query } : query;
    const statuses = opts.statuses ? this.visibleStatuses(opts.statuses) : undefined;
    const ranked = await asCall(() => recallForContext(this.services, ctx, statuses ? { ...opts, statuses } : opts));
    return ranked.map((r, i) => ({
      entry: r.entry, tier: r.entry.tier, rank: i + 1, score: r.score, breakdown: r.breakdown, ...(r.similarity !== undefined ? { similarity: r.similarity } : {}),
    }));
  }

  /** The block to inject for an agent turn, within the budget regime; its entries are counted as shown. */
  async inject(context: RetrievalContext, opts: InjectOptions = {}): Promise<InjectResult> {
    // In flight from the start: upkeep due while a first call loads its code must wait for the answer too.
    return asCall(async () => (await injectModule()).injectForContext(this.services, context, opts));
  }

  /** One entry by id, handle (S-12, H-3) or imported id, from either tier. */
  get(ref: string): Promise<Entry> {
    return this.visibleEntry(ref, this.actor);
  }

  async list(filter: ListFilter = {}): Promise<Entry[]> {
    const { tier, f, order, offset, limit } = this.listArgs(filter);
    const { listAcrossTiers } = await import("./governance/list-tiers.js");
    const { value } = await this.sparingHive(tier, (s) => listAcrossTiers(s, this.tiersOf(s, tier), f, order, offset, limit));
    return value;
  }

  /** `list`, with a promoted lesson once: its hive copy names the project original, which is left out (`/swarm knowledge`). */
  async listLessons(filter: ListFilter = {}): Promise<ListedLesson[]> {
    const { tier, f, order, offset, limit } = this.listArgs(filter);
    const { listOnePerLesson } = await import("./governance/list-tiers.js");
    const { value } = await this.sparingHive(tier, (s) => listOnePerLesson(s, this.tiersOf(s, tier), f, order, offset, limit));
    return value;
  }

  private listArgs(filter: ListFilter) {
    const { tier = "all", limit = 50, offset = 0, order, statuses: asked, ...rest } = filter;
    this.assertTierOpen(tier);
    const statuses = this.visibleStatuses(asked);
    const f: EntryFilter = statuses ? { ...rest, statuses } : rest;
    return { tier, f, order, offset, limit };
  }

  private tiersOf(s: Services, tier: Tier | "all"): Store[] {
    return tiersAsked(s, tier);
  }

  /** A read of one tier alone, with that tier damaged or the hive switched off, says so rather than answering empty. */
  private assertTierOpen(tier: Tier | "all" | undefined): void {
    tiersAsked(this.services, tier ?? "all");
  }

  /**
   * A person's read across both tiers while the team hive is unreachable answers from the project
   * tier and says why, instead of failing: agents' reads fall back on their own (recent results, the
   * outbox), and a person's pages and listings must not go blank because the hive's server is down.
   * The stderr line the hive logs when it goes away already says so; pages show `unreachable`.
   * A read of the hive alone still fails with UNAVAILABLE.
   */
  private async sparingHive<T>(tier: Tier | "all" | undefined, read: (s: Services) => Promise<T>): Promise<{ value: T; unreachable?: string }> {
    try {
      return { value: await read(this.services) };
    } catch (e) {
      const hive = this.services.hive;
      if (tier === "hive" || !hive || !isUnavailable(e)) throw e;
      const value = await read({ ...this.services, hive: undefined });
      return { value, unreachable: `The team hive ${hive.location} is unreachable: showing this project's lessons only; the hive's come back when it answers.` };
    }
  }

  /**
   * Entries flagged for review (`cairn list --flagged`): utility at or below the threshold after
   * enough retrievals and enough applications — a lesson agents keep following that keeps going wrong.
   */
  async flagged(tier: Tier | "all" = "all", limit = 100): Promise<Entry[]> {
    const { lowUtilityEntries } = await import("./governance/queue.js");
    return lowUtilityEntries(this.services, tier, limit);
  }

  /** A page of lessons for a person browsing: words, filters, a sort column, and the previous page's cursor. */
  async browse(q: BrowseQuery = {}): Promise<BrowsePage> {
    const { browseEntries } = await import("./governance/browse.js");
    const statuses = this.visibleStatuses(q.statuses);
    // A promoted lesson once, as `list` shows it: the hive copy stands for its project original (browseEntries).
    const { value, unreachable } = await this.sparingHive(q.tier, (s) => browseEntries(s, statuses ? { ...q, statuses } : q));
    return unreachable ? { ...value, hive_unreachable: unreachable } : value;
  }

  /** What waits for a person: drafts, open contradictions, low-utility lessons. */
  async reviewQueue(opts: { limit?: number; actor?: string } = {}): Promise<ReviewQueue> {
    assertHuman(opts.actor ?? this.actor, "review the queue");
    const { reviewQueue } = await import("./governance/queue.js");
    const { value, unreachable } = await this.sparingHive("all", (s) => reviewQueue(s, opts));
    return unreachable ? { ...value, hive_unreachable: unreachable } : value;
  }

  /** The existing lessons closest to one (duplicates and contradictions first), for a reviewer to compare. */
  async nearest(ref: string, limit = 3): Promise<Neighbour[]> {
    const { nearestEntries } = await import("./governance/queue.js");
    const visible = (await nearestEntries(this.services, await this.get(ref), limit + 2)).filter(
      (n) => n.entry.lifecycle.status !== "draft" || isHumanActor(this.actor),
    );
    return visible.slice(0, limit);
  }

  /** Every field, the event history, lineage, usage and reach of one lesson. */
  /** The lessons an entry supersedes or is superseded by, by handle beside the stored id (no text). */
  async links(e: Entry): Promise<EntryLinks> {
    const { entryLinks } = await import("./governance/lesson-detail.js");
    return entryLinks(this.services, e);
  }

  /** The entry as every face shows it: helpful/harmful decayed to now, as ranking weighs them. */
  async shownEntry(e: Entry): Promise<Entry> {
    const { shownEntry } = await import("./governance/lesson-detail.js");
    return shownEntry(this.services, e);
  }

  /** The handle of each entry these events name by id (a supersede's `by`, a link's `supersedes`, a promotion's `hive_id`). */
  async eventHandles(events: readonly EntryEvent[]): Promise<Record<string, string>> {
    const { eventHandles } = await import("./governance/lesson-detail.js");
    return eventHandles(this.services, events);
  }

  async lessonDetail(ref: string): Promise<LessonDetail> {
    const { lessonDetail } = await import("./governance/lesson-detail.js");
    return lessonDetail(this.services, await this.get(ref));
  }

  /** The knowledge dashboard: usage per week, lessons needing attention, rejections, the hive's projects, the queue. */
  async dashboard(opts: { weeks?: number } = {}): Promise<Dashboard> {
    const { dashboard } = await import("./governance/dashboard.js");
    const { value, unreachable } = await this.sparingHive("all", (s) => dashboard(s, opts));
    return unreachable ? { ...value, hive_unreachable: unreachable } : value;
  }

  /** Projects that contributed lessons, either tier, by id (the lessons page's project filter). */
  async sourceProjects(limit = 50): Promise<Array<{ project_id: string; project_name?: string; tiers: Tier[] }>> {
    const { value } = await this.sparingHive("all", async (s) => {
      const out = new Map<string, { project_id: string; project_name?: string; tiers: Tier[] }>();
      for (const store of openTiers(s)) {
        for (const p of await store.sourceProjectIds(limit)) {
          const seen = out.get(p.project_id) ?? { ...p, tiers: [] };
          seen.tiers.push(store.tier);
          out.set(p.project_id, seen);
        }
      }
      return out;
    });
    return [...value.values()];
  }

  /** From an agent, on a lesson a person approved, this only records a request (see quarantineEntry). */
  async quarantine(ref: string, reason: string, actor = this.actor): Promise<StatusChange> {
    this.assertOpenTo(actor);
    await this.hideFromAgent(ref, actor);
    return quarantineEntry(this.services, ref, reason, actor);
  }

  async restore(ref: string, actor = this.actor): Promise<StatusChange> {
    this.assertOpenTo(actor);
    await this.hideFromAgent(ref, actor);
    return restoreEntry(this.services, ref, actor);
  }

  async archive(ref: string, reason?: string, actor = this.actor): Promise<StatusChange> {
    this.assertOpenTo(actor);
    await this.hideFromAgent(ref, actor);
    return archiveEntry(this.services, ref, reason, actor);
  }

  /** Deletes from whichever tier holds it; promoted or approved entries need `force`, which only a person may pass. */
  async remove(ref: string, opts: { force?: boolean; reason?: string; actor?: string } = {}): Promise<StatusChange> {
    const actor = opts.actor ?? this.actor;
    this.assertOpenTo(actor);
    await this.hideFromAgent(ref, actor);
    return removeEntry(this.services, ref, { force: opts.force, reason: opts.reason, actor });
  }

  /** Promotes a swarm entry (by id) or a new lesson text to the hive through the hive gate. */
  async promote(what: { id: string } | { lesson: LessonInput }, actor = this.actor): Promise<PromotionResult> {
    this.assertEnabled();
    const { promoteEntry, promoteText } = await import("./lifecycle/promote.js");
    // An id or handle where the text was expected means "promote that entry" on every face
    // (`cairn promote S-12`, `/swarm promote S-12`), not "store this id as a lesson".
    if (!("id" in what) && typeof what.lesson.lesson === "string" && isEntryRef(what.lesson.lesson)) what = { id: what.lesson.lesson.trim() };
    if (!("id" in what)) {
      const { input, note } = ownCategory(what.lesson);
      return withCategoryNote(await promoteText(this.services, input, actor), note);
    }
    await this.hideFromAgent(what.id, actor);
    return promoteEntry(this.services, what.id, actor);
  }

  /**
   * Marks `oldRef` superseded by `replacement` (an existing ref, or a new lesson added first).
   * A new lesson that lands as a draft (approval required) retires the old one only when approved.
   */
  async supersede(oldRef: string, replacement: string | LessonInput, actor = this.actor): Promise<{ old: Entry; replacement: Entry }> {
    this.assertEnabled();
    const old = await this.visibleEntry(oldRef, actor);
    // A lesson a person archived is that person's decision: an agent is told to add its lesson on its own.
    await assertAgentMayReplace(storeFor(this.services, old.tier), old, actor, oldRef);
    let newRef: string;
    if (typeof replacement === "string") {
      await this.hideFromAgent(replacement, actor);
      newRef = replacement;
    } else {
      const { writeLesson } = await import("./lifecycle/write.js");
      // Already superseded: only a restatement of what replaced it is no conflict (it merges into that entry).
      if (old.lifecycle.status === "superseded") {
        const by = old.lifecycle.superseded_by ? await locate(this.services, old.lifecycle.superseded_by).then((l) => l.entry, () => undefined) : undefined;
        const { compareLessons } = await import("./quality/similarity.js");
        if (!by || !compareLessons(replacement.lesson, by.lesson, this.config.knowledge.dedup_threshold).duplicate) await assertNotSuperseded(this.services, old);
      }
      // New text restates the lesson, not where it applies: what the writer did not give is the old lesson's.
      const input = ownCategory(carriedFromSuperseded(old, replacement)).input;
      const r = await writeLesson(this.services, { ...input, supersedes: old.id }, { tier: old.tier, actor, source: "add" });
      if (r.action === "rejected" || !r.id) throw new CairnError("REJECTED", `Replacement rejected: ${r.reason}`, { issues: r.issues });
      // The write path retires the old lesson itself when it may; a person's approved lesson waits for a person.
      if (r.superseded || r.status === "draft" || protectedFrom(old, actor)) {
        return { old: (await locate(this.services, old.id)).entry, replacement: (await locate(this.services, r.id)).entry };
      }
      newRef = r.id;
    }
    return supersedeEntry(this.services, oldRef, newRef, actor);
  }

  /** A person approves a lesson: established, approved_by/at recorded, what it supersedes retired. Agents get FORBIDDEN. `opts.seen` refuses a version changed since the person read it. */
  approve(ref: string, actor = this.actor, opts: DecisionOptions = {}): Promise<ApprovalResult> {
    return approveEntry(this.services, ref, actor, opts);
  }

  /** Approves every lesson named, or none: each is found and checked before the first is approved. */
  approveAll(refs: readonly string[], actor = this.actor): Promise<ApprovalResult[]> {
    return approveEntries(this.services, refs, actor);
  }

  /** A person rejects a draft (or candidate): archived with the reason, counted in the approval rate. `opts.seen` as for approve. */
  reject(ref: string, reason?: string, actor = this.actor, opts: DecisionOptions = {}): Promise<Entry> {
    return rejectEntry(this.services, ref, reason, actor, opts);
  }

  /** A person edits a lesson's fields (those named replace the current ones), through the write gates; `opts.basis` refuses a save over a change made since. */
  async edit(ref: string, fields: LessonFields, actor = this.actor, via = "api", opts: EditOptions = {}): Promise<EditResult> {
    this.assertOpenTo(actor);
    const { editEntry } = await import("./governance/edit.js");
    return editEntry(this.services, ref, this.projectGlobs(fields), actor, via, opts);
  }

  /** Lesson fields whose file globs name project files by absolute path, with those globs made project-relative (see relativeToProject). */
  private projectGlobs<T extends { applicability?: { file_globs?: string[] | undefined } | undefined }>(fields: T): T {
    // Untyped callers (plain JS, an agent's JSON) may hand anything here: what is not a list of strings is left for the schema to refuse.
    const globs: unknown = (fields as { applicability?: { file_globs?: unknown } } | null | undefined)?.applicability?.file_globs;
    if (!Array.isArray(globs) || !globs.some((g) => typeof g === "string" && (g.trim().startsWith("/") || /^[A-Za-z]:/.test(g.trim())))) return fields;
    const roots = [this.project.dir];
    try {
      roots.push(fs.realpathSync(this.project.dir));
    } catch {
      // A project folder that cannot be resolved is matched as given.
    }
    return { ...fields, applicability: { ...fields.applicability, file_globs: globs.map((g) => (typeof g === "string" ? relativeToProject(g, roots) : g)) } };
  }

  /**
   * Vetted lessons whose file globs or detection patterns match what an agent is about to do — the
   * pre-action hook. Cheap when nothing changed (one counter read per tier); matches count as consultations.
   */
  async checkAdvisories(query: AdvisoryQuery): Promise<Advisory[]> {
    if (!this.enabled) return [];
    return asCall(async () => (await import("./governance/advisories.js")).checkAdvisories(this.services, query, this.actor));
  }

  /** Counts a prevention for entries whose advisory made the agent change course. */
  async markPrevented(refs: string | readonly string[], opts: { actor?: string; note?: string } = {}): Promise<number> {
    const list = typeof refs === "string" ? [refs] : refs;
    const actor = opts.actor ?? this.actor;
    for (const ref of list) await this.hideFromAgent(ref, actor);
    const { markPrevented } = await import("./governance/prevention.js");
    return markPrevented(this.services, list, actor, opts.note ? { note: opts.note.slice(0, 300) } : {});
  }

  /** Vetted entries that apply to files (glob match) and tags (overlap), for this project. */
  async related(query: RelatedQuery): Promise<RelatedHit[]> {
    const { relatedEntries } = await import("./governance/related.js");
    return relatedEntries(this.services, query);
  }

  /** Writes `.swarm/guardrails/<handle>-<slug>.md` from the entry's suggested guardrail. A person's act: agents get FORBIDDEN. */
  async proposeGuardrail(ref: string, opts: { force?: boolean; actor?: string } = {}): Promise<GuardrailProposal> {
    const { proposeGuardrail } = await import("./governance/guardrail.js");
    return proposeGuardrail(this.services, ref, { ...opts, actor: opts.actor ?? this.actor });
  }

  /**
   * Rewrites the Markdown mirror from the databases (whether or not sync is enabled). Files holding a
   * person's edit or move not yet pulled are kept and reported, unless `force`.
   */
  async rebuildMirror(opts: { force?: boolean } = {}): Promise<MirrorReport> {
    const { rebuildMirror } = await import("./governance/mirror.js");
    return rebuildMirror(this.services, opts);
  }

  /**
   * Applies edits made in the Markdown mirror; conflicts with newer database versions are reported, not
   * applied. An approval found in a file is applied only when `approve` confirms it; otherwise it is held.
   */
  async pullMirror(opts: { actor?: string; approve?: ApprovalConsent } = {}): Promise<PullReport> {
    const { pullMirror } = await import("./governance/mirror.js");
    return pullMirror(this.services, opts.actor ?? this.actor, { ...(opts.approve !== undefined ? { approve: opts.approve } : {}) });
  }

  /** The Knowledge Objects success metrics (`cairn stats --governance`). */
  async governanceStats(): Promise<GovernanceMetrics> {
    const { governanceMetrics } = await import("./governance/metrics.js");
    return governanceMetrics(this.services);
  }

  /** The TTL sweep alone (what `cairn sweep` runs). */
  async sweep(opts: { phase?: string; actor?: string } = {}): Promise<SweepReport[]> {
    this.assertEnabled();
    const { sweepExpiredEntries } = await import("./lifecycle/sweep.js");
    return sweepExpiredEntries(this.services, opts);
  }

  /** Phase completion: the sweep, then the automatic promotions. */
  async completePhase(phase?: string, actor = "cairn:phase"): Promise<PhaseCompleteReport> {
    this.assertEnabled();
    const { sweepExpiredEntries } = await import("./lifecycle/sweep.js");
    const { promoteDueEntries } = await import("./lifecycle/promote.js");
    const sweep = await sweepExpiredEntries(this.services, { phase, actor });
    // A repeat of the phase just completed does nothing at all, promotions included: nothing new fell due.
    if (sweep.some((r) => r.skipped)) return { sweep, promotions: [] };
    const promotions = await promoteDueEntries(this.services, actor);
    return { sweep, promotions };
  }

  /** The automatic promotions alone (explicit, fast-track, age), e.g. for `/swarm curate`. */
  async promoteDue(actor = "cairn:promoter"): Promise<PromotionResult[]> {
    this.assertEnabled();
    const { promoteDueEntries } = await import("./lifecycle/promote.js");
    return promoteDueEntries(this.services, actor);
  }

  async feedback(ref: string, verdict: Verdict, note?: string, actor = this.actor): Promise<Entry> {
    this.assertEnabled();
    await this.hideFromAgent(ref, actor);
    return recordFeedback(this.services, ref, verdict, actor, note);
  }

  /**
   * Records a task outcome. It is enqueued durably and processed in the background (the
   * caller never waits): implicit feedback to the entries shown, and lessons extracted.
   */
  async recordOutcome(outcome: OutcomeInput): Promise<{ id: string; queued: boolean }> {
    this.assertEnabled();
    const { enqueueOutcome } = await import("./learning/reflect.js");
    const r = await enqueueOutcome(this.services, outcome);
    if (this.config.learning.reflect_in_background) this.scheduleReflection();
    return r;
  }

  /**
   * Drains the reflection queue now (what `cairn reflect` runs). A background pass already under way
   * is waited for first: it holds the lease on the items it took, so without waiting a caller could
   * return before those items are done.
   */
  async reflect(opts: ReflectOptions = {}): Promise<ReflectReport> {
    // Reflection writes lessons and feedback: machine learning, off for everyone while knowledge is.
    // Queued outcomes wait, and are applied once it is back on.
    this.assertEnabled();
    await this.reflecting;
    return this.drainReflectionQueue(opts);
  }

  private async drainReflectionQueue(opts: ReflectOptions = {}): Promise<ReflectReport> {
    const l = this.config.learning;
    const { processReflectionQueue } = await import("./learning/reflect.js");
    const { createArbiter } = await import("./learning/arbiter.js");
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
      .then(() => (this.closed ? undefined : this.drainReflectionQueue()))
      .catch((e: unknown) => process.stderr.write(`cairn: background reflection failed: ${(e as Error).message}\n`))
      .finally(() => {
        this.reflecting = undefined;
      });
  }

  async importFile(file: string, opts: ImportOptions = {}): Promise<ImportReport> {
    this.assertOpenTo(opts.actor ?? this.actor);
    const { importFile } = await import("./io/import-file.js");
    return importFile(this.services, path.resolve(file), { actor: `import:${this.actor}`, ...opts });
  }

  /**
   * Writes every entry of the chosen tier(s) as lossless JSONL: to a file (written beside it, then moved into place; an
   * existing file only with `overwrite`) or to a stream such as stdout.
   */
  async exportFile(
    file: string | NodeJS.WritableStream,
    opts: { format?: "cairn" | "jsonl"; tier?: Tier | "all"; signal?: AbortSignal; overwrite?: boolean } = {},
  ): Promise<{ written: number }> {
    const tier = opts.tier ?? "all";
    const stores = tiersAsked(this.services, tier);
    async function* all(): AsyncIterable<Entry> {
      for (const s of stores) yield* s.iterateEntries();
    }
    const { writeExport, writeExportTo } = await import("./io/export.js");
    const format = opts.format ?? "cairn";
    const options = { format, overwrite: opts.overwrite === true, ...(opts.signal ? { signal: opts.signal } : {}) };
    return typeof file === "string" ? writeExport(path.resolve(file), all(), options) : writeExportTo(file, all(), options);
  }

  async history(ref: string): Promise<EntryEvent[]> {
    const entry = await this.visibleEntry(ref, this.actor);
    return storeFor(this.services, entry.tier).listEvents(entry.id, 1000);
  }

  rejected(tier: Tier = "swarm", limit = 50): Promise<RejectedLesson[]> {
    const [store] = tiersAsked(this.services, tier);
    return store!.listRejected(limit);
  }

  /** Every figure comes from the tallies, counters or a capped index count: never from reading the entries. */
  async stats(opts: { tier?: Tier | "all" } = {}): Promise<Stats> {
    const tier = opts.tier ?? "all";
    this.assertTierOpen(tier);
    const { value: tiers } = await this.sparingHive(tier, (s) => this.tierStats(s, tier));
    return { project: this.project, tiers, queue: await this.services.swarm.queueCounts() };
  }

  private async tierStats(s: Services, tier: Tier | "all"): Promise<TierStats[]> {
    const { countLowUtility } = await import("./governance/queue.js");
    const tiers: TierStats[] = [];
    for (const store of tiersAsked(s, tier)) {
      const tallies = await store.entryTallies();
      const bySource = usageBySourceOf(tallies);
      const usage = sumTallies(tallies);
      tiers.push({
        tier: store.tier,
        location: store.location,
        total: await store.totalEntries(),
        by_status: countsByStatus(tallies),
        shown: usage.shown,
        applied: usage.applied,
        rejected_recent: await store.countRejected(STATS_CAP),
        application_rate: bySource.map((b) => ({ ...b, rate: b.shown ? b.applied / b.shown : null })),
        flagged: await countLowUtility(s, store.tier, STATS_CAP),
        ...(await this.vectorStatusOf(store)),
      });
    }
    return tiers;
  }

  /**
   * Health of both databases: integrity, schema, counts, where they live; for a team hive also
   * whether it answers, the round trip, and this project's outbox of writes waiting for it.
   */
  async doctor(): Promise<DoctorTier[]> {
    const out: DoctorTier[] = [];
    const faults = this.services.faults ?? {};
    // Said in doctor's own words: the stores' message sends a person to `cairn doctor`, which is running.
    const damaged = (tier: Tier, location: string, e: CairnError): DoctorTier => ({
      tier, kind: "sqlite", location, integrity: "damaged", entries: 0, schema_version: 0, damaged: true,
      error: typeof e.details?.damage === "string" ? damagedDoctorMessage(location, e.details.damage) : e.message,
    });
    for (const store of openTiers(this.services)) {
      const team = store === this.services.hive ? this.teamHive() : undefined;
      const kind = team ? "postgres" : "sqlite";
      const fault = faults[store.tier];
      if (fault) {
        out.push(damaged(store.tier, store.location, fault));
        continue;
      }
      const readOnly = store instanceof SqliteStore ? store.driver.readOnly : undefined;
      try {
        const started = performance.now();
        const schema_version = await (team ? team.remote : store).schemaVersion();
        const latency_ms = Math.round((performance.now() - started) * 100) / 100;
        const integrity = await store.integrityCheck();
        out.push({
          tier: store.tier,
          kind,
          location: store.location,
          integrity,
          entries: await store.totalEntries(),
          schema_version,
          ...(team ? { reachable: true, latency_ms } : {}),
          ...(readOnly ? { read_only: readOnly } : {}),
          ...(integrity !== "ok" && !team ? { damaged: true, error: damagedDoctorMessage(store.location, integrity.split("\n")[0]!) } : {}),
          ...(await this.vectorStatusOf(store)),
        });
      } catch (e) {
        if (isDamaged(e)) {
          out.push(damaged(store.tier, store.location, e));
          continue;
        }
        if (!team || (e as CairnError).code !== "UNAVAILABLE") throw e;
        out.push({ tier: store.tier, kind, location: store.location, integrity: "unreachable", entries: 0, schema_version: 0, reachable: false, error: (e as Error).message });
      }
    }
    // A hive left out because it is damaged is still reported, after the project tier.
    if (faults.hive && this.hivePath) out.push(damaged("hive", this.hivePath, faults.hive));
    const outbox = await this.services.swarm.outboxCounts();
    if (this.teamHive() || outbox.pending || outbox.dead) out[0]!.outbox = outbox;
    return out;
  }

  private currentSpace: Promise<VectorSpace | undefined> | undefined;

  /** The vectors a tier holds per model; nothing when vectors are off or the store cannot say. */
  private async vectorStatusOf(store: Store): Promise<{ vectors?: VectorStatus }> {
    const emb = this.services.embedding;
    if (!emb) return {};
    this.currentSpace ??= emb.currentSpace();
    try {
      return { vectors: await vectorStatus(store, await this.currentSpace) };
    } catch (e) {
      if ((e as CairnError).code === "UNAVAILABLE") return {};
      throw e;
    }
  }

  /**
   * Gives every entry without a vector of the current model one (after a model change, or for lessons
   * written while the endpoint was down); resumable: a second run continues where vectors are missing.
   * Aborting `signal` stops it after the batch in flight; a tier not reached is reported with nothing embedded.
   */
  async reindex(opts: { tier?: Tier | "all"; onProgress?: (p: ReindexProgress) => void; signal?: AbortSignal } = {}): Promise<ReindexReport[]> {
    const emb = this.services.embedding;
    if (!emb) throw new CairnError("INVALID_INPUT", "Vectors are off (embedding.provider = none): there is nothing to reindex. To turn them on, set embedding.provider to builtin (or openai with embedding.url) in .swarm/cairn.json or your user config, or run with CAIRN__embedding__provider=builtin; then `cairn reindex` gives every lesson a vector.");
    const space = await emb.currentSpace();
    if (!space) throw new CairnError("UNAVAILABLE", `The embeddings endpoint for ${emb.currentModelId} did not answer; run \`cairn reindex\` again when it is up.`);
    for (const e of this.embedders) await e.drain();
    const tier = opts.tier ?? "all";
    const out: ReindexReport[] = [];
    for (const store of tiersAsked(this.services, tier)) {
      out.push(await reindexStore(store, emb, space, this.config.embedding.batch_size, opts.onProgress, opts.signal));
    }
    return out;
  }

  /** Kept for library callers; the parser lives with the enums. */
  static parseStatuses(list: string | undefined): Status[] | undefined {
    return parseStatuses(list);
  }

  /** Hive writes waiting in this project's outbox (a team hive that was unreachable), and the parked ones. */
  async outbox(limit = 50): Promise<{ counts: { pending: number; dead: number; oldest?: string }; pending: OutboxItem[]; dead: OutboxItem[] }> {
    const swarm = this.services.swarm;
    return { counts: await swarm.outboxCounts(), pending: await swarm.listOutbox("pending", limit), dead: await swarm.listOutbox("dead", limit) };
  }

  /** Replays the outbox into the team hive now (what `cairn hive sync` runs); throws UNAVAILABLE while it is down. */
  async syncOutbox(): Promise<ReplayReport> {
    const team = this.teamHive();
    if (!team) return { applied: 0, dead: 0, pending: (await this.services.swarm.outboxCounts()).pending };
    const { replayOutbox } = await import("./hive/outbox.js");
    return team.replayNow((remote) => replayOutbox(this.services, remote));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.reflecting;
    for (const e of this.embedders) {
      await e.drain();
      e.detach();
    }
    this.detachMirror?.();
    // The hive first: it drains the outbox (bounded) while the project database is still open.
    await this.services.hive?.close();
    await this.services.swarm.close();
  }
}

/** A stored (or queued) lesson whose category was given by opencode-swarm's name says what it became; a merge or refusal does not. */
function withCategoryNote<R extends WriteResult>(r: R, note: string | undefined): R {
  if (!note || (r.action !== "added" && r.action !== "queued")) return r;
  return { ...r, issues: [...r.issues, { layer: "structure", severity: "warn", code: "category_mapped", message: note }] };
}

/** Opens (creating if needed, and migrating) the project's swarm database and the user's hive. */
export async function openCairn(opts: OpenCairnOptions): Promise<Cairn> {
  return new Cairn(opts).start();
}

/**
 * `cairn doctor --repair`: every SQLite tier found damaged is closed, kept aside under a timestamped
 * name, and rebuilt from what can still be read. Healthy tiers are not touched.
 */
export async function repairCairn(opts: OpenCairnOptions, signal?: AbortSignal): Promise<RepairReport[]> {
  const cairn = await openCairn(opts);
  let damaged: string[];
  try {
    damaged = (await cairn.doctor()).filter((t) => t.damaged && t.kind === "sqlite").map((t) => t.location);
  } finally {
    await cairn.close();
  }
  const { repairDatabase } = await import("./store/repair.js");
  // libSQL keeps a closed connection (and its lock) alive until its prepared statements are
  // collected: without this, the repair would take our own closed handle for another process.
  const { collectClosedConnections } = await import("./store/driver.js");
  await collectClosedConnections();
  const done: RepairReport[] = [];
  for (const file of damaged) {
    try {
      done.push(await repairDatabase(file, new Date(), signal));
    } catch (e) {
      // Stopped: the files repaired before this one are, and say so with it.
      if (e instanceof CairnError && e.code === "INTERRUPTED" && done.length) {
        throw new CairnError("INTERRUPTED", `${e.message} Repaired before it stopped: ${done.map((r) => r.file).join(", ")}.`, { ...e.details, repaired: done.map((r) => r.file) });
      }
      throw e;
    }
  }
  return done;
}
