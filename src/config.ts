// Config: one schema with defaults and docs, loaded from user file, project file, env and options.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { decodeText } from "./core/decode.js";
import { fieldProblem, plainProblem } from "./core/validation-error.js";
import { SCOPE_PATTERN, SCOPE_RULE } from "./core/enums.js";
import { makeFolder } from "./core/folders.js";
import { nearestName } from "./core/nearest-name.js";
import { hooksGroupAdvice } from "./core/swarm-hook-options.js";
import { swarmKeyAdvice } from "./core/swarm-key-advice.js";
import { InvalidConfigError } from "./errors.js";
import { maskUrl } from "./store/pg/url.js";

const int = (def: number, min: number, max: number, doc: string) => z.number().int().min(min).max(max).default(def).describe(doc);
const num = (def: number, min: number, max: number, doc: string) => z.number().min(min).max(max).default(def).describe(doc);
const bool = (def: boolean, doc: string) => z.boolean().default(def).describe(doc);

/** Every `knowledge.*` key of the opencode-swarm docs, with the same defaults unless noted. */
export const KnowledgeConfigSchema = z
  .object({
    enabled: bool(true, "Master switch: off, nothing is injected, no instruction or advisory is added, the tools answer \"disabled\" and nothing is written (lessons, feedback, outcomes, curation)."),
    swarm_max_entries: int(10000, 10, 10_000_000, "Cap per project (docs: 100 FIFO; a database makes a larger cap cheap, eviction is priority-aware)."),
    hive_max_entries: int(50000, 10, 10_000_000, "Cap on the cross-project hive (docs: 200)."),
    auto_promote_days: int(90, 1, 3650, "Age after which a swarm entry is promoted to the hive, unless its feedback is negative."),
    max_inject_count: int(5, 0, 50, "Entries per injection at full budget."),
    inject_char_budget: int(2000, 0, 20000, "Characters per injection block at full budget."),
    max_lesson_display_chars: int(120, 20, 1000, "Per-lesson display truncation; stored text is unchanged."),
    dedup_threshold: num(0.6, 0.1, 1, "Similarity at or above which a new lesson reinforces an existing one (by words; a merge by words and meaning together needs 0.1 more)."),
    scope_filter: z.array(z.string().regex(SCOPE_PATTERN, { message: SCOPE_RULE })).default(["global"]).describe("Scopes injected and recalled by default (global, stack:<name>)."),
    hive_enabled: bool(true, "Read and write the cross-project hive."),
    validation_enabled: bool(true, "Run the quality gates on writes (secrets and sanitising always run)."),
    evergreen_confidence: num(0.9, 0, 1, "Confidence at or above which (with utility) an entry is evergreen."),
    evergreen_utility: num(0.8, 0, 1, "Utility at or above which (with confidence) an entry is evergreen."),
    low_utility_threshold: num(0.3, 0, 1, "Utility at or below which an entry is flagged for review."),
    min_retrievals_for_utility: int(3, 0, 1000, "Times shown before utility is judged."),
    low_utility_min_applied: int(5, 0, 100000, "Times applied before a low utility flags an entry (docs: applied_count ≥ 5); 0 flags on utility alone."),
    default_max_phases: int(10, 1, 1000, "TTL in phases for most entries (a lesson's own `max_phases`, set with `cairn add --max-phases` or `knowledge_add`, wins)."),
    todo_max_phases: int(3, 1, 1000, "TTL in phases for todo entries (removed, not archived)."),
    same_project_weight: num(1.0, 0, 10, "Hive encounter score: what one sighting (a phase in which a project met the lesson again) counts in the lesson's source project. The score ranks hive lessons (`recall --explain`: encounter)."),
    cross_project_weight: num(0.5, 0, 10, "Hive encounter score: what one sighting counts in any other project. Raise it (or lower same_project_weight) so lessons many projects keep meeting outrank one project's repeats."),
    confirmations_to_establish: int(3, 1, 100, "Distinct phases (swarm) or projects (hive) that establish an entry."),
    rejected_max_entries: int(200, 0, 100000, "Cap on the rejected-lessons list per tier (docs: 20; one import can refuse hundreds of rows, each kept to review with `cairn rejected`)."),
    feedback_half_life_days: num(90, 1, 3650, "Half-life of feedback weight: 0.5 ^ (age_days / half_life)."),
    auto_archive_min_shown: int(20, 1, 100000, "Auto-generated entries shown this often and never applied are archived by the sweep."),
  })
  .strict();

