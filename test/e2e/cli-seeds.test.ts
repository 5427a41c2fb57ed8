// Seed audit (003 Memory Lane, 004 Knowledge Objects) from outside: the built CLI in a throwaway home.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("feedback counts read as counts: two helpful verdicts a moment apart show as 2, not 1.99999993…", async () => {
  // Seed 003 §6.4: verdicts decay with a 90-day half-life; a few milliseconds of decay is no reason to print 16 digits.
  const p = sb.project("feedback-numbers");
  const added = await sb.json(p, "add", "Run prisma generate after editing schema.prisma or the generated client is stale", "--category", "tooling");
  assert.equal(added.body.action, "added", added.stderr);
  for (const v of ["helpful", "helpful", "harmful"]) assert.equal((await sb.run(p, "feedback", added.body.handle, v)).code, 0);
  const shown = await sb.run(p, "show", added.body.handle);
  assert.match(shown.stdout, /helpful 2, harmful 1\b/, shown.stdout);
  const json = await sb.json(p, "show", added.body.handle);
  const usage = json.body.entry?.usage ?? json.body.usage;
  assert.equal(usage.helpful, 2, JSON.stringify(usage));
  assert.equal(usage.harmful, 1);
});

test("a sighting that brings tags merges them (--json says so); a root cause the entry lacks is not applied and said so, as for why and prevention", async () => {
  // Seed 003 §6.2: a near-duplicate is not stored again; what it brings must not vanish without a word.
  // Its UPDATE: new tags (descriptive, never the lesson's text) are added to the entry it confirms.
  const p = sb.project("sighting-fields");
  const lesson = "Run prisma generate after editing schema.prisma or the generated client is stale";
  assert.equal((await sb.json(p, "add", lesson, "--category", "tooling")).body.action, "added");
  const again = await sb.json(p, "add", lesson, "--category", "tooling", "--tags", "prisma,codegen", "--root-cause", "config_error");
  assert.equal(again.body.action, "reinforced", again.stderr);
  const warning = again.body.issues.find((i: { code: string }) => i.code === "fields_not_merged");
  assert.ok(warning, `no fields_not_merged warning: ${JSON.stringify(again.body.issues)}`);
  assert.deepEqual(again.body.merged, { tags: ["prisma", "codegen"] });
  assert.doesNotMatch(warning.message, /tags/);
  assert.match(warning.message, /root cause/);
  assert.deepEqual((await sb.json(p, "show", "S-1")).body.entry.tags, ["prisma", "codegen"]);
  const plain = await sb.run(p, "add", lesson, "--category", "tooling", "--why", "Stale client types break the CI build");
  assert.match(plain.stderr, /its why was not applied to it; to add it, edit S-1 in `cairn ui`/, plain.stderr);
});

