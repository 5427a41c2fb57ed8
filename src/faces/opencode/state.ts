// What one plugin instance shares across its hooks: options, log, the lazily opened engine, plan reader, activity.
import path from "node:path";
import { answerWithin } from "../../core/answer-within.js";
import type { Cairn } from "../../engine.js";
import { isCairnError } from "../../errors.js";
import { PlanReader } from "../../retrieval/plan.js";
import { settingText, unreadSettingsFix, unreadSwarmSettings } from "../../swarm-config.js";
import { AgentActivity } from "./awareness.js";
import { PluginLog, pluginLogFallback } from "./log.js";
import type { ResolvedOptions } from "./options.js";
import { ContextUsage } from "./usage.js";

const RETRY_MS = 30_000;
/** Warming waits this long after the engine opens: the hook that opened it runs first. */
const WARM_DELAY_MS = 250;

export interface PluginEnv {
  directory: string;
  options: ResolvedOptions;
  env?: NodeJS.ProcessEnv;
  /** Where to send the one-time report of problems besides the log file (OpenCode's server log). */
  report?: (message: string) => void;
  /** The context window of every model OpenCode has configured ("provider/model" → tokens), from its server. */
  modelWindows?: () => Promise<Map<string, number>>;
}

/** Asking OpenCode's server for the windows must never hold a turn up for long. */
const WINDOWS_TIMEOUT_MS = 3000;

export class PluginState {
  readonly directory: string;
  readonly swarmDir: string;
  readonly options: ResolvedOptions;
  readonly log: PluginLog;
  readonly plans: PlanReader;
  readonly activity: AgentActivity;
  /** Each session's context fill, for the budget warning in the orchestrator's system prompt. */
  readonly usage = new ContextUsage();
  /** Agents from the OpenCode config, captured by the config hook (for `/swarm agents`). */
  agents: Record<string, unknown> = {};
  /** Problems found so far (bad options, engine failures), for `/swarm status` and the log. */
  readonly problems: string[] = [];
  private opening: Promise<Cairn> | undefined;
  private failure: { at: number; error: unknown } | undefined;
  private openFailureSaid = false;
  private readonly env: NodeJS.ProcessEnv | undefined;
  private readonly reportFn: ((message: string) => void) | undefined;
  private readonly modelWindowsFn: (() => Promise<Map<string, number>>) | undefined;
  private knownWindows: Promise<Map<string, number>> | undefined;

  constructor(e: PluginEnv) {
    this.directory = path.resolve(e.directory);
    this.options = e.options;
    const dir = e.options.engine.swarm_dir;
    this.swarmDir = typeof dir === "string" && dir ? dir : ".swarm";
    this.log = new PluginLog(this.directory, this.swarmDir, {
      fallback: pluginLogFallback(this.directory, e.env ?? process.env),
      // The log cannot say it about itself: stderr once, OpenCode's log and `/swarm status` do.
      onUnwritable: (message) => {
        try {
          process.stderr.write(`cairn: ${message}\n`);
        } catch {
          // OpenCode's log and /swarm status still get it.
        }
        this.report(message, { logged: true });
      },
    });
    this.plans = new PlanReader(this.directory, this.swarmDir);
    this.activity = new AgentActivity(this.directory);
    this.env = e.env;
    this.reportFn = e.report;
    this.modelWindowsFn = e.modelWindows;
    if (e.options.problems.length) this.report(`invalid plugin options (defaults used for these): ${e.options.problems.join("; ")}`);
  }

  /** Logs a problem once and keeps it for `/swarm status` (`logged`: the log file already holds it). */
  report(message: string, opts: { logged?: boolean } = {}): void {
    if (this.problems.includes(message)) return;
    this.problems.push(message);
    if (!opts.logged) this.log.write("warn", message);
    try {
      this.reportFn?.(`cairn: ${message}`);
    } catch {
      // The log file already holds it.
    }
  }

