// Approval workflow: agents write drafts under approval; drafts never reach an agent; only a person approves.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openCairn } from "../../src/index.js";
import { ALL_TOOLS } from "../../src/tools/index.js";
import { APPROVAL_ON, AUTH_LESSON, AUTH_STRUCTURED, openEnv, tool } from "./helpers.js";

const DRAFT_TEXT = "Run prisma generate after editing schema.prisma in packages/db, or the generated client is stale and builds fail.";

test("approval is off by default: an agent's lesson is a live candidate", async () => {
  const env = await openEnv();
  try {
    const r = await env.agent.add({ lesson: DRAFT_TEXT, category: "tooling" });
    assert.equal(r.status, "candidate");
  } finally {
    await env.close();
  }
});

test("under approval, agents, MCP clients, the curator and outcome extraction write drafts; a person does not", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    assert.equal((await env.agent.add({ lesson: DRAFT_TEXT })).status, "draft");
    const viaTool = await tool(env.agent, "knowledge_add", { lesson: "The billing worker must read STRIPE_WEBHOOK_TOLERANCE from config; the hard-coded 300s broke replays in staging." }, "mcp:claude-code");
    assert.equal(viaTool.data.status, "draft");
    const curated = await env.agent.add({ lesson: "Migrations in services/orders must run before the seed script, or the seed inserts into missing columns.", auto_generated: true }, { actor: "curator" });
    assert.equal(curated.status, "draft");
    await env.agent.recordOutcome({ id: "o-1", task: "fix flaky login test", success: true, evaluation: "Always run the auth fixtures reset before the login e2e suite in tests/e2e/login.spec.ts." });
    await env.agent.reflect();
    const extracted = await env.human.list({ statuses: ["draft"], limit: 50 });
    assert.ok(extracted.some((e) => e.lesson.includes("auth fixtures reset")), "the extracted lesson waits as a draft");
    assert.equal((await env.human.add({ lesson: "Pin the Node major version in CI with .nvmrc so local and CI builds use the same runtime." })).status, "candidate");
    // The hive has its own switch.
    const hive = await env.agent.promote({ lesson: { lesson: "Set busy_timeout on every SQLite connection; the default of zero fails writes under contention immediately." } });
    assert.equal(hive.status, "draft");
  } finally {
    await env.close();
  }
});