export const LearningConfigSchema = z
  .object({
    reflection_max_attempts: int(5, 1, 100, "Attempts before an outcome is dead-lettered with its error."),
    reflect_in_background: bool(true, "Process recorded outcomes in the background right after they are enqueued."),
    llm_url: z.string().url().optional().describe("OpenAI-compatible base URL consulted for ambiguous upserts (optional; rules decide without it)."),
    llm_model: z.string().min(1).default("gpt-4o-mini").describe("Model name sent to `learning.llm_url`."),
    llm_timeout_ms: int(5000, 100, 120000, "How long an ambiguous write waits for the endpoint before the rules decide."),
    llm_api_key_env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/).optional().describe("Env var holding the endpoint's API key (never the key itself)."),
  })
  .strict();

/** Knowledge Objects governance: human approval, the Markdown mirror, pre-action advisories. */
export const GovernanceConfigSchema = z
  .object({
    require_approval: z
      .object({
        swarm: bool(false, "Lessons written by agents, MCP clients, the curator or outcome extraction into the project tier (or imported by an agent: `cairn import` in its shell) start as `draft` until a person approves them (`cairn review`)."),
        hive: bool(false, "The same for the cross-project hive (includes automatic promotions)."),
      })
      .strict()
      .prefault({}),
    mirror: z
      .object({
        enabled: bool(false, "Keep a Markdown copy of every entry (for Obsidian) in sync on every change; `cairn mirror` rebuilds it either way."),
        dir: z.string().min(1).default(".swarm/knowledge").describe("Mirror folder, relative to the project (approved/, candidates/, drafts/, archived/)."),
      })
      .strict()
      .prefault({}),
    advisories: z
      .object({
        enabled: bool(true, "Match established and promoted entries' file globs and detection patterns before agent edits (`knowledge_check`, the plugin hook)."),
        max_text_chars: int(65536, 1024, 1_048_576, "Characters of new content or command text matched per check; the rest is not read."),
        budget_ms: int(50, 1, 10_000, "CPU time budget for detection patterns per check; patterns not reached in time are skipped (globs still match)."),
        max_results: int(5, 1, 50, "Advisories returned per check, enforced and pattern matches first."),
      })
      .strict()
      .prefault({}),
  })
  .strict();

/** Vectors for retrieval by meaning: which model embeds lessons and queries, and how recall uses them. */
export const EmbeddingConfigSchema = z
  .object({
    provider: z
      .enum(["builtin", "openai", "none"])
      .default("none")
      .describe("`none` (default): no vectors, words only; `builtin`: the offline word-vector model shipped in the package (opt-in: on the retrieval eval it adds little to words alone — recall@5 0.930 against 0.927, and no paraphrase found that words miss — and it costs CPU and memory: about 2 ms more a recall at 10k + 10k and 30–40 MB more resident at 100k + 100k; `npm run bench` measures each size both ways); `openai`: an OpenAI-compatible `/v1/embeddings` endpoint (Ollama serves one), falling back to the built-in model while it is unreachable."),
    url: z.string().url().optional().describe("Base URL of the embeddings endpoint (`http://127.0.0.1:11434/v1` for Ollama); required with provider `openai`."),
    model: z.string().min(1).default("nomic-embed-text").describe("Model name sent to the endpoint; part of the vector space id, so changing it needs `cairn reindex`."),
    api_key_env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/).optional().describe("Env var holding the endpoint's API key (never the key itself)."),
    timeout_ms: int(3000, 50, 120_000, "How long one request to the endpoint may take before it is retried or the built-in model answers."),
    batch_size: int(64, 1, 2048, "Texts per request to the endpoint (imports and `cairn reindex` send batches)."),
    retries: int(1, 0, 10, "Further attempts after a failed request before the built-in model answers for that batch."),
    retrieval: z
      .enum(["hybrid", "lexical", "semantic"])
      .default("hybrid")
      .describe("How recall and injection find candidates: words and vectors (`hybrid`), words only (`lexical`), or vectors only (`semantic`)."),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.provider === "openai" && !v.url) ctx.addIssue({ code: "custom", path: ["url"], message: "provider `openai` needs `embedding.url`" });
  });