test("a supersede made by mistake can be undone: restore brings the superseded lesson back and unlinks its replacement", async () => {
  // Seed 004 §1 lifecycle (draft → approved → superseded/archived): every message about a superseded
  // lesson said "restore it", and restore answered "nothing to restore" — no way back from a wrong id.
  const p = sb.project("unsupersede");
  const a = await sb.json(p, "add", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", "--category", "tooling");
  const b = await sb.json(p, "add", "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", "--category", "tooling");
  assert.equal((await sb.run(p, "approve", a.body.handle)).code, 0);
  assert.equal((await sb.run(p, "supersede", a.body.handle, b.body.handle)).code, 0);
  const approve = await sb.run(p, "approve", a.body.handle);
  assert.match(approve.stderr, /restore it/, "approving a superseded lesson points to restore");

  const restored = await sb.json(p, "restore", a.body.handle);
  assert.equal(restored.code, 0, restored.stderr || restored.stdout);
  const old = (await sb.json(p, "show", a.body.handle)).body;
  const oldEntry = old.entry ?? old;
  assert.equal(oldEntry.lifecycle.status, "established", "approved before: established again");
  assert.equal(oldEntry.lifecycle.superseded_by, undefined);
  const repl = (await sb.json(p, "show", b.body.handle)).body;
  assert.equal((repl.entry ?? repl).lifecycle.supersedes, undefined, "the replacement no longer claims to replace it");
  const hits = (await sb.json(p, "recall", "pnpm frozen lockfile CI")).body;
  assert.equal(hits[0]?.handle, a.body.handle, JSON.stringify(hits));
  // Superseding it again (the right way this time) works as the first time did.
  assert.equal((await sb.run(p, "supersede", a.body.handle, b.body.handle)).code, 0);
});

test("messages that ask for an edit say where a person edits (the CLI has no edit command): guardrail, a sighting's unmerged fields", async () => {
  // Seed 004 §2 step 4 (EDIT → modify fields, then approve) and §4 (suggested guardrail → proposal).
  const p = sb.project("how-to-edit");
  const lesson = "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime";
  const added = await sb.json(p, "add", lesson, "--category", "tooling");
  assert.equal((await sb.run(p, "approve", added.body.handle)).code, 0);
  const guardrail = await sb.run(p, "guardrail", added.body.handle);
  assert.equal(guardrail.code, 2);
  assert.doesNotMatch(guardrail.stderr, /cairn add/, "a new add of the same lesson is only a sighting: the guardrail would be dropped");
  assert.match(guardrail.stderr, /cairn mirror --pull/);
  assert.match(guardrail.stderr, /cairn ui/);
  const sighting = await sb.run(p, "add", lesson, "--category", "tooling", "--guardrail", "Add a CI step that fails when node --version differs from .nvmrc");
  assert.match(sighting.stderr, /not applied to it/);
  assert.match(sighting.stderr, /cairn mirror --pull/, sighting.stderr);
});

test("approve of several ids with one wrong approves none, and says so: no half-done batch hidden behind one error", async () => {
  // Seed 004 §2 step 4 (a person approves drafts). `approve S-1 S-99 S-2` approved S-1, stopped at S-99,
  // skipped S-2 without a word, and with --json printed only the error — a script could not tell S-1 changed.
  const p = sb.project("approve-batch");
  const a = await sb.json(p, "add", "Run prisma generate after editing schema.prisma or the generated client is stale", "--category", "tooling");
  const b = await sb.json(p, "add", "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", "--category", "tooling");
  const r = await sb.json(p, "approve", a.body.handle, "S-99", b.body.handle);
  assert.equal(r.code, 3);
  assert.match(r.body.error.message, /S-99/);
  assert.match(r.body.error.message, /nothing was approved/i);
  for (const h of [a.body.handle, b.body.handle]) {
    const shown = (await sb.json(p, "show", h)).body;
    assert.equal((shown.entry ?? shown).lifecycle.status, "candidate", `${h} was approved though the batch failed`);
  }
  const ok = await sb.json(p, "approve", a.body.handle, b.body.handle);
  assert.equal(ok.code, 0);
  assert.deepEqual(ok.body.approved.map((x: { handle: string }) => x.handle), [a.body.handle, b.body.handle]);
});

test("supersede never closes a loop: a lesson that was replaced cannot replace its own replacement (both vanished from agents)", async () => {
  // Seed 004 §1: superseded_by names the *newer* Knowledge Object; a chain must end in a lesson in use.
  const p = sb.project("supersede-loop");
  const a = await sb.json(p, "add", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", "--category", "tooling");
  const b = await sb.json(p, "add", "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", "--category", "tooling");
  assert.equal((await sb.run(p, "supersede", a.body.handle, b.body.handle)).code, 0);
  const loop = await sb.run(p, "supersede", b.body.handle, a.body.handle);
  assert.equal(loop.code, 4, loop.stdout + loop.stderr);
  assert.match(loop.stderr, new RegExp(`${a.body.handle} is superseded`));
  assert.match(loop.stderr, /restore/);
  const shown = (await sb.json(p, "show", b.body.handle)).body;
  assert.equal((shown.entry ?? shown).lifecycle.status, "candidate", "the replacement stays in use");
  // An archived lesson cannot replace a live one either: the live one would vanish for nothing.
  const c = await sb.json(p, "add", "Run vitest with --pool=forks when tests load native addons such as libsql", "--category", "testing");
  assert.equal((await sb.run(p, "archive", c.body.handle)).code, 0);
  assert.equal((await sb.run(p, "supersede", b.body.handle, c.body.handle)).code, 4);
});

test("supersede with a draft waits for its approval, as add --supersedes does: the lesson in use is not retired for one agents cannot see", async () => {
  // Seed 004 §2: a draft becomes queryable only on approval; until then the approved lesson stays in use.
  const p = sb.project("supersede-draft");
  fs.mkdirSync(path.join(p, ".swarm"), { recursive: true });
  fs.writeFileSync(path.join(p, ".swarm", "cairn.json"), JSON.stringify({ governance: { require_approval: { swarm: true } } }));
  const old = await sb.json(p, "add", "Run prisma migrate deploy before starting the API container in staging", "--category", "tooling");
  assert.equal((await sb.run(p, "approve", old.body.handle)).code, 0);
  const draft = await sb.json(p, "--actor", "agent:coder", "add", "Apply database migrations with a one-off Kubernetes Job before the API rollout, not from the container", "--category", "tooling");
  assert.equal(draft.body.status, "draft");
  const r = await sb.run(p, "supersede", old.body.handle, draft.body.handle);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /will supersede .* once a person approves it/);
  const before = (await sb.json(p, "show", old.body.handle)).body;
  assert.equal((before.entry ?? before).lifecycle.status, "established", "still in use while the draft waits");
  const approved = await sb.run(p, "approve", draft.body.handle);
  assert.match(approved.stdout, new RegExp(`superseding ${old.body.handle}`));
  const after = (await sb.json(p, "show", old.body.handle)).body;
  assert.equal((after.entry ?? after).lifecycle.status, "superseded");
});

test("an agent cannot undo a person's supersede by restoring the lesson it replaced", async () => {
  // Seed 004 §7: humans have full control; an agent's supersede of an approved lesson is refused, and so is its undoing of a person's.
  const p = sb.project("agent-restore");
  const a = await sb.json(p, "add", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", "--category", "tooling");
  const b = await sb.json(p, "add", "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", "--category", "tooling");
  assert.equal((await sb.run(p, "supersede", a.body.handle, b.body.handle)).code, 0);
  const byAgent = await sb.run(p, "--actor", "agent:coder", "restore", a.body.handle);
  assert.notEqual(byAgent.code, 0, byAgent.stdout);
  assert.match(byAgent.stderr, /only a person can restore it/);
  const still = (await sb.json(p, "show", a.body.handle)).body;
  assert.equal((still.entry ?? still).lifecycle.status, "superseded");
  assert.equal((await sb.run(p, "restore", a.body.handle)).code, 0, "a person can");
});

test("an agent cannot restore what a person quarantined or archived; it may restore what an agent quarantined", async () => {
  // `cairn quarantine --help`: "hide an entry from every agent until a person restores it". Seed 004 §7: humans have full control.
  const p = sb.project("agent-restore-quarantine");
  const a = await sb.json(p, "add", "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", "--category", "tooling");
  const b = await sb.json(p, "add", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", "--category", "tooling");
  const c = await sb.json(p, "add", "Run prisma generate after editing schema.prisma or the generated client is stale", "--category", "tooling");
  assert.equal((await sb.run(p, "quarantine", a.body.handle, "x")).code, 0);
  assert.equal((await sb.run(p, "archive", b.body.handle)).code, 0);
  // What a person archived: refused, saying who and how a person restores it.
  const archivedByAgent = await sb.run(p, "--actor", "agent:coder", "restore", b.body.handle);
  assert.notEqual(archivedByAgent.code, 0, archivedByAgent.stdout);
  assert.doesNotMatch(archivedByAgent.stdout, /restored/);
  assert.match(archivedByAgent.stderr, /by human:\S+; only a person can restore it/, archivedByAgent.stderr);
  assert.match(archivedByAgent.stderr, new RegExp(`cairn restore ${b.body.handle}`), "says how a person restores it");
  // What a person quarantined does not exist for an agent at all (as `show` answers it): no entry, nothing of it told.
  const quarantinedByAgent = await sb.run(p, "--actor", "agent:coder", "restore", a.body.handle);
  assert.notEqual(quarantinedByAgent.code, 0, quarantinedByAgent.stdout);
  assert.doesNotMatch(quarantinedByAgent.stdout, /restored/);
  assert.match(quarantinedByAgent.stderr, /No entry with id or handle/, quarantinedByAgent.stderr);
  const still = (await sb.json(p, "show", a.body.handle)).body;
  assert.equal((still.entry ?? still).lifecycle.status, "quarantined");
  // An agent's own quarantine is an agent's to undo.
  assert.equal((await sb.run(p, "--actor", "agent:coder", "quarantine", c.body.handle, "looks wrong")).code, 0);
  const own = await sb.run(p, "--actor", "agent:reviewer", "restore", c.body.handle);
  assert.equal(own.code, 0, own.stderr);
  // A person restores either.
  assert.equal((await sb.run(p, "restore", a.body.handle)).code, 0, "a person can");
  assert.equal((await sb.run(p, "restore", b.body.handle)).code, 0, "a person can");
});

test("list --status approved lists what the Markdown mirror's approved/ folder holds (established and promoted), as status: approved means there", async () => {
  // Seed 004 §1: draft → approved → superseded/archived; the mirror writes approved/ and reads `status: approved`.
  const p = sb.project("status-approved");
  const a = await sb.json(p, "add", "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", "--category", "tooling");
  const b = await sb.json(p, "add", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", "--category", "tooling");
  assert.equal((await sb.run(p, "approve", a.body.handle)).code, 0);
  const listed = await sb.json(p, "list", "--status", "approved");
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(listed.body.map((e: { handle: string }) => e.handle), [a.body.handle], JSON.stringify(listed.body));
  const mixed = await sb.json(p, "list", "--status", "approved,candidate");
  assert.deepEqual(mixed.body.map((e: { handle: string }) => e.handle).sort(), [a.body.handle, b.body.handle].sort());
  const bad = await sb.run(p, "list", "--status", "aproved");
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /approved/, "the refusal names approved among the statuses to use");
});

test("show names a lesson's supersedes and superseded_by by handle (S-n), and --json adds the handle beside the stored id", async () => {
  // Seed 004 §1: superseded_by names the newer Knowledge Object; a person reads handles, not UUIDs.
  const p = sb.project("show-lineage");
  const a = await sb.json(p, "add", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", "--category", "tooling");
  const b = await sb.json(p, "add", "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", "--category", "tooling");
  assert.equal((await sb.run(p, "supersede", a.body.handle, b.body.handle)).code, 0);
  const old = await sb.run(p, "show", a.body.handle);
  assert.match(old.stdout, new RegExp(`superseded\\s+${b.body.handle}\\b`), old.stdout);
  assert.doesNotMatch(old.stdout, new RegExp(`superseded\\s+${b.body.id}`));
  const repl = await sb.run(p, "show", b.body.handle);
  assert.match(repl.stdout, new RegExp(`supersedes\\s+${a.body.handle}\\b`), repl.stdout);
  const json = (await sb.json(p, "show", a.body.handle)).body;
  assert.equal(json.entry.lifecycle.superseded_by, b.body.id, "the stored id is kept");
  assert.deepEqual(json.links?.superseded_by && { id: json.links.superseded_by.id, handle: json.links.superseded_by.handle }, { id: b.body.id, handle: b.body.handle });
  const rjson = (await sb.json(p, "show", b.body.handle)).body;
  assert.equal(rjson.links?.supersedes?.handle, a.body.handle);
  // The history names them by handle too ("superseded  human:cli  {"from":"candidate","by":"S-2"}"); --json keeps the stored ids.
  assert.match(old.stdout, new RegExp(`superseded\\s+human:\\S+\\s+\\{(?:"from":"\\w+",)?"by":"${b.body.handle}"\\}`), old.stdout);
  assert.doesNotMatch(repl.stdout, new RegExp(a.body.id), "no raw id in the replacement's history");
  assert.equal(json.events.find((ev: { type: string }) => ev.type === "superseded").data.by, b.body.id);
});

test("removing the lesson that replaced another says the replaced one stays superseded and how to bring it back", async () => {
  // Seed 003 §5 (UPDATE/DELETE): a correction withdrawn by removing it left the lesson it had replaced retired
  // and out of recall, and nothing said so: `removed S-2`, then the old lesson was simply gone for agents.
  const p = sb.project("remove-replacement");
  const a = await sb.json(p, "add", "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", "--category", "tooling");
  const b = await sb.json(p, "add", "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", "--category", "tooling");
  assert.equal((await sb.run(p, "supersede", a.body.handle, b.body.handle)).code, 0);
  const removed = await sb.run(p, "remove", b.body.handle);
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, new RegExp(`${a.body.handle}, which ${b.body.handle} replaced, stays superseded: \`cairn restore ${a.body.handle}\` brings it back`), removed.stdout);
  const json = await sb.json(p, "remove", a.body.handle);
  assert.equal(json.body.removed, true);
  assert.equal(json.body.still_superseded, undefined, "a lesson that replaced nothing names none");

  const c = await sb.json(p, "add", "Run prisma generate after editing schema.prisma or the generated client is stale", "--category", "tooling");
  const d = await sb.json(p, "add", "Run vitest with --pool=forks when native addons crash worker threads in tests", "--category", "testing");
  assert.equal((await sb.run(p, "supersede", c.body.handle, d.body.handle)).code, 0);
  const removedJson = await sb.json(p, "remove", d.body.handle);
  assert.deepEqual(removedJson.body.still_superseded, { id: c.body.id, handle: c.body.handle }, JSON.stringify(removedJson.body));
});
