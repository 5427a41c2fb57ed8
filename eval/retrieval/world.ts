// Builds the eval's world: a temp project and temp hive holding the real memories and the written lessons.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EntrySchema, LIVE_STATUSES, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { openCairn, type Cairn } from "../../src/engine.js";
import { unitHash, type LessonSpec } from "./spec.js";

export const MEMORIES_FILE = fileURLToPath(new URL("../../../shared/data/swarm-tools-memories.jsonl", import.meta.url));

export interface World {
  cairn: Cairn;
  root: string;
  /** Every live entry of both tiers (for the two baselines). */
  live: Entry[];
  /** Entry id → the stable key cases refer to (external_id, else the entry id). */
  keyOf: Map<string, string>;
  keys: Set<string>;
  loaded: { memories: number; written: number; rejected: number };
}

const BASE_DATE = Date.parse("2025-01-06T09:00:00Z");

function toEntry(l: LessonSpec, project: { id: string; name: string }): Entry {
  const created = new Date(BASE_DATE + Math.floor(unitHash(`${l.id}#d`) * 300) * 86_400_000).toISOString();
  const confirmations = l.status === "candidate" ? 1 : 3;
  const hive = l.tier === "hive";
  const sourceId = hive ? `p_${createHash("sha256").update(l.source ?? "hive").digest("hex").slice(0, 16)}` : project.id;
  return EntrySchema.parse({
    id: newEntryId(),
    handle: "",
    tier: l.tier,
    lesson: l.lesson,
    category: l.category,
    kind: l.kind,
    tags: l.tags,
    applicability: {
      scope: l.scope,
      file_globs: l.globs,
      tech_stack: l.stack,
      agents: l.agents,
      triggers: l.triggers,
    },
    directive: { required_actions: l.required, forbidden_actions: l.forbidden, ...(l.priority ? { priority: l.priority } : {}) },
    lifecycle: {
      status: l.status,
      confidence: l.confidence,
      confirmations: Array.from({ length: confirmations }, (_, i) => ({ at: created, phase: `${i + 1}`, project_id: sourceId })),
    },
    provenance: {
      created_by: "import:eval",
      source_project_id: sourceId,
      source_project_name: hive ? l.source : project.name,
      derived_from: { kind: "import", ref: "eval/retrieval" },
      external_id: l.id,
    },
    created_at: created,
    updated_at: created,
  });
}

/** Points HOME and the XDG dirs into `root` so nothing reads or writes the user's real config or data. */
function sandboxEnv(root: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("CAIRN")) delete env[k];
  env.HOME = path.join(root, "home");
  env.XDG_DATA_HOME = path.join(root, "xdg", "data");
  env.XDG_CONFIG_HOME = path.join(root, "xdg", "config");
  env.XDG_CACHE_HOME = path.join(root, "xdg", "cache");
  env.XDG_STATE_HOME = path.join(root, "xdg", "state");
  for (const d of [env.HOME, env.XDG_DATA_HOME, env.XDG_CONFIG_HOME, env.XDG_CACHE_HOME, env.XDG_STATE_HOME]) fs.mkdirSync(d!, { recursive: true });
  Object.assign(process.env, env);
  return env;
}

export async function buildWorld(lessons: readonly LessonSpec[], memoriesFile = MEMORIES_FILE): Promise<World> {
  if (!fs.existsSync(memoriesFile)) throw new Error(`The real memories are missing: ${memoriesFile} (the eval expects ../shared/data next to the repo).`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-eval-"));
  const env = sandboxEnv(root);
  const projectDir = path.join(root, "project");
  fs.mkdirSync(projectDir, { recursive: true });
  // A hive path given by a setting must be in a folder that exists (a missing one is refused as a typo).
  fs.mkdirSync(path.join(root, "hive"));
  const cairn = await openCairn({ projectDir, hivePath: path.join(root, "hive", "hive.db"), env, actor: "human:eval", config: { embedding: { provider: "builtin" } } });

  // Real memories first, through the trusted import path exactly as a user would load them.
  const mem = await cairn.importFile(memoriesFile, { format: "swarm-tools", trusted: true });
  const file = path.join(root, "written.jsonl");
  fs.writeFileSync(file, lessons.map((l) => JSON.stringify(toEntry(l, cairn.project))).join("\n") + "\n");
  const own = await cairn.importFile(file, { format: "cairn" });

  const live: Entry[] = [];
  const keyOf = new Map<string, string>();
  live.push(...(await cairn.list({ statuses: LIVE_STATUSES, limit: 1_000_000, order: "oldest" })));
  for (const e of live) keyOf.set(e.id, e.provenance.external_id ?? e.id);
  return {
    cairn,
    root,
    live,
    keyOf,
    keys: new Set(keyOf.values()),
    loaded: { memories: mem.imported, written: own.imported, rejected: mem.rejected + own.rejected },
  };
}

export async function disposeWorld(w: World): Promise<void> {
  await w.cairn.close();
  fs.rmSync(w.root, { recursive: true, force: true });
}