  /** Opened on first use; a config the engine rejects is reported and the plugin falls back to the config files. */
  cairn(): Promise<Cairn> {
    if (!this.opening && this.failure && Date.now() - this.failure.at < RETRY_MS) return Promise.reject(this.failure.error);
    this.opening ??= this.open().catch((e: unknown) => {
      // Remembered for a while so every hook call does not retry (and log) the same failure.
      this.opening = undefined;
      this.failure = { at: Date.now(), error: e };
      const message = `cannot open the knowledge base: ${(e as Error).message}`;
      // Said once on stderr too, beside the log file (which may be what cannot be written): never in the conversation.
      if (!this.openFailureSaid) {
        this.openFailureSaid = true;
        try {
          process.stderr.write(`cairn: ${message}\n`);
        } catch {
          // The log file and OpenCode's log still get it.
        }
      }
      this.report(message);
      throw e;
    });
    return this.opening;
  }

  /**
   * The engine, or undefined when it cannot open (the failure is reported once, by cairn()): for hooks that
   * add what they can without it, such as the system prompt's standing instruction.
   */
  openedEngine(): Promise<Cairn | undefined> {
    return this.cairn().then(
      (c) => c,
      () => undefined,
    );
  }

  private async open(): Promise<Cairn> {
    const cairn = await this.openEngine();
    // OpenCode's TUI hides stderr, where the engine said it: the log, OpenCode's log and `/swarm status` say it too.
    for (const d of cairn.damagedTiers()) this.report(d.message);
    for (const r of cairn.readOnlyTiers()) this.report(r.message);
    const env = this.env ?? process.env;
    const unread = unreadSwarmSettings(this.directory, env, cairn.config);
    if (unread.length) this.report(`${unread.map(settingText).join("; ")}. ${unreadSettingsFix(env)}`);
    // Off the hot path: after the hook that opened the engine has its answer, the other first calls get cheap (issue 16.2).
    setTimeout(() => void cairn.warm(), WARM_DELAY_MS).unref();
    return cairn;
  }

  private async openEngine(): Promise<Cairn> {
    // The engine (SQLite driver, gates, retrieval) loads with the first hook that needs it, not with the plugin.
    const { openCairn } = await import("../../engine.js");
    const base = { projectDir: this.directory, actor: "agent:opencode", ...(this.env ? { env: this.env } : {}) };
    const overrides = this.options.engine;
    if (Object.keys(overrides).length === 0) return openCairn(base);
    try {
      return await openCairn({ ...base, config: overrides });
    } catch (e) {
      if (!isCairnError(e) || e.code !== "INVALID_CONFIG") throw e;
      this.report(`engine options in opencode.json ignored: ${e.message}`);
      return openCairn(base);
    }
  }

  /**
   * The engine's master switch (knowledge.enabled), for hooks that add text or learn on their own.
   * An engine that cannot open counts as on: the failure is reported once and each hook keeps its old behaviour.
   */
  async enabled(): Promise<boolean> {
    return (await this.openedEngine())?.enabled ?? true;
  }

  async close(): Promise<void> {
    const c = this.opening;
    this.opening = undefined;
    if (c) await (await c.catch(() => undefined))?.close();
  }

  /**
   * A model's context window: as the system hook last reported it, else as OpenCode's server lists it
   * (asked once). messages.transform, where the lessons block is sized, runs before the system hook of
   * the same call, so the first turn of a process would otherwise size it for the 128k default.
   */
  async modelWindow(providerID: string, modelID: string): Promise<number | undefined> {
    const reported = this.usage.windowOf(providerID, modelID);
    if (reported !== undefined) return reported;
    this.knownWindows ??= this.askWindows();
    return (await this.knownWindows).get(`${providerID}/${modelID}`);
  }

  private async askWindows(): Promise<Map<string, number>> {
    if (!this.modelWindowsFn) return new Map();
    try {
      const answer = await answerWithin(this.modelWindowsFn(), WINDOWS_TIMEOUT_MS);
      if (answer) return answer.value;
      this.log.write("warn", `could not ask OpenCode for the models' context windows: no answer in ${WINDOWS_TIMEOUT_MS} ms`);
    } catch (e) {
      this.log.write("warn", `could not ask OpenCode for the models' context windows: ${(e as Error).message}`);
    }
    // model_limits (or its default) sizes the block until the system hook reports the model.
    return new Map();
  }

  isOrchestrator(agent: string | undefined): boolean {
    if (!agent) return false;
    const a = agent.toLowerCase();
    return this.options.plugin.orchestrators.some((o) => o.toLowerCase() === a);
  }

  swarmPath(...parts: string[]): string {
    return path.join(this.directory, this.swarmDir, ...parts);
  }
}