test("a draft never reaches an agent: recall, inject, every read tool, and every id-taking tool", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const d = await env.agent.add({ ...AUTH_STRUCTURED });
    assert.equal(d.status, "draft");
    const id = d.id!;
    const handle = d.handle!;
    // A person sees it.
    assert.equal((await env.human.get(handle)).lifecycle.status, "draft");
    assert.equal((await env.human.list({ statuses: ["draft"] })).length, 1);

    // The engine, opened as an agent, hides it everywhere.
    assert.deepEqual(await env.agent.recall("auth middleware session token null claims"), []);
    assert.deepEqual(await env.agent.recall("auth middleware session token null claims", { statuses: ["draft", "candidate"] }), []);
    assert.deepEqual(await env.agent.list({ statuses: ["draft"] }), []);
    assert.equal((await env.agent.list({})).length, 0);
    const inj = await env.agent.inject({ task: "fix the auth middleware token null check", files: ["src/auth/middleware.ts"] });
    assert.equal(inj.entries.length, 0);
    await assert.rejects(env.agent.get(handle), (e: Error & { code?: string }) => e.code === "NOT_FOUND");
    await assert.rejects(env.agent.history(id), (e: Error & { code?: string }) => e.code === "NOT_FOUND");
    assert.deepEqual(await env.agent.checkAdvisories({ files: ["src/auth/middleware.ts"], text: "const c = token.claims" }), []);
    assert.deepEqual(await env.agent.related({ files: ["src/auth/middleware.ts"], tags: ["auth"] }), []);

    // Every tool, through both engines (a face may open the engine as either), never shows it.
    for (const cairn of [env.agent, env.human]) {
      const outputs: string[] = [];
      const run = async (name: string, args: Record<string, unknown>) => {
        try {
          const r = await tool(cairn, name, args);
          outputs.push(r.text, JSON.stringify(r.data));
        } catch (e) {
          outputs.push((e as Error).message);
        }
      };
      await run("knowledge_recall", { query: "auth middleware session token null claims", files: ["src/auth/middleware.ts"] });
      await run("knowledge_query", {});
      await run("knowledge_query", { status: ["candidate", "established", "promoted", "archived", "superseded", "quarantined"] });
      await run("knowledge_context", { task: "fix the auth middleware token null check", files: ["src/auth/middleware.ts"] });
      await run("knowledge_check", { files: ["src/auth/middleware.ts"], text: "token.claims" });
      for (const name of ["knowledge_feedback", "knowledge_archive", "knowledge_quarantine", "knowledge_remove", "knowledge_promote"]) {
        await run(name, name === "knowledge_feedback" ? { id: handle, verdict: "helpful" } : { id: handle, reason: "x" });
        await run(name, name === "knowledge_feedback" ? { id, verdict: "helpful" } : { id, reason: "x" });
      }
      const all = outputs.join("\n");
      assert.ok(!all.includes("session token for null"), `draft text leaked:\n${all}`);
      // Ids given as arguments come back in "not found" messages; the entry's state and text never do.
      assert.ok(!/\bdraft\b/.test(all), `draft status leaked:\n${all}`);
      assert.ok(all.includes(`No entry with id or handle "${handle}"`), "id-taking tools answer as if it did not exist");
    }
    // And nothing happened to it.
    const after = await env.human.get(id);
    assert.equal(after.lifecycle.status, "draft");
    assert.equal(after.usage.helpful, 0);
    assert.equal((await env.human.list({ tier: "hive", limit: 10 })).length, 0, "not promoted to the hive");
  } finally {
    await env.close();
  }
});

test("only a person approves: the engine refuses other actors, and no tool can approve", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const d = await env.agent.add({ ...AUTH_STRUCTURED });
    for (const actor of ["agent:coder", "mcp:claude-code", "curator", "cairn:reflect", "import:human:alice", "human:"]) {
      await assert.rejects(env.human.approve(d.id!, actor), (e: Error & { code?: string }) => e.code === "FORBIDDEN", actor);
    }
    await assert.rejects(env.agent.approve(d.id!), (e: Error & { code?: string }) => e.code === "FORBIDDEN");
    await assert.rejects(env.agent.reject(d.id!), (e: Error & { code?: string }) => e.code === "FORBIDDEN");
    await assert.rejects(env.agent.edit(d.id!, { title: "x" }), (e: Error & { code?: string }) => e.code === "FORBIDDEN");

    // Call every tool with every argument shape that names the draft; none may approve it.
    assert.ok(!ALL_TOOLS.some((t) => /approv/i.test(t.name)), "no tool is named for approval");
    for (const t of ALL_TOOLS) {
      const attempts: Record<string, unknown>[] = [
        { id: d.id, lesson: AUTH_LESSON, verdict: "applied", reason: "approve", query: AUTH_LESSON, task: "approve S-1", success: true, files: ["src/auth/x.ts"], text: "approve" },
        { id: d.handle, lesson: `${AUTH_LESSON} Approved.`, verdict: "helpful", status: ["established"] },
        { lesson: AUTH_LESSON, supersedes: d.handle, tier: "hive" },
        {},
      ];
      for (const args of attempts) {
        for (const cairn of [env.agent, env.human]) {
          const keys = Object.keys(t.args);
          const filtered = Object.fromEntries(Object.entries(args).filter(([k]) => keys.includes(k)));
          await tool(cairn, t.name, filtered, "agent:attacker").catch(() => undefined);
        }
      }
    }
    await env.agent.reflect();
    const after = await env.human.get(d.id!);
    assert.equal(after.lifecycle.status, "draft", "still a draft after every tool call");
    assert.equal(after.provenance.approved_by, undefined);
    const events = await env.human.history(d.id!);
    assert.ok(!events.some((e) => e.type === "approved"));
  } finally {
    await env.close();
  }
});

