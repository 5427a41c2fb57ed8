// opencode-swarm knowledge files: category/status mapping, tiers, the stray flat hive schema.
import { test } from "node:test";
import assert from "node:assert/strict";
import { NewEntryInputSchema } from "../../src/core/entry.js";
import { detectFormat } from "../../src/io/detect.js";
import { parseFile } from "../../src/io/parse.js";
import { collect, writeTmp } from "./helpers.js";

const base = {
  tier: "swarm",
  scope: "global",
  confidence: 0.9,
  confirmed_by: [{ phase_number: 3, confirmed_at: "2025-06-01T10:00:00.000Z", project_name: "demo" }],
  retrieval_outcomes: [],
  phases_alive: 0,
  max_phases: 10,
  project_name: "demo",
};

const rows = [
  { ...base, id: "lesson-1", lesson: "Use pipeline() for node streams so errors propagate.", category: "pattern", tags: ["node", "streams"], status: "active", created_at: "2025-06-01T10:00:00.000Z", utility_score: 0.4 },
  { ...base, id: "lesson-2", lesson: "Always run tsc before tests in CI.", category: "tooling", status: "established", hive_eligible: true, auto_generated: true },
  { ...base, id: "lesson-3", lesson: "Chose SQLite over Postgres for the local store.", category: "decision", status: "weird-status" },
  { ...base, id: "lesson-4", lesson: "Flaky test timing on macOS runners.", category: "gotcha", status: "quarantined_unactionable", scope: "stack:Node" },
  { ...base, id: "lesson-5", lesson: "Keep the retry budget small in integration tests.", category: "mystery", status: "promoted", tier: "hive",
    triggers: ["retry"], required_actions: ["cap retries at 3"], directive_priority: "high", enforcement_mode: "enforce", applies_to_agents: ["coder"] },
  { ...base, id: "lesson-6", lesson: "Domain note: invoices are immutable once sent.", category: "domain", status: "candidate" },
];

