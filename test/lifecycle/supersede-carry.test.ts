// `supersede OLD "new text"`: the replacement keeps where and how the old lesson applied unless the person says otherwise.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";
import { openEnv, tool } from "../governance/helpers.js";

const sb = sandbox();
after(() => sb.cleanup());

const OLD = "In src/billing/*.ts read the token endpoint from config; the hard-coded v1 endpoint broke service accounts.";
const NEW = "In src/billing/*.ts use the v2 token endpoint /oauth2/token from config; v1 was removed in March.";
const OLD_FLAGS = [
  "--category", "security", "--kind", "correction", "--tags", "billing,oauth", "--scope", "stack:node",
  "--files", "src/billing/**", "--stack", "typescript,node", "--agents", "coder", "--triggers", "token endpoint",
  "--prevention", "Read the token endpoint from config, never a literal", "--detect", "oauth/token", "--guardrail", "a lint rule on endpoint literals",
];

test("cli: `cairn supersede S-n \"text\"` carries the old lesson's globs, prevention, tags, stack, category, kind and scope over", async () => {
  const p = sb.project("carry");
  const old = await sb.json(p, "add", OLD, ...OLD_FLAGS);
  assert.equal(old.body.action, "added", old.stderr);
  const r = await sb.json(p, "supersede", old.body.handle, NEW);
  assert.equal(r.code, 0, r.stderr);
  const e = r.body.replacement;
  assert.equal(r.body.old.lifecycle.status, "superseded");
  assert.deepEqual(
    {
      category: e.category, kind: e.kind, tags: e.tags, scope: e.applicability.scope, globs: e.applicability.file_globs,
      stack: e.applicability.tech_stack, agents: e.applicability.agents, triggers: e.applicability.triggers, prevention: e.prevention,
    },
    {
      category: "security", kind: "correction", tags: ["billing", "oauth"], scope: "stack:node", globs: ["src/billing/**"],
      stack: ["typescript", "node"], agents: ["coder"], triggers: ["token endpoint"],
      prevention: { rule: "Read the token endpoint from config, never a literal", detection_pattern: "oauth/token", suggested_guardrail: "a lint rule on endpoint literals" },
    },
  );
});

test("cli: a flag given to `cairn supersede` overrides what the old lesson carried; the rest still carries", async () => {
  const p = sb.project("override");
  const old = await sb.json(p, "add", OLD, ...OLD_FLAGS);
  assert.equal(old.body.action, "added", old.stderr);
  const r = await sb.json(p, "supersede", old.body.handle, NEW, "--files", "src/payments/**", "--detect", "oauth2/token", "--tags", "payments", "--category", "integration");
  assert.equal(r.code, 0, r.stderr);
  const e = r.body.replacement;
  assert.deepEqual(e.applicability.file_globs, ["src/payments/**"]);
  assert.equal(e.prevention.detection_pattern, "oauth2/token");
  assert.equal(e.prevention.rule, "Read the token endpoint from config, never a literal", "the rule not given is carried");
  assert.deepEqual(e.tags, ["payments"]);
  assert.equal(e.category, "integration");
  assert.deepEqual(e.applicability.tech_stack, ["typescript", "node"]);
  assert.equal(e.kind, "correction");
});

test("cli: `cairn add \"text\" --supersedes S-n` carries what the old lesson applied to as `supersede` does", async () => {
  const p = sb.project("add-supersedes");
  const old = await sb.json(p, "add", OLD, ...OLD_FLAGS);
  assert.equal(old.body.action, "added", old.stderr);
  const r = await sb.json(p, "add", NEW, "--supersedes", old.body.handle, "--stack", "deno");
  assert.equal(r.body.action, "added", r.stdout + r.stderr);
  const e = (await sb.json(p, "show", r.body.handle)).body.entry;
  assert.deepEqual([e.category, e.kind, e.applicability.scope], ["security", "correction", "stack:node"]);
  assert.deepEqual(e.applicability.file_globs, ["src/billing/**"]);
  assert.deepEqual(e.applicability.tech_stack, ["deno"], "a given field wins");
  assert.equal(e.prevention.detection_pattern, "oauth/token");
});

test("tools: knowledge_add with supersedes (MCP and the opencode plugin serve it) carries the old lesson's globs and prevention", async () => {
  const env = await openEnv({ learning: { reflect_in_background: false } });
  try {
    const old = await env.human.add({
      lesson: OLD, category: "security", kind: "correction", tags: ["billing"],
      prevention: { rule: "Read the token endpoint from config, never a literal", detection_pattern: "oauth/token" },
      applicability: { file_globs: ["src/billing/**"], tech_stack: ["typescript"] },
    });
    const r = await tool(env.agent, "knowledge_add", { lesson: NEW, supersedes: old.handle! });
    assert.ok(r.data.id, r.text);
    const e = await env.human.get(String(r.data.id));
    assert.deepEqual(
      { category: e.category, kind: e.kind, tags: e.tags, globs: e.applicability.file_globs, stack: e.applicability.tech_stack, prevention: e.prevention },
      { category: "security", kind: "correction", tags: ["billing"], globs: ["src/billing/**"], stack: ["typescript"], prevention: { rule: "Read the token endpoint from config, never a literal", detection_pattern: "oauth/token" } },
    );
  } finally {
    await env.close();
  }
});

test("engine: supersede with new text keeps the old directive's priority and enforcement; given ones win", async () => {
  const env = await openEnv({ learning: { reflect_in_background: false } });
  try {
    const old = await env.human.add({ lesson: OLD, category: "security", kind: "correction", directive: { priority: "critical", enforcement: "enforce" } });
    assert.ok(old.handle, old.reason);
    const kept = await env.human.supersede(old.handle!, { lesson: NEW });
    assert.deepEqual([kept.replacement.directive.priority, kept.replacement.directive.enforcement], ["critical", "enforce"]);
    const again = await env.human.add({ lesson: OLD.replace("v1", "legacy"), category: "security", directive: { priority: "high", enforcement: "enforce" } });
    assert.ok(again.handle, again.reason);
    const given = await env.human.supersede(again.handle!, { lesson: NEW.replace("March", "April"), directive: { priority: "low" } });
    assert.deepEqual([given.replacement.directive.priority, given.replacement.directive.enforcement], ["low", "enforce"], "a given priority wins, enforcement still carries");
  } finally {
    await env.close();
  }
});

test("cli: `cairn supersede` carries --priority and --enforce over; --priority and --no-enforce override them", async () => {
  const p = sb.project("directive");
  const old = await sb.json(p, "add", OLD, ...OLD_FLAGS, "--priority", "critical", "--enforce");
  assert.equal(old.body.action, "added", old.stderr);
  const r = await sb.json(p, "supersede", old.body.handle, NEW);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([r.body.replacement.directive.priority, r.body.replacement.directive.enforcement], ["critical", "enforce"]);
  const next = await sb.json(p, "supersede", r.body.replacement.handle, NEW.replace("March", "April"), "--priority", "low", "--no-enforce");
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual([next.body.replacement.directive.priority, next.body.replacement.directive.enforcement], ["low", "warn"]);
});