/** The team hive on PostgreSQL: where its tables live, TLS, and how a session behaves when it is slow or down. */
export const HivePostgresConfigSchema = z
  .object({
    schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/).default("cairn").describe("Schema holding Cairn's tables in the hive database."),
    tls: z.enum(["url", "disable", "require", "verify-full"]).default("url").describe("TLS to the hive: `url` follows the URL's sslmode; `require` encrypts; `verify-full` also checks the certificate and host name."),
    tls_ca_file: z.string().min(1).optional().describe("PEM file of the CA that signed the server certificate (verify-full); default: the system's CAs."),
    read_timeout_ms: int(50, 5, 60_000, "Injection, recall and advisory reads wait this long for the hive, then answer from the project tier and recent hive results."),
    statement_timeout_ms: int(5000, 100, 600_000, "Server-side limit on any one statement, reads included; one cancelled for it counts as the hive being unreachable (a write waits in the outbox). Hot-path reads give up sooner, at `read_timeout_ms`."),
    connect_timeout_ms: int(3000, 100, 120_000, "How long opening a connection may take."),
    pool_max: int(3, 1, 50, "Connections per process (a CLI, a plugin and an MCP server each need very few)."),
    cache_entries: int(500, 0, 100_000, "Recent hive results kept in memory to answer from while the hive is unreachable."),
    retry_after_ms: int(5000, 100, 600_000, "After a failure, reads go straight to the fallback for this long before the hive is tried again."),
  })
  .strict();

/** Seed 002 §2.1: the architect is told when its conversation fills the model's context window. */
export const ContextBudgetConfigSchema = z
  .object({
    enabled: bool(true, "Tell orchestrator agents (in their system prompt) how full the model's context window is once it passes a threshold."),
    warn_threshold: num(0.7, 0.05, 1, "Share of the context window (`model_limits`) past which the architect gets a CONTEXT WARNING to summarise into .swarm/context.md."),
    critical_threshold: num(0.9, 0.05, 1, "Share past which the warning becomes CONTEXT CRITICAL: offload details now."),
  })
  .strict()
  .refine((c) => c.warn_threshold <= c.critical_threshold, { message: "warn_threshold must not be above critical_threshold", path: ["warn_threshold"] });

export const ConfigSchema = z
  .object({
    knowledge: KnowledgeConfigSchema.prefault({}),
    learning: LearningConfigSchema.prefault({}),
    governance: GovernanceConfigSchema.prefault({}),
    hive_path: z.string().min(1).optional().describe("Hive database file (default: platform data dir). Env CAIRN_HIVE wins."),
    hive_url: z
      .string()
      .regex(/^postgres(ql)?:\/\//i, "must be a postgres:// URL")
      .optional()
      .describe("Team hive on PostgreSQL (`postgres://user@host:5432/db`); replaces the hive file. Env CAIRN_HIVE_URL wins. Keep the password in PGPASSWORD or ~/.pgpass; it is masked wherever Cairn prints the URL."),
    hive_postgres: HivePostgresConfigSchema.prefault({}),
    embedding: EmbeddingConfigSchema.prefault({}),
    swarm_dir: z.string().min(1).default(".swarm").describe("Folder under the project holding cairn.db (shared with opencode-swarm)."),
    model_limits: z
      .record(z.string(), z.number().int().min(1000))
      .default({ default: 128000 })
      .describe("Context window in tokens per model id; it overrides the window the host reports (OpenCode does), and `default` applies to models neither names."),
    context_budget: ContextBudgetConfigSchema.prefault({}),
    busy_timeout_ms: int(5000, 0, 600000, "How long one attempt of a write waits for another process's lock; a write makes up to 21 attempts, so a lock held past about 21× this fails it (a wait that outlasts an attempt and 1 s is announced on stderr, naming the file)."),
  })
  .strict();

export type CairnConfig = z.output<typeof ConfigSchema>;
export type KnowledgeConfig = z.output<typeof KnowledgeConfigSchema>;
export type GovernanceConfig = z.output<typeof GovernanceConfigSchema>;
export type HivePostgresConfig = z.output<typeof HivePostgresConfigSchema>;
export type ContextBudgetConfig = z.output<typeof ContextBudgetConfigSchema>;
export type EmbeddingConfig = z.output<typeof EmbeddingConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/** The per-user data dir for the hive: XDG on Linux, Application Support on macOS, LOCALAPPDATA on Windows. */
export function platformDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "cairn");
  if (platform === "win32") return path.join(env.LOCALAPPDATA ?? path.join(home, "AppData", "Local"), "cairn");
  return path.join(env.XDG_DATA_HOME || path.join(home, ".local", "share"), "cairn");
}