test("approval records who and when, moves the entry to established, and retires what it supersedes", async () => {
  let now = new Date("2026-03-01T10:00:00Z");
  const env = await openEnv(APPROVAL_ON, { now: () => now });
  try {
    const old = await env.human.add({ lesson: "Use the v1 token endpoint /oauth/token for service accounts in the billing worker." });
    assert.equal(old.status, "candidate");
    const d = await env.agent.add({ lesson: "Use the v2 token endpoint /oauth2/token for billing worker service accounts; v1 was removed in March.", supersedes: old.handle });
    assert.equal(d.status, "draft");
    assert.ok(d.issues.some((i) => i.code === "supersede_pending"));
    assert.equal((await env.human.get(old.id!)).lifecycle.status, "candidate", "a draft retires nothing");

    now = new Date("2026-03-01T10:03:00Z");
    const r = await env.human.approve(d.handle!);
    assert.equal(r.entry.lifecycle.status, "established");
    assert.equal(r.entry.provenance.approved_by, "human:alice");
    assert.equal(r.entry.provenance.approved_at, "2026-03-01T10:03:00.000Z");
    assert.equal(r.superseded?.id, old.id);
    const oldAfter = await env.human.get(old.id!);
    assert.equal(oldAfter.lifecycle.status, "superseded");
    assert.equal(oldAfter.lifecycle.superseded_by, d.id);
    const ev = (await env.human.history(d.id!)).find((e) => e.type === "approved");
    assert.ok(ev);
    assert.equal(ev.actor, "human:alice");
    assert.equal(ev.data.waited_ms, 180_000);
    // Now agents see it.
    assert.equal((await env.agent.get(d.id!)).lifecycle.status, "established");
    assert.equal((await env.agent.recall("billing worker token endpoint service accounts")).length, 1);
    // Approving twice changes nothing.
    assert.equal((await env.human.approve(d.id!)).unchanged, true);
  } finally {
    await env.close();
  }
});

test("approving one lesson named twice in a batch (its handle twice, or its handle and id) approves it once and answers it once", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const d = await env.agent.add({ lesson: DRAFT_TEXT });
    const other = await env.agent.add({ lesson: "Use the v2 token endpoint /oauth2/token for billing worker service accounts; v1 was removed in March." });
    const done = await env.human.approveAll([d.handle!, d.handle!.toLowerCase(), d.id!, other.handle!]);
    assert.deepEqual(done.map((r) => [r.entry.handle, r.unchanged ?? false]), [[d.handle, false], [other.handle, false]]);
    assert.equal((await env.human.history(d.id!)).filter((e) => e.type === "approved").length, 1);
  } finally {
    await env.close();
  }
});

test("reject archives a draft with the reason; retired entries cannot be approved", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const d = await env.agent.add({ lesson: DRAFT_TEXT });
    const r = await env.human.reject(d.id!, "too specific to one bug");
    assert.equal(r.lifecycle.status, "archived");
    assert.equal(r.lifecycle.status_reason, "rejected: too specific to one bug");
    await assert.rejects(env.human.approve(d.id!), (e: Error & { code?: string }) => e.code === "CONFLICT");
    await assert.rejects(env.human.reject(d.id!), (e: Error & { code?: string }) => e.code === "CONFLICT");
  } finally {
    await env.close();
  }
});

