// Shapes of the retrieval eval's labelled set, and the compact constructors the data files use.
import { createHash } from "node:crypto";
import type { Category, Kind, Priority, Status, Tier } from "../../src/core/entry.js";

/** One lesson we wrote. `id` is stable and stored as `external_id`; `a~2` restates `a` and counts as `a`. */
export interface LessonSpec {
  id: string;
  lesson: string;
  kind: Kind;
  category: Category;
  stack: string[];
  tags: string[];
  globs: string[];
  triggers: string[];
  required: string[];
  forbidden: string[];
  priority?: Priority;
  agents: string[];
  scope: string;
  status: Status;
  confidence: number;
  tier: Tier;
  /** Display name of the project a hive lesson came from. */
  source?: string;
}

/** A coding context and the lessons (by stable id) an agent in it should be shown. */
export interface CaseSpec {
  id: string;
  phase: string;
  task: string;
  files: string[];
  last_message: string;
  agent?: string;
  tech_stack?: string[];
  relevant: string[];
  /** Written so the task text barely overlaps the lesson: files, stack or a trigger must carry it. */
  context_only?: boolean;
}

export interface CaseOptions {
  agent?: string;
  stack?: string[] | null;
  context_only?: boolean;
}

/** A constructor for one file's cases, with that file's default tech stack (null: none declared). */
export function caseFactory(prefix: string, stack: string[] | null) {
  return (n: number, phase: string, task: string, files: string[], last_message: string, relevant: string[], o: CaseOptions = {}): CaseSpec => {
    const ts = o.stack === undefined ? stack : o.stack;
    return {
      id: `${prefix}-${String(n).padStart(2, "0")}`,
      phase,
      task,
      files,
      last_message,
      ...(o.agent ? { agent: o.agent } : {}),
      ...(ts ? { tech_stack: ts } : {}),
      relevant,
      ...(o.context_only ? { context_only: true } : {}),
    };
  };
}

/** A generic piece of advice the filler generator places into several modules of a stack. */
export interface Atom {
  advice: string;
  reason: string;
  category: Category;
}

export interface Module {
  name: string;
  glob: string;
}

export interface StackData {
  stack: string[];
  facts: LessonSpec[];
  atoms: Atom[];
  modules: Module[];
}

export interface FactOptions {
  globs?: string[];
  triggers?: string[];
  tags?: string[];
  stack?: string[];
  do?: string[];
  dont?: string[];
  priority?: Priority;
  agents?: string[];
  scope?: string;
  status?: Status;
  confidence?: number;
  /** Put the lesson in the hive as if learned in this project. */
  hive?: string;
}

/** Deterministic number in [0,1) from a string: metadata must not depend on whether a lesson is gold. */
export function unitHash(s: string): number {
  return createHash("sha256").update(s).digest().readUInt32BE(0) / 2 ** 32;
}

const HIVE_SOURCES = ["payments-api", "web-dashboard", "infra-live", "data-pipeline", "mobile-backend", "internal-tools"];

/**
 * Status, confidence and tier drawn from the id's hash with one distribution for every
 * lesson (gold, distractor and filler alike), so priors carry no hint of the labels.
 */
export function defaultMeta(id: string): Pick<LessonSpec, "status" | "confidence" | "tier" | "source"> {
  const h = unitHash(id);
  const c = unitHash(`${id}#c`);
  const t = unitHash(`${id}#t`);
  const status: Status = h < 0.5 ? "candidate" : h < 0.85 ? "established" : "promoted";
  const confidence = Math.round((status === "candidate" ? 0.4 + 0.3 * c : status === "established" ? 0.65 + 0.25 * c : 0.8 + 0.2 * c) * 100) / 100;
  const hive = t < 0.15;
  return { status, confidence, tier: hive ? "hive" : "swarm", ...(hive ? { source: HIVE_SOURCES[Math.floor(t * 40) % HIVE_SOURCES.length]! } : {}) };
}

/** A constructor for one stack's hand-written lessons, with that stack's defaults. */
export function factory(stack: string[], baseTags: string[] = []) {
  return (id: string, kind: Kind, category: Category, lesson: string, o: FactOptions = {}): LessonSpec => {
    const meta = defaultMeta(id);
    return {
      id,
      lesson,
      kind,
      category,
      stack: o.stack ?? stack,
      tags: [...new Set([...baseTags, ...(o.tags ?? [])])],
      globs: o.globs ?? [],
      triggers: o.triggers ?? [],
      required: o.do ?? [],
      forbidden: o.dont ?? [],
      ...(o.priority ? { priority: o.priority } : {}),
      agents: o.agents ?? [],
      scope: o.scope ?? "global",
      status: o.status ?? meta.status,
      confidence: o.confidence ?? meta.confidence,
      tier: o.hive ? "hive" : meta.tier,
      ...(o.hive ? { source: o.hive } : meta.source ? { source: meta.source } : {}),
    };
  };
}

/** The relevance group of a stored key: restatements `x~2` count as `x`. */
export function groupOf(key: string): string {
  const i = key.indexOf("~");
  return i < 0 ? key : key.slice(0, i);
}