export function platformConfigDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  if (platform === "darwin") return path.join(home, "Library", "Preferences", "cairn");
  if (platform === "win32") return path.join(env.APPDATA ?? path.join(home, "AppData", "Roaming"), "cairn");
  return path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), "cairn");
}

/** Why a config file could not be read, in words (the files read without existing are the ones named by --config or CAIRN_CONFIG). */
function unreadableWhy(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file. Check the path given with --config or in CAIRN_CONFIG, or leave both out to use the default.";
  if (code === "EISDIR") return "it is a folder; name the JSON file in it.";
  if (code === "EACCES" || code === "EPERM") return "permission denied; make it readable to you.";
  return (e as Error).message;
}

function readJsonFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = decodeText(fs.readFileSync(file));
  } catch (e) {
    throw new InvalidConfigError(`Cannot read config file ${file}: ${unreadableWhy(e)}`);
  }
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("the top level must be an object");
    return v as Record<string, unknown>;
  } catch (e) {
    throw new InvalidConfigError(`Config file ${file} is not valid JSON: ${(e as Error).message}`);
  }
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      v && typeof v === "object" && !Array.isArray(v) && prev && typeof prev === "object" && !Array.isArray(prev)
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/** `CAIRN__knowledge__max_inject_count=3` → { knowledge: { max_inject_count: 3 } }. */
function envOverrides(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith("CAIRN__") || raw === undefined) continue;
    const keys = name.slice("CAIRN__".length).toLowerCase().split("__").filter(Boolean);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // A bare string is a string value.
    }
    let node = out;
    keys.forEach((k, i) => {
      if (i === keys.length - 1) node[k] = value;
      else node = (node[k] ??= {}) as Record<string, unknown>;
    });
  }
  if (env.CAIRN_HIVE) out.hive_path = env.CAIRN_HIVE;
  if (env.CAIRN_HIVE_URL) out.hive_url = env.CAIRN_HIVE_URL;
  return out;
}


/** The keys the schema knows in the object at `at` (e.g. ["knowledge"]), for "did you mean". */
function knownKeysAt(at: readonly PropertyKey[]): string[] {
  let t: z.ZodType | undefined = ConfigSchema;
  for (let i = 0; ; i++) {
    // Defaults and prefaults wrap the object; its shape is inside.
    for (let unwrap = 0; unwrap < 5; unwrap++) {
      const inner = (t as unknown as { def?: { innerType?: z.ZodType } } | undefined)?.def?.innerType;
      if (!inner) break;
      t = inner;
    }
    if (!(t instanceof z.ZodObject)) return [];
    const shape = t.shape as Record<string, z.ZodType>;
    if (i === at.length) return Object.keys(shape);
    t = shape[String(at[i])];
  }
}

