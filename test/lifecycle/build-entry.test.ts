// buildEntry builds a new entry without parsing it: it must be exactly what EntrySchema.parse gives, keys and their order included.
import assert from "node:assert/strict";
import { FLAG_MAX } from "../../src/core/free-text.js";
import { test } from "node:test";
import { EntrySchema, type NewEntryInput, type Tier } from "../../src/core/entry.js";
import { ConfigSchema } from "../../src/config.js";
import { gateInput } from "../../src/lifecycle/gate-input.js";
import { buildEntry, type WriteOptions } from "../../src/lifecycle/write.js";
import type { Services } from "../../src/services.js";

const config = ConfigSchema.parse({});
/** buildEntry reads the project and the clock of its services, nothing else. */
const services = { config, project: { id: "p_0123456789abcdef", name: "demo" }, now: () => new Date("2026-03-04T05:06:07.000Z") } as unknown as Services;

/** Every key path in order, with the type of its value: two objects with the same list hold the same keys in the same order. */
function keyPaths(x: unknown, at = ""): string[] {
  if (Array.isArray(x)) return x.flatMap((v, i) => keyPaths(v, `${at}[${i}]`));
  if (x === null || typeof x !== "object") return [`${at}:${typeof x}`];
  return Object.entries(x).flatMap(([k, v]) => [`${at}.${k}`, ...keyPaths(v, `${at}.${k}`)]);
}

function built(raw: NewEntryInput, tier: Tier, opts: Partial<WriteOptions> = {}, flags: string[] = []) {
  const gate = gateInput(services, raw, tier, true);
  assert.ok(gate.ok, JSON.stringify(gate.issues));
  return buildEntry(gate.input, gate.lesson, services, { tier, actor: "human:test", source: "import", ...opts }, flags, "candidate");
}

const FULL: NewEntryInput = {
  lesson: "Pin the billing worker's retry count at 5 so a dead queue does not spin forever",
  title: "  Retry cap  ",
  why: "the queue was down for an hour",
  prevention: { detection_pattern: "retries\\s*=\\s*\\d+", rule: "cap retries" },
  category: "debugging",
  kind: "correction",
  root_cause: "missing_validation",
  tags: ["Billing", "billing", "Queue"],
  entities: ["worker", "worker", "queue"],
  scope: "stack:node",
  applicability: { triggers: ["retry"], file_globs: ["src/billing/**"], tools: undefined },
  directive: { required_actions: ["cap retries"], priority: "high" },
  confidence: 0.7,
  status: "candidate",
  hive_eligible: true,
  max_phases: 12,
  created_by: "agent:coder",
  auto_generated: true,
  session_id: "s-1",
  derived_from: { ref: "INC-12", kind: "issue" },
  external_id: "k-12",
  created_at: "2026-01-02T03:04:05Z",
  phase: "build",
  supersedes: undefined,
};

test("a new entry is a fixed point of EntrySchema, in every shape the write path builds", () => {
  const cases = [
    built({ lesson: "Run the migrations before the seed script or the seed fails on missing tables" }, "swarm"),
    built(FULL, "swarm"),
    built(FULL, "hive"),
    built({ ...FULL, phase: undefined }, "hive", { source: "promote", promotedFrom: { project_id: "p_1", entry_id: "e-1" } }),
    built({ ...FULL, phase: undefined }, "hive", { source: "add", promotedFrom: { entry_id: "e-2" }, entryId: "fixed-id" }),
    built({ lesson: "Use the shared test database fixture rather than a per-test schema", tags: [] }, "swarm", { source: "curate" }, ["review:harmful_advice: held", "contradicts:e-3"]),
  ];
  for (const entry of cases) {
    const parsed = EntrySchema.parse(entry);
    assert.deepEqual(keyPaths(entry), keyPaths(parsed));
    assert.deepStrictEqual(entry, parsed);
    assert.equal(JSON.stringify(entry), JSON.stringify(parsed));
  }
});

test("an entry shares no array or object with the input it was built from", () => {
  const gate = gateInput(services, FULL, "swarm", true);
  assert.ok(gate.ok);
  const entry = buildEntry(gate.input, gate.lesson, services, { tier: "swarm", actor: "human:test", source: "import" }, [], "candidate");
  entry.applicability.triggers.push("changed");
  entry.prevention.rule = "changed";
  entry.provenance.derived_from.ref = "changed";
  assert.deepEqual(gate.input.applicability?.triggers, ["retry"]);
  assert.equal(gate.input.prevention?.rule, "cap retries");
  assert.equal(gate.input.derived_from?.ref, "INC-12");
});

test("a value from outside the validated input that breaks the schema is refused as the schema refuses it", () => {
  const gate = gateInput(services, { lesson: "Keep the cache warm before the deploy switches traffic over" }, "swarm", true);
  assert.ok(gate.ok);
  const longActor = `agent:${"x".repeat(200)}`;
  assert.throws(() => buildEntry(gate.input, gate.lesson, services, { tier: "swarm", actor: longActor, source: "import" }, [], "candidate"), { name: "ZodError" });
  assert.throws(() => buildEntry(gate.input, gate.lesson, services, { tier: "swarm", actor: "human:test", source: "import" }, ["x".repeat(FLAG_MAX + 1)], "candidate"), { name: "ZodError" });
  // The same actor again after a valid one: still checked.
  buildEntry(gate.input, gate.lesson, services, { tier: "swarm", actor: "human:test", source: "import" }, [], "candidate");
  assert.throws(() => buildEntry(gate.input, gate.lesson, services, { tier: "swarm", actor: longActor, source: "import" }, [], "candidate"), { name: "ZodError" });
});
