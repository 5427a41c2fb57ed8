// Issue 11 item 6: every config key changes something a user can observe — a key that does nothing is a lie in the docs.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { openCairn, type Cairn, type ConfigInput } from "../../src/index.js";
import { ConfigSchema } from "../../src/config.js";
import { contextBudget } from "../../src/retrieval/context-budget.js";
import { callTool, knowledgeAdd } from "../../src/tools/index.js";
import { addProject, makeSandbox, removeSandbox, runWorker, type Sandbox } from "../fixtures/workers/sandbox.js";
import { startLlmServer, type Reply } from "../fixtures/llm-server.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { startProxy, viaProxy } from "../helpers/tcp-proxy.js";
import { startTlsPgProxy, TEST_CA_FILE } from "../helpers/tls-pg-proxy.js";
import { startEmbeddingServer, type EmbeddingReply } from "../fixtures/embedding-server.js";
import pg from "pg";

/** Every leaf key of the schema, dotted (`knowledge.enabled`); `model_limits` is a record, so a leaf. */
function leafKeys(schema: z.ZodType, prefix = ""): string[] {
  let t = schema;
  for (let i = 0; i < 5; i++) {
    const inner = (t as unknown as { def?: { innerType?: z.ZodType } }).def?.innerType;
    if (inner) t = inner;
    else break;
  }
  if (!(t instanceof z.ZodObject)) return [prefix.slice(0, -1)];
  return Object.entries(t.shape as Record<string, z.ZodType>).flatMap(([k, v]) => leafKeys(v, `${prefix}${k}.`));
}

function configFor(key: string, value: unknown): ConfigInput {
  const parts = key.split(".");
  const root: Record<string, unknown> = {};
  let node = root;
  parts.forEach((p, i) => {
    if (i === parts.length - 1) node[p] = value;
    else node = (node[p] = {}) as Record<string, unknown>;
  });
  return root as ConfigInput;
}

function merge(a: ConfigInput, b: ConfigInput): ConfigInput {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = v && typeof v === "object" && !Array.isArray(v) && prev && typeof prev === "object" ? merge(prev as ConfigInput, v as ConfigInput) : v;
  }
  return out as ConfigInput;
}

interface Env {
  cairn: Cairn;
  sb: Sandbox;
  config: ConfigInput;
  /** Moves the engine's clock forward. */
  advanceDays(days: number): void;
  /** Another project on the same hive, same config. */
  project(name: string): Promise<Cairn>;
}

/** One key's scenario: the observation under the default and under `changed` must differ. */
interface Scenario {
  changed: unknown;
  /** Config both runs share (the key under test is set over it). */
  base?: ConfigInput;
  /** Needs the PostgreSQL test server (CI, or CAIRN_TEST_PG); `__PG_URL__`, `__PG_A__` and `__PG_B__` are filled in. */
  pg?: boolean;
  observe(env: Env): Promise<unknown>;
}

async function observeWith(config: ConfigInput, scenario: Scenario): Promise<unknown> {
  const sb = makeSandbox();
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const open: Cairn[] = [];
  // A PostgreSQL hive is chosen by config, so no hive file is forced on those runs.
  const start = async (dir: string) => {
    const c = await openCairn({ projectDir: dir, ...(scenario.pg ? {} : { hivePath: sb.hivePath }), env: sb.env, config, now });
    open.push(c);
    return c;
  };
  const schemas = scenario.pg ? { a: uniqueSchema("cfg_a"), b: uniqueSchema("cfg_b") } : undefined;
  let text = JSON.stringify(config).replaceAll("__SANDBOX__", sb.root.replace(/\\/g, "/"));
  if (schemas) text = text.replaceAll("__PG_URL__", pgTestUrl()!).replaceAll("__PG_A__", schemas.a).replaceAll("__PG_B__", schemas.b);
  config = JSON.parse(text) as ConfigInput;
  try {
    const cairn = await start(sb.projectDir);
    return await scenario.observe({
      cairn, sb, config, advanceDays: (d) => (offset += d * 86_400_000), project: (name) => start(addProject(sb, name)),
    });
  } finally {
    for (const c of open) await c.close();
    removeSandbox(sb);
    if (schemas) for (const schema of Object.values(schemas)) await dropSchema(pgTestUrl()!, schema);
  }
}