/** "max_inject_cont (did you mean max_inject_count?)", or what replaces a key opencode-swarm has and Cairn does not. */
function unknownKeyText(at: readonly PropertyKey[], key: string): string {
  const keyPath = [...at, key].join(".");
  const moved = keyPath === "hooks" ? hooksGroupAdvice("in the options of Cairn's plugin entry in opencode.json") : swarmKeyAdvice(keyPath);
  if (moved) return `${key} (${moved})`;
  const near = nearestName(key, knownKeysAt(at));
  return near ? `${key} (did you mean ${near}?)` : key;
}

/** One zod issue as the key it is about and what is wrong with it. */
function issueText(i: z.core.$ZodIssue): { key: string; problem: string } {
  const key = i.path.join(".") || "(root)";
  const issue = i as { code: string; values?: unknown[]; keys?: string[]; expected?: string };
  if (issue.code === "unrecognized_keys") return { key, problem: `unknown key(s) ${(issue.keys ?? []).map((k) => unknownKeyText(i.path, k)).join(", ")}` };
  if (issue.values) return { key, problem: `must be one of ${issue.values.map(String).join(", ")}` };
  return { key, problem: plainProblem(i as Parameters<typeof plainProblem>[0]) };
}

/** Turns a zod failure into one message naming each bad key and what it accepts. */
export function describeConfigError(err: z.ZodError, source: string): InvalidConfigError {
  const lines = err.issues.map((i) => {
    const t = issueText(i);
    return fieldProblem(t.key, t.problem);
  });
  return new InvalidConfigError(`Invalid config (${source}):\n  ${lines.join("\n  ")}`, { issues: err.issues });
}

/** A config layer that was left out: where it came from, the key at fault (none when the file itself is unreadable), and what to do. */
export interface ConfigProblem {
  file: string;
  key?: string;
  problem: string;
  fix: string;
}

/** Each bad key of one layer, with the fix said in the layer's own terms (a file to edit, an env variable to change). */
function layerProblems(source: string, err: z.ZodError): ConfigProblem[] {
  const where = source === "env" ? "the CAIRN__… environment variables" : source;
  return err.issues.flatMap((i): ConfigProblem[] => {
    const unknown = (i as { code: string }).code === "unrecognized_keys" ? ((i as { keys?: string[] }).keys ?? []) : undefined;
    if (unknown) {
      return unknown.map((k) => ({
        file: source,
        key: [...i.path.map(String), k].join("."),
        problem: `unknown key ${unknownKeyText(i.path, k)}`,
        fix: `Remove or rename it in ${where} (\`cairn config\` lists every key).`,
      }));
    }
    const t = issueText(i);
    const key = i.path.map(String).join(".");
    const fix = key
      ? `Set ${key} in ${where} to a valid value, or delete it to use the default (\`cairn config\` shows each key's default and meaning).`
      : `Make the top level of ${where} a JSON object of config keys (\`cairn config\` lists them).`;
    return [{ file: source, ...(key ? { key } : {}), problem: t.problem, fix }];
  });
}

export function parseConfig(raw: unknown, source = "options"): CairnConfig {
  const r = ConfigSchema.safeParse(raw ?? {});
  if (!r.success) throw describeConfigError(r.error, source);
  return r.data;
}

export interface LoadConfigOptions {
  projectDir: string;
  overrides?: ConfigInput | Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /**
   * Leave out a layer (file, env) that does not read or validate and say why in `problems`, instead of
   * throwing: `cairn doctor` is what a person runs when things are broken, so it must open regardless.
   */
  lenient?: boolean;
}

/** The user config file: CAIRN_CONFIG, else `config.json` in the platform config dir. */
export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.CAIRN_CONFIG || path.join(platformConfigDir(env), "config.json");
}

/**
 * Sets top-level keys in the user config file (created if missing, other keys kept), checked against
 * the schema first. Written owner-only: it may hold a database URL.
 */
export function updateUserConfig(patch: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): string {
  const file = userConfigFile(env);
  const current = fs.existsSync(file) ? readJsonFile(file) : {};
  const next = { ...current, ...patch };
  parseConfig(next, file);
  makeFolder(path.dirname(file));
  // A symlinked config (dotfiles) keeps its link: the file it names is the one replaced.
  const target = fs.existsSync(file) ? fs.realpathSync(file) : file;
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, target);
  return file;
}

