// The compiled copies of the entry schemas (compiled-schema.ts) answer exactly as the schemas do: same data, key order, issues and messages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generatedLesson } from "../../bench/corpus.js";
import { makeRng, pick, type Rng } from "../../bench/rng.js";
import { makeEntry } from "../../bench/seed.js";
import { compiledWhenBusy } from "../../src/core/compiled-schema.js";
import { BulkEntrySchema, BulkNewEntryInputSchema, EntrySchema, NewEntryInputSchema } from "../../src/core/entry.js";
import { shortcuts } from "../../src/core/shortcuts.js";

type Json = Record<string, unknown>;

/** Values a mutation puts in a field: each type a field may wrongly hold, edge strings, dates ISO and not. */
const ODD_VALUES: unknown[] = [
  null, "", " ", "  padded value  ", "\tx\n", "x".repeat(81), "y".repeat(501), "z".repeat(2001), 0, -1, 0.5, 1.5, 2, 1e308, -0, true, false, [], [""], [" a "], ["ok", 3], {}, { at: "2026-01-05T10:00:00Z" },
  "2026-01-05T10:00:00Z", "2026-01-05T10:00:00+02:00", "2026-01-05 10:00", "Jan 5 2026", "not a date", "2026-13-45T99:00:00Z", "global", "stack:node.js", "stack:Bad Name",
  "candidate", "quarantined", "swarm", "hive", "debugging", "medium", "block", "import", "__proto__",
];

/** Every path into an object, groups and array elements included. */
function paths(v: unknown, at: string[] = []): string[][] {
  if (v === null || typeof v !== "object") return [at];
  const keys = Array.isArray(v) ? v.map((_, i) => String(i)) : Object.keys(v);
  return [at, ...keys.flatMap((k) => paths((v as Json)[k], [...at, k]))].filter((p) => p.length > 0);
}

/** A copy of `base` with one to three fields set to odd values, removed, or joined by an unknown key. */
function mutate(rng: Rng, base: Json): Json {
  const copy = structuredClone(base);
  const all = paths(copy);
  for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) {
    const path = pick(rng, all);
    let parent: Json = copy;
    for (const k of path.slice(0, -1)) {
      const next = parent[k];
      if (next === null || typeof next !== "object") return copy;
      parent = next as Json;
    }
    const key = path[path.length - 1]!;
    const r = rng();
    if (r < 0.15) delete parent[key];
    else if (r < 0.25) parent[`extra_${key}`] = pick(rng, ODD_VALUES);
    else parent[key] = structuredClone(pick(rng, ODD_VALUES));
  }
  return copy;
}

function storedEntries(rng: Rng, n: number): Json[] {
  return Array.from({ length: n }, () => {
    const e = makeEntry(rng, pick(rng, ["swarm", "hive"] as const), undefined);
    // Optional fields the generator leaves out, so the mutations reach them too.
    return JSON.parse(JSON.stringify({
      ...e, title: "A title", why: "Because.", root_cause: "missing_validation",
      prevention: { rule: "Always do x", detection_pattern: "foo\\(", suggested_guardrail: "lint it" },
      lifecycle: { ...e.lifecycle, confirmations: [{ at: e.created_at, phase: "p1", project_id: "p", by: "agent:x" }], max_phases: 5, supersedes: "a", status_reason: "r", revalidated_at: e.created_at },
      provenance: { ...e.provenance, approved_by: "human", approved_at: e.created_at, session_id: "s", external_id: "x-1", promoted_from: { project_id: "p", entry_id: "e" } },
      usage: { ...e.usage, last_shown_at: e.created_at, last_feedback_at: e.created_at, last_consulted_at: e.created_at },
    })) as Json;
  });
}

function newInputs(rng: Rng, n: number): Json[] {
  return Array.from({ length: n }, (_, i) => {
    const g = generatedLesson(rng, i);
    return {
      lesson: g.lesson, title: " Title ", why: "why", category: g.category, kind: g.kind, tags: [g.stack.name, g.domain], entities: ["feature:x"], scope: "global",
      applicability: { file_globs: ["src/**"], triggers: ["deploy"] }, directive: { required_actions: ["run tests"], priority: "high" }, prevention: { rule: "r" },
      confidence: 0.6, status: "candidate", hive_eligible: true, max_phases: 3, created_by: "agent:coder", auto_generated: false, session_id: "s",
      derived_from: { kind: "import", ref: "k" }, external_id: `k-${i}`, created_at: "2026-01-02T03:04:05Z", phase: "p1", supersedes: "old",
    };
  });
}

/** What a parse answers, as one comparable value: the data in key order, or the issues with their paths and messages. */
function answer(schema: { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[]; message: string } } }, value: Json): string {
  const r = schema.safeParse(structuredClone(value));
  return r.success ? `ok ${JSON.stringify(r.data)}` : `error ${JSON.stringify(r.error!.issues)} ${r.error!.message}`;
}

function compare(name: string, plain: Parameters<typeof answer>[0], compiled: Parameters<typeof answer>[0], bases: Json[], rng: Rng): void {
  const inputs = [...bases, ...bases.flatMap((b) => [mutate(rng, b), mutate(rng, b), mutate(rng, b)]), {}, { lesson: "x" }];
  let failures = 0;
  for (const v of inputs) {
    const want = answer(plain, v);
    if (want.startsWith("error")) failures++;
    assert.equal(answer(compiled, v), want, `${name}: ${JSON.stringify(v)}`);
  }
  // Both outcomes are exercised: most mutations break the schema, some do not.
  assert.ok(failures > inputs.length / 4 && failures < inputs.length - bases.length, `${name}: ${failures} of ${inputs.length} fail`);
}

test("the compiled entry schema answers as EntrySchema does, valid or not", () => {
  const rng = makeRng(7);
  compare("EntrySchema", EntrySchema, BulkEntrySchema.compiled(), storedEntries(rng, 300), rng);
});

test("the compiled new-entry input schema answers as NewEntryInputSchema does, valid or not", () => {
  const rng = makeRng(8);
  compare("NewEntryInputSchema", NewEntryInputSchema, BulkNewEntryInputSchema.compiled(), newInputs(rng, 300), rng);
});

test("a schema is swapped for its compiled copy only once busy, and never with the shortcuts off", () => {
  const busy = compiledWhenBusy(EntrySchema, 2);
  assert.equal(busy.get(), EntrySchema);
  assert.equal(busy.get(), EntrySchema);
  const third = busy.get();
  assert.notEqual(third, EntrySchema);
  assert.equal(busy.get(), third);
  shortcuts.enabled = false;
  try {
    assert.equal(busy.get(), EntrySchema);
  } finally {
    shortcuts.enabled = true;
  }
});

test("in a thread of bulk work only (shortcuts.eager: an import's worker) the compiled copy is used from the first parse, with the same answers", () => {
  const bulk = compiledWhenBusy(EntrySchema, 1000);
  shortcuts.eager = true;
  try {
    const first = bulk.get();
    assert.notEqual(first, EntrySchema);
    const e = makeEntry(makeRng(7), "swarm", undefined);
    assert.deepEqual(first.parse(e), EntrySchema.parse(e));
  } finally {
    shortcuts.eager = false;
  }
  assert.equal(compiledWhenBusy(EntrySchema, 1000).get(), EntrySchema, "a command that parses a row or two never compiles");
});