/** Which of the run's two schemas holds Cairn's entries table ("a", "b" or "none"). */
async function schemaInUse(e: Env): Promise<string> {
  await e.cairn.add({ lesson: LESSON, category: "tooling" }, { tier: "hive" });
  const pg = (e.config as { hive_postgres?: { schema?: string } }).hive_postgres?.schema ?? "";
  const rows = await adminQuery<{ table_schema: string }>(pgTestUrl()!, "SELECT table_schema FROM information_schema.tables WHERE table_name = 'entries' AND table_schema = $1", [pg]);
  return rows.length ? (pg.includes("cfg_a") ? "a" : "b") : "none";
}
/** Patient timeouts: a busy CI machine must not turn a slow answer into a fallback. */
const PATIENT = { read_timeout_ms: 10_000, connect_timeout_ms: 30_000 };
const PG_HIVE: ConfigInput = { hive_url: "__PG_URL__", hive_postgres: { schema: "__PG_A__", ...PATIENT } };

const TOPICS = ["invoice", "payment", "session", "upload", "search", "report", "export", "webhook", "cache", "queue", "mailer", "billing"];
/** Distinct, specific lessons (no two are near-duplicates at the default threshold). */
const lessonAbout = (i: number) =>
  `In src/${TOPICS[i % TOPICS.length]}/handler${i}.ts validate the ${TOPICS[(i + 5) % TOPICS.length]} payload before writing row ${i} to Postgres.`;
const LESSON = "Run prisma generate after editing schema.prisma in packages/db, or the API build uses a stale client.";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const swarm = (e: Env) => (e.cairn as unknown as { services: { swarm: any } }).services.swarm;

async function addMany(e: Env, n: number, tier: "swarm" | "hive" = "swarm"): Promise<void> {
  for (let i = 0; i < n; i++) await e.cairn.add({ lesson: lessonAbout(i), category: "tooling" }, { tier });
}

const count = async (e: Env, tier: "swarm" | "hive") => (await e.cairn.list({ tier, statuses: ["candidate", "established", "draft"] })).length;
const statusAfterPhases = async (e: Env, id: string, phases: number) => {
  for (let i = 1; i <= phases; i++) await e.cairn.completePhase(`phase-${i}`);
  return (await e.cairn.list({ tier: "swarm", statuses: ["candidate", "established", "archived"] })).find((x) => x.id === id)?.lifecycle.status ?? "gone";
};
/** An entry flagged (or not) for low utility: shown 3 times (as injection counts it), applied 5 times, ignored 20 (utility 0.2). */
async function lowUtilityFlag(e: Env): Promise<string[]> {
  const r = await e.cairn.add({ lesson: LESSON, category: "tooling" });
  const store = swarm(e);
  for (let i = 0; i < 3; i++) await store.recordUsage([r.id], "shown", "test");
  for (let i = 0; i < 5; i++) await e.cairn.feedback(r.id!, "applied");
  for (let i = 0; i < 20; i++) await e.cairn.feedback(r.id!, "ignored");
  return (await e.cairn.flagged()).map((x) => x.id);
}
/** Whether a confident, useful lesson survives its TTL (evergreen entries do). */
async function evergreenSurvives(e: Env, usage: { applied: number; ignored: number }): Promise<string> {
  const r = await e.cairn.add({ lesson: LESSON, category: "tooling", confidence: 0.95 });
  for (let i = 0; i < usage.applied; i++) await e.cairn.feedback(r.id!, "applied");
  for (let i = 0; i < usage.ignored; i++) await e.cairn.feedback(r.id!, "ignored");
  return statusAfterPhases(e, r.id!, 2);
}
const ESTABLISHED = { status: "established" as const, category: "security" as const };
async function encounterPart(e: Env, crossProjects: number): Promise<number> {
  const r = await e.cairn.add({ lesson: LESSON, category: "tooling", phase: "p1" }, { tier: "hive" });
  await e.cairn.add({ lesson: LESSON, category: "tooling", phase: "p2" }, { tier: "hive" });
  for (let i = 0; i < crossProjects; i++) await (await e.project(`other-${i}`)).add({ lesson: LESSON, category: "tooling", phase: "p1" }, { tier: "hive" });
  const hit = (await e.cairn.recall("prisma generate schema", { tier: "hive" })).find((h) => h.entry.id === r.id);
  return hit?.breakdown.encounter ?? Number.NaN;
}

// The ambiguous pair of test/learning/arbiter.test.ts: similar, neither duplicate nor contradiction.
const EXISTING_E2E = "Run the Playwright end-to-end suite against a production build so hydration bugs show up before release.";
const NEW_E2E = "Discovered that the Playwright suite against the production build misses hydration bugs behind feature flags that are off in release.";
const GOOD_RUN = { success: true, duration_ms: 180_000, error_count: 0, retry_count: 0 } as const;
const NO_BACKGROUND = { learning: { reflect_in_background: false } };
const SOME_URL = "http://127.0.0.1:9/v1";

