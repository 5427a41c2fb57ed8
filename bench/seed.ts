// Builds (once, then caches under bench/.cache/) a swarm db and a hive db of N entries each for a size and seed.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { EntrySchema, type Entry, type Status, type Tier } from "../src/core/entry.js";
import { newEntryId } from "../src/core/ids.js";
import { LATEST_SCHEMA_VERSION } from "../src/store/migrations.js";
import { SqliteStore } from "../src/store/sqlite-store.js";
import { EmbeddingService } from "../src/embed/service.js";
import { reindexStore } from "../src/embed/entry-vectors.js";
import { generatedLesson, realSentences, REPO_ROOT } from "./corpus.js";
import { chance, int, makeRng, pick, type Rng } from "./rng.js";
import { PROJECTS } from "./vocab.js";

/** Bump when the generator changes, so stale caches are rebuilt instead of silently reused. */
const CORPUS_VERSION = 1;
const BATCH = 5_000;
const DAY = 86_400_000;
const EPOCH = Date.parse("2026-01-01T00:00:00Z");

export interface Corpus {
  dir: string;
  projectDir: string;
  hivePath: string;
  /** Entries per tier. */
  size: number;
  seed: number;
  cached: boolean;
  buildSeconds: number;
}

const STATUS_MIX: Record<Tier, Array<[Status, number]>> = {
  swarm: [["candidate", 0.5], ["established", 0.3], ["promoted", 0.06], ["archived", 0.08], ["quarantined", 0.02], ["superseded", 0.04]],
  hive: [["candidate", 0.45], ["established", 0.45], ["archived", 0.06], ["quarantined", 0.01], ["superseded", 0.03]],
};

function status(rng: Rng, tier: Tier): Status {
  let r = rng();
  for (const [s, p] of STATUS_MIX[tier]) if ((r -= p) < 0) return s;
  return "candidate";
}

const projectId = (name: string) => `p_${createHash("sha256").update(`bench:${name}`).digest("hex").slice(0, 16)}`;

export function makeEntry(rng: Rng, tier: Tier, realText: string | undefined): Entry {
  const g = generatedLesson(rng);
  const at = new Date(EPOCH - int(rng, 0, 400) * DAY - int(rng, 0, DAY)).toISOString();
  const project = tier === "swarm" ? "bench-project" : pick(rng, PROJECTS);
  const shown = chance(rng, 0.4) ? int(rng, 1, 40) : 0;
  const feedback = chance(rng, 0.15);
  return EntrySchema.parse({
    id: newEntryId(), handle: "", tier, lesson: realText ?? g.lesson,
    category: realText ? pick(rng, ["architecture", "debugging", "tooling", "testing", "process"] as const) : g.category,
    kind: realText ? pick(rng, ["learning", "insight", "decision", "pattern"] as const) : g.kind,
    tags: [g.stack.name, g.domain],
    entities: [`feature:${g.domain}`],
    applicability: {
      scope: chance(rng, 0.12) ? `stack:${g.stack.name}` : "global",
      file_globs: chance(rng, 0.2) ? [`**/${g.domain}/**`] : [],
      tech_stack: chance(rng, 0.3) ? [g.stack.name] : [],
      triggers: chance(rng, 0.08) ? [g.domain] : [],
      agents: chance(rng, 0.05) ? ["coder"] : [],
    },
    directive: chance(rng, 0.1) ? { required_actions: [g.lesson.split(/[;:]/)[0]!.slice(0, 200)], priority: pick(rng, ["medium", "high"] as const) } : {},
    lifecycle: { status: status(rng, tier), confidence: Math.round((0.3 + rng() * 0.65) * 100) / 100, phases_alive: int(rng, 0, 9) },
    provenance: {
      created_by: pick(rng, ["agent:coder", "agent:architect", "human:cli", "curator"]),
      auto_generated: chance(rng, 0.6), source_project_id: projectId(project), source_project_name: project,
      derived_from: { kind: pick(rng, ["retrospective", "task", "outcome", "manual"] as const) },
    },
    usage: { shown, applied: shown ? int(rng, 0, shown) : 0, helpful: feedback ? int(rng, 0, 3) : 0, harmful: feedback ? int(rng, 0, 1) : 0 },
    created_at: at, updated_at: at,
  });
}

/** Inserts through the real Store (same SQL, triggers and FTS text as the engine), in big transactions. */
export async function fillTier(file: string, tier: Tier, size: number, rng: Rng): Promise<void> {
  const store = new SqliteStore(file, tier);
  const real = [...realSentences()];
  let realAt = 0;
  try {
    for (let done = 0; done < size; done += BATCH) {
      const pending: Promise<Entry>[] = [];
      store.driver.transaction(() => {
        for (let i = done; i < Math.min(size, done + BATCH); i++) {
          // About one entry in five is a real memory sentence, each used once per tier.
          const text = realAt < real.length && chance(rng, 0.2) ? real[realAt++] : undefined;
          // insertEntry's SQL runs synchronously inside this transaction; its promise only carries the result.
          pending.push(store.insertEntry(makeEntry(rng, tier, text), { type: "created", actor: "bench:seed" }));
        }
      });
      await Promise.all(pending);
    }
    // Vectors of the built-in model for every entry, as the engine's write path gives them (issue 13).
    const embedding = new EmbeddingService(undefined);
    const space = await embedding.currentSpace();
    if (space) await reindexStore(store, embedding, space, 1000);
    store.driver.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    await store.close();
  }
}

export function cacheDir(size: number, seed: number): string {
  // The schema version is in the key: a corpus seeded by an older schema would measure a migration, not the engine.
  return path.join(REPO_ROOT, "bench", ".cache", `n${size}-s${seed}-v${CORPUS_VERSION}-m${LATEST_SCHEMA_VERSION}`);
}

/** The cached corpus for (size, seed), built first if absent or incomplete. */
export async function ensureCorpus(size: number, seed: number, log: (m: string) => void = () => {}): Promise<Corpus> {
  const dir = cacheDir(size, seed);
  const projectDir = path.join(dir, "project");
  const hivePath = path.join(dir, "hive", "hive.db");
  const marker = path.join(dir, "ready.json");
  if (fs.existsSync(marker)) {
    const { buildSeconds } = JSON.parse(fs.readFileSync(marker, "utf8")) as { buildSeconds: number };
    return { dir, projectDir, hivePath, size, seed, cached: true, buildSeconds };
  }
  // Stale builds of this size and seed (older generator or schema) are hundreds of MB at 100k: drop them.
  const parent = path.dirname(dir);
  if (fs.existsSync(parent)) {
    for (const d of fs.readdirSync(parent)) if (d.startsWith(`n${size}-s${seed}-`)) fs.rmSync(path.join(parent, d), { recursive: true, force: true });
  }
  const t0 = process.hrtime.bigint();
  log(`seeding ${size.toLocaleString("en-US")} swarm + ${size.toLocaleString("en-US")} hive entries (seed ${seed})…`);
  await fillTier(path.join(projectDir, ".swarm", "cairn.db"), "swarm", size, makeRng(seed));
  await fillTier(hivePath, "hive", size, makeRng(seed + 1));
  const buildSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  fs.writeFileSync(marker, JSON.stringify({ size, seed, version: CORPUS_VERSION, buildSeconds }));
  log(`  seeded in ${buildSeconds.toFixed(1)} s`);
  return { dir, projectDir, hivePath, size, seed, cached: false, buildSeconds };
}