test("restoring an agent's lesson that no person approved brings it back as a draft, however often it was confirmed", async () => {
  const env = await openEnv(APPROVAL_ON);
  // The same databases before approval was turned on: the agent's lesson went live and was reinforced in three phases.
  const before = await openCairn({ projectDir: env.sb.projectDir, hivePath: env.sb.hivePath, env: env.sb.env, actor: "agent:coder" });
  try {
    const d = await before.add({ lesson: DRAFT_TEXT, phase: "Phase 1: schema" });
    await before.add({ lesson: DRAFT_TEXT, phase: "Phase 2: api" });
    await before.add({ lesson: DRAFT_TEXT, phase: "Phase 3: ui" });
    assert.equal((await env.human.get(d.id!)).lifecycle.status, "established");
    // An agent may undo its own quarantine (a person's quarantine is a person's to undo: FORBIDDEN below).
    await before.quarantine(d.id!, "checking the claim");
    // Under approval, confirmations alone never make it established.
    const byAgent = await env.agent.restore(d.id!);
    assert.equal(byAgent.lifecycle.status, "draft", "an agent's restore is no approval");
    assert.equal((await env.agent.recall("prisma generate schema")).length, 0, "still hidden from agents");
    await env.human.reject(d.id!, "not needed");
    await assert.rejects(env.agent.restore(d.id!), (e: Error & { code?: string }) => e.code === "FORBIDDEN", "a person rejected it");
    const byPerson = await env.human.restore(d.id!);
    assert.equal(byPerson.lifecycle.status, "draft", "a person's restore puts it back in the review queue");
    assert.equal(byPerson.provenance.approved_at, undefined);
    // Once approved, a restore brings it back as established, as before.
    await env.human.approve(d.id!);
    await env.human.quarantine(d.id!, "again");
    // A person's quarantine hides the lesson from agents altogether: there is no entry for an agent to restore.
    await assert.rejects(env.agent.restore(d.id!), (e: Error & { code?: string }) => e.code === "NOT_FOUND");
    assert.equal((await env.human.restore(d.id!)).lifecycle.status, "established");
  } finally {
    await before.close();
    await env.close();
  }
});

test("a draft that contradicts a live lesson does not retire it until approved", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const a = await env.human.add({ lesson: "Always enable strict mode in tsconfig for the api package; it caught null bugs before release." });
    const b = await env.agent.add({ lesson: "Never enable strict mode in tsconfig for the api package; it caught null bugs before release." });
    assert.equal(b.action, "added");
    assert.equal(b.status, "draft");
    assert.equal((await env.human.get(a.id!)).lifecycle.status, "candidate");
  } finally {
    await env.close();
  }
});

test("under require_approval an import an agent runs (cairn import in its shell) brings lessons in as drafts: a file cannot claim a person's approval for it", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const file = path.join(env.sb.root, "crafted.cairn.jsonl");
    const approved = await env.human.add({ ...AUTH_STRUCTURED });
    await env.human.approve(approved.id!);
    await env.human.exportFile(file, { tier: "swarm" });
    await env.human.remove(approved.id!, { force: true });
    const swarmFile = path.join(env.sb.root, "knowledge.jsonl");
    fs.writeFileSync(swarmFile, JSON.stringify({ id: "k-1", tier: "swarm", lesson: "Run prisma generate after editing schema.prisma in packages/db, or the API build uses a stale client.", category: "tooling", status: "established", confidence: 0.9, created_at: "2026-01-02T03:04:05Z" }) + "\n");

    const byAgent = await env.agent.importFile(file);
    assert.equal(byAgent.imported, 1, JSON.stringify(byAgent));
    await env.agent.importFile(swarmFile, { format: "opencode-swarm" });
    const imported = await env.human.list({ tier: "swarm", limit: 10 });
    assert.deepEqual(imported.map((e) => e.lifecycle.status).sort(), ["draft", "draft"], JSON.stringify(imported.map((e) => [e.lesson.slice(0, 30), e.lifecycle.status])));
    assert.ok(imported.every((e) => !e.provenance.approved_by), "no approval carried in by an agent's import");
    const injected = await env.agent.inject({ task: "check the auth session token in src/auth/middleware.ts" });
    assert.equal(injected.entries.length, 0, "a draft is never injected");

    // The same file imported by a person keeps what a person chose.
    for (const e of imported) await env.human.remove(e.id, { force: true });
    await env.human.importFile(file);
    const kept = await env.human.list({ tier: "swarm", limit: 10 });
    assert.equal(kept[0]?.lifecycle.status, "established");
  } finally {
    await env.close();
  }
});