/**
 * An outcome teaching a lesson the rules find ambiguous, reflected with a scripted endpoint running.
 * A configured `llm_url` is pointed at that endpoint; what the endpoint was asked and what became
 * of the existing lesson are the observation.
 */
async function arbiterRun(e: Env, reply: Reply = { content: '{"operation":"SUPERSEDE"}' }): Promise<unknown> {
  const server = await startLlmServer(reply);
  e.sb.env.TEST_LLM_KEY = "sk-test-not-a-real-key";
  const learning = e.config.learning ?? {};
  const config = merge(e.config, learning.llm_url ? { learning: { llm_url: server.url } } : {});
  const c = await openCairn({ projectDir: e.sb.projectDir, hivePath: e.sb.hivePath, env: e.sb.env, config });
  try {
    const existing = (await c.add({ lesson: EXISTING_E2E, category: "testing" })).id!;
    await c.recordOutcome({ id: "o-1", task: "Fix the checkout hydration bug", ...GOOD_RUN, evaluation: NEW_E2E });
    await c.reflect();
    const asked = server.requests.map((r) => ({ model: (r.body as { model?: string }).model, auth: r.headers.authorization ?? null }));
    return { asked, existing: (await c.get(existing)).lifecycle.status };
  } finally {
    await c.close();
    await server.close();
  }
}

/** What a hive write came to: its action, or the error code it failed with. */
const hiveAdd = (c: Cairn, lesson = LESSON) =>
  c.add({ lesson, category: "tooling" }, { tier: "hive" }).then((r) => r.action, (err: Error & { code?: string }) => err.code ?? "error");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hiveSchema = (e: Env) => (e.config as { hive_postgres: { schema: string } }).hive_postgres.schema;

/**
 * Holds an ACCESS EXCLUSIVE lock on the hive's entries table (as a long migration or VACUUM FULL
 * would): every read and write of it waits until the returned release is called.
 */
async function lockHiveEntries(schema: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: pgTestUrl() });
  await client.connect();
  await client.query("BEGIN");
  await client.query(`LOCK TABLE "${schema}".entries IN ACCESS EXCLUSIVE MODE`);
  let released: Promise<void> | undefined;
  return () => (released ??= client.query("COMMIT").then(() => client.end()));
}

/** Stands for the scripted embeddings endpoint a run starts (nothing listens on port 9, the discard port). */
const LIVE_EMBED_URL = "http://127.0.0.1:9/live/v1";
const DEAD_EMBED_URL = "http://127.0.0.1:9/v1";
const EMBED_KEY = "sk-embed-test-not-a-real-key";

/**
 * Lessons written (or reindexed) with a scripted embeddings endpoint running; `embedding.url` set to
 * LIVE_EMBED_URL is pointed at it. The observation: what the endpoint was sent (batch sizes, models,
 * Authorization headers) and under which model the vectors were stored.
 */
async function embeddingRun(e: Env, reply: EmbeddingReply, opts: { lessons?: string[]; reindex?: boolean } = {}): Promise<unknown> {
  const server = await startEmbeddingServer(reply);
  e.sb.env.TEST_EMBED_KEY = EMBED_KEY;
  const url = e.config.embedding?.url === LIVE_EMBED_URL ? server.url : e.config.embedding?.url;
  const config = merge(e.config, { embedding: { url } });
  const lessons = opts.lessons ?? [LESSON];
  try {
    // With reindex, the lessons are written without vectors and the reindex sends them in batches.
    const writer = await openCairn({ projectDir: e.sb.projectDir, hivePath: e.sb.hivePath, env: e.sb.env, config: opts.reindex ? merge(config, { embedding: { provider: "none" } }) : config });
    try {
      for (const lesson of lessons) await writer.add({ lesson, category: "tooling" });
    } finally {
      await writer.close();
    }
    if (opts.reindex) {
      const c = await openCairn({ projectDir: e.sb.projectDir, hivePath: e.sb.hivePath, env: e.sb.env, config });
      try {
        await c.reindex({ tier: "swarm" });
      } finally {
        await c.close();
      }
    }
    const raw = new SqliteStore(e.cairn.swarmPath, "swarm");
    try {
      const vectors = (await raw.vectorCounts()).map((v) => `${v.modelId}:${v.entries}`);
      return { batches: server.batches.map((b) => b.length), calls: server.calls, vectors };
    } finally {
      await raw.close();
    }
  } finally {
    await server.close();
  }
}

