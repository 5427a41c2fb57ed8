// Structured lessons through every add path: engine, tool arguments, lesson files (ours and the Knowledge Object shape); validated like any write.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inputFromFields, parseLessonFile } from "../../src/governance/structured.js";
import { AUTH_STRUCTURED, openEnv, tool } from "./helpers.js";

const KO_YAML = `
knowledge_object:
  title: "Null check required at auth token boundaries"
  derived_from:
    issue_id: 123
    session_id: "abc-123-def-456"
    resolution_status: "RESOLVED_FULL"
  insight:
    what_was_learned: |
      When validating JWT tokens in src/services/auth.ts, the refreshToken can be null once the session
      store purged it; reading its claims without a check throws TypeError at runtime.
    why_it_matters: |
      Unhandled null in the auth flow returns 500 and blocks login for users with expired sessions.
    root_cause_category: "null_reference"
  prevention:
    rule: "Always check for null before accessing token properties at auth boundaries."
    detection_pattern: "token\\\\.(claims|payload|exp|iat|sub)"
    suggested_guardrail: "Add an ESLint rule for token access patterns in auth files."
  applicability:
    projects: ["*"]
    file_patterns: ["src/services/auth*", "src/middleware/auth*"]
    tech_stack: ["typescript", "jwt"]
    tags: ["auth", "null-check", "token"]
`;

test("every structured field is stored through the engine", async () => {
  const env = await openEnv();
  try {
    const r = await env.human.add({ ...AUTH_STRUCTURED, session_id: "ses_9", derived_from: { kind: "issue", ref: "#123" } });
    assert.equal(r.action, "added", r.reason);
    const e = await env.human.get(r.id!);
    assert.equal(e.title, AUTH_STRUCTURED.title);
    assert.equal(e.why, AUTH_STRUCTURED.why);
    assert.equal(e.root_cause, "null_reference");
    assert.deepEqual(e.prevention, AUTH_STRUCTURED.prevention);
    assert.deepEqual(e.applicability.file_globs, ["src/auth/**"]);
    assert.deepEqual(e.applicability.tech_stack, ["typescript", "jwt"]);
    assert.deepEqual(e.applicability.projects, ["*"]);
    assert.deepEqual(e.provenance.derived_from, { kind: "issue", ref: "#123" });
    assert.equal(e.provenance.session_id, "ses_9");
  } finally {
    await env.close();
  }
});

test("a Knowledge Object YAML file maps onto one entry", async () => {
  const fields = parseLessonFile(KO_YAML, "ko.yaml");
  const env = await openEnv();
  try {
    const r = await env.human.add(inputFromFields(fields));
    assert.equal(r.action, "added", r.reason);
    const e = await env.human.get(r.id!);
    assert.match(e.lesson, /refreshToken can be null/);
    assert.equal(e.root_cause, "null_reference");
    assert.equal(e.prevention.detection_pattern, "token\\.(claims|payload|exp|iat|sub)");
    assert.deepEqual(e.applicability.file_globs, ["src/services/auth*", "src/middleware/auth*"]);
    assert.deepEqual(e.tags, ["auth", "null-check", "token"]);
    assert.deepEqual(e.provenance.derived_from, { kind: "issue", ref: "123" });
    assert.equal(e.provenance.session_id, "abc-123-def-456");
  } finally {
    await env.close();
  }
  // JSON works the same; unknown keys and bad enums are refused with their path.
  assert.equal(parseLessonFile(JSON.stringify({ lesson: "x", root_cause: "logic_error" }), "l.json").root_cause, "logic_error");
  assert.throws(() => parseLessonFile("lesson: x\nroot_cause: gremlins\n", "l.yaml"), /root_cause/);
  assert.throws(() => parseLessonFile("lesson: x\nprevntion: {rule: y}\n", "l.yaml"), /prevntion/);
  assert.throws(() => parseLessonFile("- a\n- b\n", "l.yaml"), /one lesson as a mapping/);
});

test("a lesson file may use the add command's flag names (the README's \"same keys\")", () => {
  const f = parseLessonFile(
    [
      "lesson: Check the session token for null in src/auth/middleware.ts before reading claims.",
      "files: [src/auth/**]",
      "stack: [typescript]",
      "projects: [web]",
      "prevention: Return 401 when the token is missing.",
      "detect: token\\.claims",
      "guardrail: lint rule no-unchecked-token",
      "require: [check the token for null]",
      "forbid: [read token.claims unchecked]",
      "verify: [a test for the missing-token 401]",
      "root-cause: null_reference",
    ].join("\n"),
    "lesson.yaml",
  );
  assert.deepEqual(f.applicability?.file_globs, ["src/auth/**"]);
  assert.deepEqual(f.applicability?.tech_stack, ["typescript"]);
  assert.deepEqual(f.applicability?.projects, ["web"]);
  assert.equal(f.prevention?.rule, "Return 401 when the token is missing.");
  assert.equal(f.prevention?.detection_pattern, "token\\.claims");
  assert.equal(f.prevention?.suggested_guardrail, "lint rule no-unchecked-token");
  assert.deepEqual(f.required_actions, ["check the token for null"]);
  assert.deepEqual(f.forbidden_actions, ["read token.claims unchecked"]);
  assert.deepEqual(f.verification_checks, ["a test for the missing-token 401"]);
  assert.equal(f.root_cause, "null_reference");
  // Both spellings of one field, differently: refused, as any field given twice is.
  assert.throws(() => parseLessonFile("lesson: x\nfiles: [a/**]\napplicability: {file_globs: [b/**]}\n", "l.yaml"), /file_globs/);
});