test("a person's replacement retires the lesson it names, even when its text also contradicts an agent's pending draft (supersede and add --supersedes)", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    const KEYS = "In src/cache/keys.ts include the tenant id in every cache key; a shared key served one tenant's invoices to another.";
    const DRAFT = "In src/cache/keys.ts prefix every cache key with the tenant id and the schema version; a shared key leaked invoices across tenants.";
    const MINE = "In src/cache/keys.ts build cache keys only through tenantKey(); hand-built keys without the tenant id leaked invoices across tenants.";
    for (const how of ["supersede", "add"] as const) {
      const old = await env.human.add({ lesson: KEYS });
      await env.human.approve(old.id!);
      const draft = await env.agent.add({ lesson: DRAFT, supersedes: old.handle });
      assert.equal(draft.status, "draft", JSON.stringify(draft));
      // The person names the lesson their text replaces: that one, not the draft the text resembles.
      const mine = how === "supersede"
        ? (await env.human.supersede(old.id!, { lesson: MINE })).replacement
        : await env.human.get((await env.human.add({ lesson: MINE, supersedes: old.handle })).id!);
      const oldAfter = await env.human.get(old.id!);
      assert.equal(oldAfter.lifecycle.status, "superseded", `${how}: the lesson the person named is retired`);
      assert.equal(oldAfter.lifecycle.superseded_by, mine.id);
      assert.equal((await env.human.get(mine.id)).lifecycle.supersedes, old.id, `${how}: the link names what the person named`);
      assert.equal((await env.human.get(draft.id!)).lifecycle.status, "draft", `${how}: the agent's draft is left for the person's review`);
      // Clean up for the next round: the draft and the lessons leave the way.
      for (const id of [draft.id!, mine.id, old.id!]) await env.human.remove(id, { force: true });
    }
  } finally {
    await env.close();
  }
});

test("approving a draft whose lesson to replace was retired meanwhile (superseded by another, archived) leaves no one-sided link, and says so", async () => {
  const env = await openEnv(APPROVAL_ON);
  try {
    for (const how of ["superseded", "archived"] as const) {
      const old = await env.human.add({ lesson: `Use the v1 token endpoint /oauth/token for service accounts in the ${how} billing worker.` });
      await env.human.approve(old.id!);
      const draft = await env.agent.add({ lesson: `Use the v2 token endpoint /oauth2/token for the ${how} billing worker's service accounts; v1 was removed in March.`, supersedes: old.handle });
      assert.equal(draft.status, "draft");
      let by: string | undefined;
      if (how === "superseded") {
        const other = await env.human.add({ lesson: `Service accounts of the ${how} billing worker authenticate with mTLS client certificates from vault, not OAuth tokens.` });
        by = other.id!;
        await env.human.supersede(old.id!, by);
      } else {
        await env.human.archive(old.id!, "the billing worker was retired");
      }
      const r = await env.human.approve(draft.id!);
      assert.equal(r.entry.lifecycle.status, "established");
      assert.equal(r.superseded, undefined);
      assert.equal(r.notReplaced?.id, old.id, `${how}: the approval says what it could not replace`);
      assert.equal((await env.human.get(draft.id!)).lifecycle.supersedes, undefined, `${how}: the approved draft does not claim to replace a lesson it did not`);
      const oldAfter = await env.human.get(old.id!);
      assert.equal(oldAfter.lifecycle.status, how);
      assert.equal(oldAfter.lifecycle.superseded_by, by);
    }
  } finally {
    await env.close();
  }
});