const SCENARIOS: Record<string, Scenario> = {
  "knowledge.enabled": {
    changed: false,
    observe: async (e) => (await callTool(knowledgeAdd, { lesson: LESSON }, { cairn: e.cairn, actor: "agent:coder" })).data.action,
  },
  "knowledge.swarm_max_entries": { changed: 10, observe: async (e) => (await addMany(e, 11), count(e, "swarm")) },
  "knowledge.hive_max_entries": { changed: 10, observe: async (e) => (await addMany(e, 11, "hive"), count(e, "hive")) },
  "knowledge.auto_promote_days": {
    changed: 5,
    observe: async (e) => {
      await e.cairn.add({ lesson: LESSON, category: "tooling" });
      e.advanceDays(10);
      return (await e.cairn.promoteDue()).map((p) => p.route);
    },
  },
  "knowledge.max_inject_count": {
    changed: 2,
    base: { knowledge: { dedup_threshold: 1 } },
    observe: async (e) => (await addMany(e, 6), (await e.cairn.inject({ task: "validate the payload before writing rows to Postgres" }, { recordShown: false })).entries.length),
  },
  "knowledge.inject_char_budget": {
    changed: 300,
    base: { knowledge: { dedup_threshold: 1 } },
    observe: async (e) => (await addMany(e, 6), (await e.cairn.inject({ task: "validate the payload before writing rows to Postgres" }, { recordShown: false })).text.length),
  },
  "knowledge.max_lesson_display_chars": {
    changed: 40,
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }), (await e.cairn.inject({ task: "run prisma generate after editing schema.prisma" }, { recordShown: false })).text),
  },
  "knowledge.dedup_threshold": {
    changed: 0.99,
    observe: async (e) => {
      await e.cairn.add({ lesson: LESSON, category: "tooling" });
      return (await e.cairn.add({ lesson: LESSON.replace("uses a stale client", "ships a stale client"), category: "tooling" })).action;
    },
  },
  "knowledge.scope_filter": {
    changed: ["global", "stack:prisma"],
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling", scope: "stack:prisma" }), (await e.cairn.recall("prisma generate schema")).length),
  },
  "knowledge.hive_enabled": {
    changed: false,
    observe: async (e) => e.cairn.add({ lesson: LESSON, category: "tooling" }, { tier: "hive" }).then((r) => r.action, (err: Error & { code?: string }) => err.code),
  },
  "knowledge.validation_enabled": { changed: false, observe: async (e) => (await e.cairn.add({ lesson: "Be careful with the code." })).action },
  "knowledge.evergreen_confidence": {
    changed: 1,
    base: { knowledge: { default_max_phases: 1 } },
    observe: (e) => evergreenSurvives(e, { applied: 4, ignored: 0 }),
  },
  "knowledge.evergreen_utility": {
    changed: 0.5,
    base: { knowledge: { default_max_phases: 1 } },
    observe: (e) => evergreenSurvives(e, { applied: 3, ignored: 1 }),
  },
  "knowledge.low_utility_threshold": { changed: 0.1, observe: lowUtilityFlag },
  "knowledge.min_retrievals_for_utility": { changed: 100, observe: lowUtilityFlag },
  "knowledge.low_utility_min_applied": { changed: 10, observe: lowUtilityFlag },
  "knowledge.default_max_phases": {
    changed: 2,
    observe: async (e) => statusAfterPhases(e, (await e.cairn.add({ lesson: LESSON, category: "tooling" })).id!, 3),
  },
  "knowledge.todo_max_phases": {
    changed: 1,
    observe: async (e) => statusAfterPhases(e, (await e.cairn.add({ lesson: "TODO: add a retry with backoff to the webhook sender in src/webhooks/send.ts.", category: "todo" })).id!, 2),
  },
  "knowledge.same_project_weight": { changed: 3, observe: (e) => encounterPart(e, 0) },
  "knowledge.cross_project_weight": { changed: 3, observe: (e) => encounterPart(e, 1) },
  "knowledge.confirmations_to_establish": {
    changed: 2,
    observe: async (e) => {
      await e.cairn.add({ lesson: LESSON, category: "tooling", phase: "p1" });
      return (await e.cairn.add({ lesson: LESSON, category: "tooling", phase: "p2" })).status;
    },
  },
  "knowledge.rejected_max_entries": {
    changed: 1,
    observe: async (e) => {
      for (const l of ["Be careful with the code.", "Do things properly.", "Write good code."]) await e.cairn.add({ lesson: l });
      return (await e.cairn.rejected()).length;
    },
  },
  "knowledge.feedback_half_life_days": {
    changed: 1,
    observe: async (e) => {
      const r = await e.cairn.add({ lesson: LESSON, category: "tooling" });
      for (let i = 0; i < 3; i++) await e.cairn.feedback(r.id!, "harmful", undefined, `human:t${i}`);
      e.advanceDays(30);
      return (await e.cairn.recall("prisma generate schema"))[0]?.breakdown.feedback ?? 0;
    },
  },
  "knowledge.auto_archive_min_shown": {
    changed: 3,
    observe: async (e) => {
      const r = await e.cairn.add({ lesson: LESSON, category: "tooling", auto_generated: true });
      for (let i = 0; i < 4; i++) await swarm(e).recordUsage([r.id], "shown", "test");
      return (await e.cairn.sweep()).flatMap((x) => x.archived_unused);
    },
  },
  "learning.reflect_in_background": {
    changed: false,
    observe: async (e) => {
      await e.cairn.recordOutcome({ id: "o-1", task: "Fix the checkout hydration bug", ...GOOD_RUN, evaluation: NEW_E2E });
      // The background pass the engine scheduled, if it scheduled one (no clock involved).
      await (e.cairn as unknown as { reflecting?: Promise<unknown> }).reflecting;
      return (await e.cairn.queue("pending")).counts;
    },
  },
  "learning.reflection_max_attempts": {
    changed: 1,
    base: NO_BACKGROUND,
    observe: async (e) => {
      const raw = new SqliteStore(e.cairn.swarmPath, "swarm");
      try {
        await raw.enqueueOutcome("poison-1", { task: 42, success: "yes" }, new Date().toISOString());
      } finally {
        await raw.close();
      }
      const r = await e.cairn.reflect();
      return [r.failed, r.dead];
    },
  },
  "learning.llm_url": { changed: SOME_URL, base: NO_BACKGROUND, observe: (e) => arbiterRun(e) },
  "learning.llm_model": { changed: "another-model", base: { learning: { reflect_in_background: false, llm_url: SOME_URL } }, observe: (e) => arbiterRun(e) },
  "learning.llm_api_key_env": { changed: "TEST_LLM_KEY", base: { learning: { reflect_in_background: false, llm_url: SOME_URL } }, observe: (e) => arbiterRun(e) },
  "learning.llm_timeout_ms": {
    // An answer 1.5 s late: followed within the default 5 s, too late for 100 ms (the rules decide).
    changed: 100,
    base: { learning: { reflect_in_background: false, llm_url: SOME_URL } },
    observe: (e) => arbiterRun(e, { content: '{"operation":"SUPERSEDE"}', delayMs: 1500 }),
  },
  "governance.require_approval.swarm": {
    changed: true,
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }, { actor: "agent:coder" })).status,
  },
  "governance.require_approval.hive": {
    changed: true,
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }, { tier: "hive", actor: "agent:coder" })).status,
  },
  "governance.mirror.enabled": {
    changed: true,
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }), fs.existsSync(path.join(e.sb.projectDir, ".swarm", "knowledge"))),
  },
  "governance.mirror.dir": {
    changed: "notes/lessons",
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }), await e.cairn.rebuildMirror(), fs.existsSync(path.join(e.sb.projectDir, "notes", "lessons"))),
  },
  "governance.advisories.enabled": {
    changed: false,
    observe: async (e) => {
      await e.cairn.add({ lesson: LESSON, ...ESTABLISHED, applicability: { file_globs: ["packages/db/**"] } });
      return (await e.cairn.checkAdvisories({ tool: "edit", files: ["packages/db/schema.prisma"], record: false })).length;
    },
  },
  "governance.advisories.max_results": {
    changed: 1,
    observe: async (e) => {
      await e.cairn.add({ lesson: LESSON, ...ESTABLISHED, applicability: { file_globs: ["packages/db/**"] } });
      await e.cairn.add({ lesson: "Never hand-edit the generated migration SQL in packages/db/migrations; create a new migration instead.", ...ESTABLISHED, applicability: { file_globs: ["packages/db/**"] } });
      return (await e.cairn.checkAdvisories({ tool: "edit", files: ["packages/db/schema.prisma"], record: false })).length;
    },
  },
  "governance.advisories.max_text_chars": {
    changed: 1024,
    observe: async (e) => {
      await e.cairn.add({ lesson: "Never call eval on request data in the API handlers; it lets a caller run code on the server.", ...ESTABLISHED, prevention: { detection_pattern: "eval\\(req\\." } });
      const text = `${"// filler line\n".repeat(200)}const out = eval(req.body.expr);`;
      return (await e.cairn.checkAdvisories({ tool: "edit", files: ["src/api/calc.ts"], text, record: false })).length;
    },
  },
  "governance.advisories.budget_ms": {
    // 20 detection patterns, each scanning a 1 MB edit to its last line (tens of ms each in RE2JS):
    // the default 50 ms reaches a few of them, a 10 s budget all 20. Observed: were all 20 reached
    // (how many of the few varies with the machine's load).
    changed: 10_000,
    base: { governance: { advisories: { max_text_chars: 1_048_576, max_results: 50 } } },
    observe: async (e) => {
      for (let i = 0; i < 20; i++) await e.cairn.add({ lesson: lessonAbout(i), ...ESTABLISHED, prevention: { detection_pattern: "[a-z]+ [0-9]{7}" } });
      const text = `${"// filler line\n".repeat(69_000)}const id = lookup 1234567;`;
      const hits = await e.cairn.checkAdvisories({ tool: "edit", files: ["src/api/ids.ts"], text, record: false });
      return hits.filter((h) => h.matched === "pattern").length === 20;
    },
  },
  busy_timeout_ms: {
    // Another process holds the project's write lock for 7 s. With the default each attempt waits up to
    // 5 s and the write goes through; with 0 the driver's quick reopen-and-retry attempts (about 3 s in all)
    // run out first and the write fails with STORE_ERROR naming the file.
    changed: 0,
    observe: async (e) => {
      await e.cairn.add({ lesson: EXISTING_E2E, category: "testing" });
      const holder = runWorker("lock-holder.ts", [e.cairn.swarmPath, "7000"], e.sb.env);
      await holder.waitForLine(/^LOCKED/);
      const outcome = await e.cairn.add({ lesson: LESSON, category: "tooling" }).then((r) => r.action, (err: Error & { code?: string }) => err.code ?? "error");
      await holder.done;
      return outcome;
    },
  },
  hive_url: {
    changed: "__PG_URL__",
    pg: true,
    base: { hive_postgres: { schema: "__PG_A__", ...PATIENT } },
    observe: async (e) => (await e.cairn.doctor()).find((t) => t.tier === "hive")?.kind,
  },
  "hive_postgres.schema": { changed: "__PG_B__", pg: true, base: PG_HIVE, observe: schemaInUse },
  "hive_postgres.tls": {
    // The test server has TLS off: requiring it makes the hive unreachable (the write waits in the outbox).
    changed: "require",
    pg: true,
    base: PG_HIVE,
    observe: async (e) => e.cairn.add({ lesson: LESSON, category: "tooling" }, { tier: "hive" }).then((r) => r.action, (err: Error & { code?: string }) => err.code ?? "error"),
  },
  "hive_postgres.cache_entries": {
    // A hive that stops answering mid-session: the recent results answer from memory, unless none are kept.
    changed: 0,
    pg: true,
    base: { hive_url: "__PG_URL__", hive_postgres: { schema: "__PG_A__", read_timeout_ms: 1000, connect_timeout_ms: 30_000 } },
    observe: async (e) => {
      const proxy = await startProxy(Number(new URL(pgTestUrl()!).port || 5432));
      const c = await openCairn({ projectDir: e.sb.projectDir, env: e.sb.env, config: { ...e.config, hive_url: viaProxy(pgTestUrl()!, proxy.port) } });
      try {
        await c.add({ lesson: LESSON, category: "tooling" }, { tier: "hive" });
        const task = "run prisma generate after editing schema.prisma";
        assert.equal((await c.recall(task, { tier: "hive" })).length, 1, "the hive answers while it is up");
        proxy.stall();
        const whileDown = (await c.recall(task, { tier: "hive" })).length;
        proxy.resume();
        return whileDown;
      } finally {
        await c.close();
        await proxy.close();
      }
    },
  },
  "hive_postgres.tls_ca_file": {
    // The hive behind TLS with a certificate from the test CA: the system's CAs do not trust it, the CA file does.
    changed: TEST_CA_FILE,
    pg: true,
    base: { hive_url: "__PG_URL__", hive_postgres: { schema: "__PG_A__", tls: "verify-full", ...PATIENT } },
    observe: async (e) => {
      const proxy = await startTlsPgProxy(Number(new URL(pgTestUrl()!).port || 5432));
      const c = await openCairn({ projectDir: e.sb.projectDir, env: e.sb.env, config: { ...e.config, hive_url: viaProxy(pgTestUrl()!, proxy.port) } });
      try {
        return await hiveAdd(c);
      } finally {
        await c.close();
        await proxy.close();
      }
    },
  },
  "hive_postgres.read_timeout_ms": {
    // The entries table is locked for 1.5 s: a recall waits for it with 10 s, and with the default 50 ms
    // answers from the project tier instead (no cache, so no hive lesson).
    changed: 10_000,
    pg: true,
    base: { hive_url: "__PG_URL__", hive_postgres: { schema: "__PG_A__", cache_entries: 0, connect_timeout_ms: 30_000 } },
    observe: async (e) => {
      await hiveAdd(e.cairn);
      await e.cairn.recall("prisma generate schema", { tier: "hive" });
      const release = await lockHiveEntries(hiveSchema(e));
      const timer = setTimeout(() => void release(), 1500);
      try {
        return (await e.cairn.recall("prisma generate schema", { tier: "hive" })).length;
      } finally {
        clearTimeout(timer);
        await release();
      }
    },
  },
  "hive_postgres.statement_timeout_ms": {
    // The entries table is locked for 1.5 s: a hive write waits it out within the default 5 s; with 500 ms
    // the server cancels the statement and the write waits in the outbox.
    changed: 500,
    pg: true,
    base: PG_HIVE,
    observe: async (e) => {
      await hiveAdd(e.cairn);
      const release = await lockHiveEntries(hiveSchema(e));
      const timer = setTimeout(() => void release(), 1500);
      try {
        return await hiveAdd(e.cairn, EXISTING_E2E);
      } finally {
        clearTimeout(timer);
        await release();
      }
    },
  },
  "hive_postgres.connect_timeout_ms": {
    // The network to the hive hangs for the first half second: connecting waits it out within the default
    // 3 s; with 100 ms the connection attempt is given up and the write waits in the outbox.
    changed: 100,
    pg: true,
    base: { hive_url: "__PG_URL__", hive_postgres: { schema: "__PG_A__", read_timeout_ms: 10_000 } },
    observe: async (e) => {
      const proxy = await startProxy(Number(new URL(pgTestUrl()!).port || 5432));
      const c = await openCairn({ projectDir: e.sb.projectDir, env: e.sb.env, config: { ...e.config, hive_url: viaProxy(pgTestUrl()!, proxy.port) } });
      proxy.stall();
      const timer = setTimeout(() => proxy.resume(), 500);
      try {
        return await hiveAdd(c);
      } finally {
        clearTimeout(timer);
        proxy.resume();
        await c.close();
        await proxy.close();
      }
    },
  },
  "hive_postgres.pool_max": {
    // Six recalls at once while the entries table is locked: each holds a connection while it waits, up
    // to the pool's size. Counted on the server by this run's own application_name.
    changed: 1,
    pg: true,
    base: { hive_url: "__PG_URL__?application_name=__PG_A__", hive_postgres: { schema: "__PG_A__", ...PATIENT } },
    observe: async (e) => {
      await hiveAdd(e.cairn);
      const schema = hiveSchema(e);
      const release = await lockHiveEntries(schema);
      const recalls = Array.from({ length: 6 }, () => e.cairn.recall("prisma generate schema", { tier: "hive" }));
      let most = 0;
      try {
        // Up to 5 s for the default's three connections to open on a loaded machine.
        for (let i = 0; i < 50 && most < 3; i++) {
          await sleep(100);
          const [row] = await adminQuery<{ n: number }>(pgTestUrl()!, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1", [schema]);
          most = Math.max(most, row?.n ?? 0);
        }
      } finally {
        await release();
        await Promise.all(recalls);
      }
      return most;
    },
  },
  "hive_postgres.retry_after_ms": {
    // One read times out (the entries table is locked), then the lock goes. 600 ms later reads still skip
    // the hive under the default 5 s; with 100 ms the hive is asked again and answers.
    changed: 100,
    pg: true,
    base: { hive_url: "__PG_URL__", hive_postgres: { schema: "__PG_A__", cache_entries: 0, read_timeout_ms: 3000, connect_timeout_ms: 30_000 } },
    observe: async (e) => {
      await hiveAdd(e.cairn);
      const release = await lockHiveEntries(hiveSchema(e));
      try {
        await e.cairn.recall("prisma generate schema", { tier: "hive" });
      } finally {
        await release();
      }
      await sleep(600);
      return (await e.cairn.recall("prisma generate schema", { tier: "hive" })).length;
    },
  },
  hive_path: {
    changed: "__SANDBOX__/elsewhere/hive.db",
    observe: async (e) => {
      // Opened without an explicit hive path, so the config (or the platform default in the sandbox) decides.
      // A hive_path's folder must exist (a missing one is refused as a typo): the user made it.
      fs.mkdirSync(path.join(e.sb.root, "elsewhere"), { recursive: true });
      const c = await openCairn({ projectDir: e.sb.projectDir, env: e.sb.env, config: e.config });
      try {
        await c.add({ lesson: LESSON, category: "tooling" }, { tier: "hive" });
        return path.relative(e.sb.root, (await c.doctor()).find((t) => t.tier === "hive")!.location);
      } finally {
        await c.close();
      }
    },
  },
  "swarm_dir": {
    changed: ".cairn-data",
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }), fs.existsSync(path.join(e.sb.projectDir, ".cairn-data", "cairn.db"))),
  },
  "model_limits": {
    changed: { default: 10000 },
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }), (await e.cairn.inject({ task: "run prisma generate after editing schema.prisma", tokensUsed: 9000 }, { recordShown: false })).regime),
  },
  // Vectors follow every write once a model is chosen; doctor counts them per model.
  "embedding.provider": {
    changed: "builtin",
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }), (await e.cairn.doctor()).find((t) => t.tier === "swarm")!.vectors?.counts.map((m) => m.entries) ?? null),
  },
  "embedding.retrieval": {
    changed: "lexical",
    base: { embedding: { provider: "builtin" } },
    observe: async (e) => (await e.cairn.add({ lesson: LESSON, category: "tooling" }), (await e.cairn.recall("prisma generate stale client")).map((r) => r.breakdown.semantic ?? null)),
  },
  "embedding.url": {
    // Nothing answers at the default's stand-in: the built-in model stores the vector. The scripted endpoint does.
    changed: LIVE_EMBED_URL,
    base: { embedding: { provider: "openai", url: DEAD_EMBED_URL, retries: 0 } },
    observe: (e) => embeddingRun(e, { dim: 8 }),
  },
  "embedding.model": { changed: "another-embed", base: { embedding: { provider: "openai", url: LIVE_EMBED_URL } }, observe: (e) => embeddingRun(e, { dim: 8 }) },
  "embedding.api_key_env": { changed: "TEST_EMBED_KEY", base: { embedding: { provider: "openai", url: LIVE_EMBED_URL } }, observe: (e) => embeddingRun(e, { dim: 8 }) },
  "embedding.timeout_ms": {
    // An answer 0.6 s late: used within the default 3 s; with 100 ms the built-in model answers instead.
    changed: 100,
    base: { embedding: { provider: "openai", url: LIVE_EMBED_URL, retries: 0 } },
    observe: (e) => embeddingRun(e, { dim: 8, delayMs: 600 }),
  },
  "embedding.batch_size": {
    changed: 2,
    base: { embedding: { provider: "openai", url: LIVE_EMBED_URL } },
    observe: (e) => embeddingRun(e, { dim: 8 }, { lessons: [0, 1, 2, 3, 4].map(lessonAbout), reindex: true }),
  },
  "embedding.retries": {
    // An endpoint answering 503: one request and one retry by default, a single request with 0.
    changed: 0,
    base: { embedding: { provider: "openai", url: LIVE_EMBED_URL } },
    observe: (e) => embeddingRun(e, { status: 503 }),
  },
  // What the architect's system prompt says of the window (the plugin adds this line; test/opencode/context-budget.test.ts drives it there).
  "context_budget.enabled": {
    changed: false,
    observe: async (e) => contextBudget(e.cairn.config, 100_000).level,
  },
  "context_budget.warn_threshold": {
    changed: 0.5,
    observe: async (e) => contextBudget(e.cairn.config, 80_000).level,
  },
  "context_budget.critical_threshold": {
    changed: 0.75,
    observe: async (e) => contextBudget(e.cairn.config, 100_000).level,
  },
};