test("validation: title ≤ 80, root cause in the enum, a usable detection pattern, an existing supersedes target", async () => {
  const env = await openEnv();
  try {
    const long = await env.human.add({ ...AUTH_STRUCTURED, title: "t".repeat(81) });
    assert.equal(long.action, "rejected");
    assert.match(long.reason ?? "", /title/);
    const cause = await env.human.add({ ...AUTH_STRUCTURED, root_cause: "gremlins" as never });
    assert.equal(cause.action, "rejected");
    assert.match(cause.reason ?? "", /root_cause/);
    const everything = await env.human.add({ ...AUTH_STRUCTURED, prevention: { detection_pattern: ".*" } });
    assert.equal(everything.action, "rejected");
    assert.match(everything.reason ?? "", /matches any text/);
    const nothing = await env.human.add({ ...AUTH_STRUCTURED, prevention: { detection_pattern: "(\\w+)\\s\\1" } });
    assert.equal(nothing.action, "rejected");
    const missing = await env.human.add({ ...AUTH_STRUCTURED, supersedes: "S-999" });
    assert.equal(missing.action, "rejected");
    assert.match(missing.reason ?? "", /supersedes: no entry/);
    // A field problem does not blacklist the lesson: the corrected retry goes through.
    const fixed = await env.human.add({ ...AUTH_STRUCTURED });
    assert.equal(fixed.action, "added", fixed.reason);
    const secret = await env.human.add({ ...AUTH_STRUCTURED, lesson: "The nightly export job in jobs/export.ts must page through results by cursor, not offset, on big tables.", prevention: { detection_pattern: "sk_live_4eC39HqLyjWDarjtT1zdp7dcXYZ0123456789abcd" } });
    assert.equal(secret.action, "rejected", "a secret in a pattern is refused like one in the lesson");
  } finally {
    await env.close();
  }
});

test("knowledge_add takes the structured fields as arguments", async () => {
  const env = await openEnv();
  try {
    const old = await env.human.add({ lesson: "Use the v1 token endpoint /oauth/token for service accounts in the billing worker." });
    const r = await tool(env.agent, "knowledge_add", {
      lesson: "Use the v2 token endpoint /oauth2/token for billing worker service accounts; v1 was removed in March.",
      title: "Billing worker uses the v2 token endpoint",
      why: "v1 returns 410 since March, so every invoice run fails.",
      root_cause: "api_contract",
      prevention_rule: "Read the token endpoint from config, never hard-code /oauth/token.",
      detection_pattern: "/oauth/token\\b",
      suggested_guardrail: "A unit test asserting the billing worker calls the configured endpoint.",
      file_globs: ["services/billing/**"],
      tech_stack: ["node"],
      projects: ["*"],
      supersedes: old.handle,
      derived_from: "issue #77",
    });
    assert.equal(r.data.action, "added", r.text);
    const e = await env.human.get(String(r.data.id));
    assert.equal(e.root_cause, "api_contract");
    assert.equal(e.prevention.suggested_guardrail, "A unit test asserting the billing worker calls the configured endpoint.");
    assert.deepEqual(e.applicability.tech_stack, ["node"]);
    assert.deepEqual(e.provenance.derived_from, { kind: "issue", ref: "issue #77" });
    assert.equal(e.provenance.session_id, "ses_test");
    assert.equal(e.lifecycle.supersedes, old.id);
    // Approval is off: an unprotected old lesson is retired at once.
    assert.equal((await env.human.get(old.id!)).lifecycle.status, "superseded");
    const bad = await tool(env.agent, "knowledge_add", { lesson: "Cache keys in services/cache must include the tenant id or tenants read each other's rows.", detection_pattern: "a*" });
    assert.equal(bad.data.action, "rejected");
    assert.match(bad.text, /^rejected: .*matches any text/);
  } finally {
    await env.close();
  }
});

test("an agent's declared supersedes of a person-approved lesson waits for a person, as a draft in the review queue", async () => {
  const env = await openEnv();
  try {
    const old = await env.human.add({ lesson: "Use the v1 token endpoint /oauth/token for service accounts in the billing worker." });
    await env.human.approve(old.id!);
    const r = await env.agent.add({ lesson: "Use the v2 token endpoint /oauth2/token for billing worker service accounts; v1 was removed in March.", supersedes: old.id });
    // A live replacement would be injected beside the lesson it contradicts, and no person would be asked.
    assert.equal(r.status, "draft");
    assert.ok(r.issues.some((i) => i.code === "supersede_pending"));
    assert.equal((await env.human.get(old.id!)).lifecycle.status, "established");
    assert.ok((await env.human.reviewQueue()).items.some((i) => i.entry.id === r.id), "a person is asked");
    const shown = await env.agent.inject({ task: "billing worker service account token endpoint" });
    assert.ok(!shown.entries.some((e) => e.id === r.id), "not shown to agents beside the approved lesson");
    const a = await env.human.approve(r.id!);
    assert.equal(a.superseded?.id, old.id);
  } finally {
    await env.close();
  }
});
