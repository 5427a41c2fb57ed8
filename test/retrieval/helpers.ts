// Retrieval test worlds: a sandboxed Cairn, and raw entries written straight to a tier's store (past the gates).
import path from "node:path";
import { EntrySchema, type Entry, type Tier } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { openCairn, type Cairn, type ConfigInput } from "../../src/index.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { dropSchema, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";

export interface RetrievalWorld {
  cairn: Cairn;
  sb: Sandbox;
}

export async function openWorld(config: ConfigInput = {}, sb: Sandbox = makeSandbox()): Promise<RetrievalWorld> {
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config });
  return { cairn, sb };
}

export async function withWorld(fn: (w: RetrievalWorld) => Promise<void>, config: ConfigInput = {}, sb?: Sandbox): Promise<void> {
  const w = await openWorld(config, sb);
  try {
    await fn(w);
  } finally {
    await w.cairn.close();
    removeSandbox(w.sb);
  }
}

export type RawEntry = { lesson: string } & Partial<{
  tier: Tier;
  kind: Entry["kind"];
  category: Entry["category"];
  tags: string[];
  globs: string[];
  stack: string[];
  triggers: string[];
  projects: string[];
  required: string[];
  forbidden: string[];
  priority: Entry["directive"]["priority"];
  source: string;
}>;

export function rawEntry(r: RawEntry): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({
    id: newEntryId(),
    handle: "",
    tier: r.tier ?? "swarm",
    lesson: r.lesson,
    category: r.category ?? "other",
    kind: r.kind ?? "learning",
    tags: r.tags ?? [],
    applicability: { file_globs: r.globs ?? [], tech_stack: r.stack ?? [], triggers: r.triggers ?? [], projects: r.projects ?? [] },
    directive: { required_actions: r.required ?? [], forbidden_actions: r.forbidden ?? [], ...(r.priority ? { priority: r.priority } : {}) },
    lifecycle: { status: "established", confidence: 0.8 },
    provenance: { created_by: "human:test", ...(r.source ? { source_project_name: r.source, source_project_id: `p_${r.source}` } : {}) },
    created_at: at,
    updated_at: at,
  });
}

/**
 * Writes entries with the store itself, before any Cairn opens the files: the way a hostile or
 * legacy row would sit in the database without ever passing the write gates.
 */
export async function insertRaw(sb: Sandbox, entries: RawEntry[]): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const tier of ["swarm", "hive"] as const) {
    const mine = entries.filter((e) => (e.tier ?? "swarm") === tier);
    if (!mine.length) continue;
    const file = tier === "swarm" ? path.join(sb.projectDir, ".swarm", "cairn.db") : sb.hivePath;
    const store = new SqliteStore(file, tier);
    try {
      for (const e of mine) out.push(await store.insertEntry(rawEntry(e), { type: "created", actor: "human:test" }));
    } finally {
      await store.close();
    }
  }
  return out;
}

export { makeSandbox, removeSandbox };

/**
 * A Cairn whose team hive is a throwaway PostgreSQL schema holding `hive` (written with the store, past the
 * gates) and whose project holds `project`; the schema and the sandbox are removed after `fn`.
 */
export async function withPgHive(hive: readonly RawEntry[], project: RawEntry[], fn: (cairn: Cairn) => Promise<void>): Promise<void> {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("retrieval");
  const sb = makeSandbox();
  const store = new PostgresStore({ url, schema }, "hive");
  try {
    for (const e of hive) await store.insertEntry(rawEntry({ ...e, tier: "hive" }), { type: "created", actor: "human:test" });
    if (project.length) await insertRaw(sb, project);
    const cairn = await openCairn({ projectDir: sb.projectDir, env: sb.env, config: { hive_url: url, hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 } } });
    try {
      await fn(cairn);
    } finally {
      await cairn.close();
    }
  } finally {
    await store.close();
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
}