/**
 * Keys with no scenario here yet, with what the scenario needs. Empty, and meant to stay so:
 * a new key gets a scenario above.
 */
const PENDING: Record<string, string> = {};

const KEYS = leafKeys(ConfigSchema);

test("regression 11.6: every config key has a scenario (or is listed as pending with what it needs)", () => {
  const missing = KEYS.filter((k) => !(k in SCENARIOS) && !(k in PENDING));
  assert.deepEqual(missing.map((k) => `add a scenario for key ${k}`), []);
  const stale = [...Object.keys(SCENARIOS), ...Object.keys(PENDING)].filter((k) => !KEYS.includes(k));
  assert.deepEqual(stale.map((k) => `scenario for ${k}, which is no longer a config key`), []);
});

for (const key of KEYS.filter((k) => k in SCENARIOS)) {
  const scenario = SCENARIOS[key]!;
  test(`regression 11.6: config key ${key} changes observable behaviour`, scenario.pg ? pgTestOptions() : {}, async () => {
    const base = scenario.base ?? {};
    const placeholders = (c: ConfigInput) => JSON.parse(JSON.stringify(c).replace(/__PG_URL__/g, "postgres://x@127.0.0.1/x").replace(/__PG_[AB]__/g, "cairn_x")) as ConfigInput;
    const parsed = ConfigSchema.safeParse(placeholders(merge(base, configFor(key, scenario.changed))));
    assert.ok(parsed.success, `${key}: the changed value must be valid`);
    const before = await observeWith(base, scenario);
    const after = await observeWith(merge(base, configFor(key, scenario.changed)), scenario);
    assert.notDeepEqual(after, before, `${key}: default and ${JSON.stringify(scenario.changed)} give the same observation ${JSON.stringify(before)}`);
  });
}