test("knowledge.jsonl: categories and statuses map onto Cairn's, originals kept as tags", async () => {
  const file = writeTmp("knowledge.jsonl", rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const { ok, bad } = await collect(parseFile(file, "opencode-swarm"));
  assert.deepEqual(bad, []);
  assert.equal(ok.length, 6);
  for (const r of ok) assert.ok(NewEntryInputSchema.safeParse(r.input).success, `line ${r.line}`);
  const [p, t, d, g, m, dom] = ok.map((r) => r.input);

  assert.equal(p!.kind, "pattern");
  assert.equal(p!.status, "candidate");
  assert.deepEqual(p!.tags, ["legacy-category:pattern", "node", "streams"]);
  assert.equal(p!.external_id, "lesson-1");
  assert.deepEqual(p!.derived_from, { kind: "import", ref: "knowledge.jsonl" });
  assert.equal(p!.created_at, "2025-06-01T10:00:00.000Z");
  assert.equal(p!.confidence, 0.9);
  assert.equal(p!.phase, "3");
  assert.equal(ok[0]!.tier, "swarm");

  assert.equal(t!.category, "tooling");
  assert.equal(t!.status, "established");
  assert.equal(t!.hive_eligible, true);
  assert.equal(t!.auto_generated, true);
  assert.ok(!t!.tags!.some((x) => x.startsWith("legacy-category:")));

  assert.equal(d!.kind, "decision");
  assert.equal(d!.status, undefined);
  assert.ok(d!.tags!.includes("legacy-status:weird-status"));

  assert.equal(g!.category, "debugging");
  assert.equal(g!.status, "quarantined");
  assert.equal(g!.scope, "stack:node");
  assert.ok(g!.tags!.includes("legacy-category:gotcha"));

  assert.ok(m!.tags!.includes("legacy-category:mystery"));
  assert.equal(m!.status, "promoted");
  assert.deepEqual(m!.applicability, { triggers: ["retry"], agents: ["coder"] });
  assert.deepEqual(m!.directive, { required_actions: ["cap retries at 3"], priority: "high", enforcement: "enforce" });
  assert.equal(ok[4]!.tier, "hive");

  assert.ok(dom!.tags!.includes("domain"));
});

test("shared-learnings.jsonl forces the hive tier", async () => {
  const file = writeTmp("shared-learnings.jsonl", JSON.stringify({ ...rows[1], tier: "swarm" }) + "\n");
  const { ok } = await collect(parseFile(file, "opencode-swarm"));
  assert.equal(ok[0]!.tier, "hive");
});

test("stray hive-knowledge.jsonl flat schema is tolerated, missing fields and all", async () => {
  const lines = [
    JSON.stringify({ id: "h1", lesson: "Pin exact versions of native modules.", category: "tooling", source_project: "alpha", promoted_at: "2025-05-05T05:05:05Z" }),
    JSON.stringify({ text: "Prefer structured logging over printf debugging." }),
    JSON.stringify({ id: 7, lesson: "Cache compiled regexes.", category: null }),
    JSON.stringify({ id: "h4", category: "tooling" }),
  ];
  const file = writeTmp("hive-knowledge.jsonl", lines.join("\n"));
  const { ok, bad } = await collect(parseFile(file, "opencode-swarm"));
  assert.equal(ok.length, 3);
  assert.ok(ok.every((r) => r.tier === "hive"));
  assert.equal(ok[0]!.input!.created_at, "2025-05-05T05:05:05Z");
  assert.equal(ok[0]!.input!.category, "tooling");
  assert.equal(ok[1]!.input!.lesson, "Prefer structured logging over printf debugging.");
  assert.equal(ok[1]!.input!.external_id, undefined);
  assert.equal(ok[2]!.input!.external_id, "7");
  assert.deepEqual(bad, [{ line: 4, error: 'missing required field "lesson"' }]);
});

test("knowledge-rejected.jsonl rows import quarantined, never live", async () => {
  const file = writeTmp("knowledge-rejected.jsonl", JSON.stringify({ id: "r1", lesson: "Disable the linter to ship faster.", rejection_reason: "dangerous", rejected_at: "2025-01-01T00:00:00Z", rejection_layer: 2 }) + "\n");
  const { ok } = await collect(parseFile(file, "opencode-swarm"));
  assert.equal(ok[0]!.input!.status, "quarantined");
  assert.ok(ok[0]!.input!.tags!.includes("legacy-rejected"));
});

test("shared-learnings-rejected.jsonl (the hive's rejected lessons, next to the hive file) is read by name and imports into the hive, quarantined", async () => {
  const file = writeTmp("shared-learnings-rejected.jsonl", JSON.stringify({ id: "hr1", lesson: "Disable TLS verification for the internal registry.", rejection_reason: "dangerous", rejected_at: "2025-01-01T00:00:00Z", rejection_layer: 2 }) + "\n");
  assert.equal(detectFormat(file, []), "opencode-swarm", "known by its name");
  const { ok } = await collect(parseFile(file, "opencode-swarm"));
  assert.equal(ok.length, 1);
  assert.equal(ok[0]!.tier, "hive");
  assert.equal(ok[0]!.input!.status, "quarantined");
  assert.ok(ok[0]!.input!.tags!.includes("legacy-rejected"));
});

test("wrong field types are bad lines naming the field", async () => {
  const file = writeTmp("knowledge.jsonl", [
    JSON.stringify({ ...rows[0], tags: "node" }),
    JSON.stringify({ ...rows[0], confidence: "high" }),
    JSON.stringify(rows[1]),
  ].join("\n"));
  const { ok, bad } = await collect(parseFile(file, "opencode-swarm"));
  assert.equal(ok.length, 1);
  assert.match(bad[0]!.error, /field "tags" should be array, got a string/);
  assert.match(bad[1]!.error, /field "confidence" should be number, got a string/);
});

test("knowledge.jsonl: every stack scope opencode-swarm accepts is kept, and one no tier can hold is a warning, never a silent global", async () => {
  const longStack = "stack:python_poetry_monorepo_with_many_workspaces_x"; // 44 characters of name, under its 64
  const file = writeTmp("knowledge.jsonl", [
    { ...base, id: "s-1", lesson: "Use poetry lock --no-update in CI so the pinned dependency set stays fixed.", category: "tooling", scope: longStack },
    { ...base, id: "s-2", lesson: "Run the internal-tools codegen before building the admin bundle with vite.", category: "tooling", scope: "stack:_Internal-Tools" },
    { ...base, id: "s-3", lesson: "Run go vet ./... before committing so shadowed variables are caught early.", category: "tooling", scope: "project" },
  ].map((r) => JSON.stringify(r)).join("\n") + "\n");
  const { ok, bad } = await collect(parseFile(file, "opencode-swarm"));
  assert.deepEqual(bad, []);
  const [long, underscore, project] = ok;
  assert.equal(long!.input?.scope, longStack);
  assert.equal(underscore!.input?.scope, "stack:_internal-tools", "opencode-swarm's [a-zA-Z0-9_-]{1,64}, lower-cased as ours are");
  for (const r of [long, underscore]) assert.ok(NewEntryInputSchema.safeParse(r!.input).success, `line ${r!.line}`);
  assert.equal(project!.input?.scope, undefined);
  assert.match((project!.warnings ?? []).join("\n"), /scope "project" .*global/);
  assert.equal(long!.warnings, undefined);
});