/** Precedence, lowest first: defaults, user file (or CAIRN_CONFIG), project file, env, explicit overrides. */
export function loadConfig(opts: LoadConfigOptions): { config: CairnConfig; sources: string[]; problems: ConfigProblem[] } {
  const env = opts.env ?? process.env;
  const sources: string[] = [];
  const problems: ConfigProblem[] = [];
  let merged: Record<string, unknown> = {};
  const add = (source: string, read: () => Record<string, unknown>) => {
    if (!opts.lenient) {
      merged = deepMerge(merged, read());
      sources.push(source);
      return;
    }
    let layer: Record<string, unknown>;
    try {
      layer = read();
    } catch (e) {
      const why = (e as Error).message;
      problems.push({ file: source, problem: why, fix: /not valid JSON/.test(why) ? `Correct the JSON in ${source} (or move it aside to use the defaults).` : `Make ${source} readable, or move it aside.` });
      return;
    }
    // Each layer is checked alone, so the finding names the file that holds the bad key.
    const r = ConfigSchema.safeParse(layer);
    if (!r.success) {
      problems.push(...layerProblems(source, r.error));
      return;
    }
    merged = deepMerge(merged, layer);
    sources.push(source);
  };
  const userFile = userConfigFile(env);
  if (env.CAIRN_CONFIG || fs.existsSync(userFile)) add(userFile, () => readJsonFile(userFile));
  const projectFile = path.join(opts.projectDir, ".swarm", "cairn.json");
  if (fs.existsSync(projectFile)) add(projectFile, () => readJsonFile(projectFile));
  const fromEnv = envOverrides(env);
  if (Object.keys(fromEnv).length) add("env", () => fromEnv);
  if (opts.overrides) {
    merged = deepMerge(merged, opts.overrides as Record<string, unknown>);
    sources.push("options");
  }
  if (!opts.lenient) return { config: parseConfig(merged, sources.join(" + ") || "defaults"), sources, problems };
  const all = ConfigSchema.safeParse(merged);
  if (all.success) return { config: all.data, sources, problems };
  // Layers valid alone can still clash together: say so and fall back to the defaults.
  problems.push(...layerProblems(sources.join(" + "), all.error));
  return { config: parseConfig({}, "defaults"), sources: [], problems };
}

/** The config as it may be shown (`cairn config`, doctor, logs): the hive URL's password masked. */
export function redactConfig(config: CairnConfig): CairnConfig {
  return config.hive_url ? { ...config, hive_url: maskUrl(config.hive_url) } : config;
}

/** Markdown table of every key, its default and its meaning — generated, so docs never drift. */
export function configReference(): string {
  const rows: string[] = ["| key | default | meaning |", "| --- | --- | --- |"];
  const walk = (schema: z.ZodObject<z.ZodRawShape>, prefix: string) => {
    for (const [key, field] of Object.entries(schema.shape)) {
      const f = field as z.ZodType;
      const inner = unwrap(f);
      if (inner instanceof z.ZodObject) {
        walk(inner as z.ZodObject<z.ZodRawShape>, `${prefix}${key}.`);
        continue;
      }
      const def = defaultOf(f);
      rows.push(`| \`${prefix}${key}\` | ${def === undefined ? "—" : `\`${JSON.stringify(def)}\``} | ${f.description ?? ""} |`);
    }
  };
  walk(ConfigSchema as unknown as z.ZodObject<z.ZodRawShape>, "");
  return rows.join("\n");
}

function unwrap(t: z.ZodType): z.ZodType {
  let cur: z.ZodType = t;
  for (let i = 0; i < 5; i++) {
    const def = (cur as unknown as { def?: { innerType?: z.ZodType } }).def;
    if (def?.innerType) cur = def.innerType;
    else break;
  }
  return cur;
}

function defaultOf(t: z.ZodType): unknown {
  const r = t.safeParse(undefined);
  return r.success ? r.data : undefined;
}
