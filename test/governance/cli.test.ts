// The governance commands as a person runs them: structured add, review/approve/reject, check, guardrail, related, mirror, stats.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";
import { CATEGORIES, type Entry } from "../../src/core/entry.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "Check the session token for null before reading its claims in src/auth/middleware.ts; a missing token crashed /login.";

function project(name: string, config?: unknown): string {
  const dir = sb.project(name);
  if (config) {
    fs.mkdirSync(path.join(dir, ".swarm"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".swarm", "cairn.json"), JSON.stringify(config));
  }
  return dir;
}

test("cairn add takes structured flags and --from-file; a bad field exits 2", async () => {
  const p = project("add");
  const r = await sb.json(p, "add", LESSON, "--title", "Null check at auth token boundaries", "--why", "A null token returns 500 on /login.",
    "--root-cause", "null_reference", "--prevention", "Return early when the token is missing.", "--detect", "token\\.(claims|payload)",
    "--guardrail", "An ESLint rule flagging token property access in src/auth.", "--files", "src/auth/**,src/middleware/auth*", "--stack", "typescript,jwt",
    "--projects", "*", "--tags", "auth,jwt");
  assert.equal(r.code, 0, r.stderr);
  const shown = await sb.json(p, "show", r.body.handle);
  const e = shown.body.entry;
  assert.equal(e.root_cause, "null_reference");
  assert.deepEqual(e.prevention, { rule: "Return early when the token is missing.", detection_pattern: "token\\.(claims|payload)", suggested_guardrail: "An ESLint rule flagging token property access in src/auth." });
  assert.deepEqual(e.applicability.file_globs, ["src/auth/**", "src/middleware/auth*"]);
  assert.deepEqual(e.applicability.tech_stack, ["typescript", "jwt"]);

  const file = path.join(p, "lesson.yaml");
  fs.writeFileSync(
    file,
    [
      "title: Billing uses the configured token endpoint",
      "lesson: The billing worker must read the OAuth token endpoint from config; the hard-coded v1 path returns 410 since March.",
      "why: Every invoice run fails while the old path is used.",
      "root_cause: api_contract",
      "prevention:",
      "  rule: Read the endpoint from config.",
      "  detection_pattern: \"/oauth/token\\\\b\"",
      "applicability:",
      "  file_patterns: [services/billing/**]",
      "derived_from: { issue_id: 77 }",
    ].join("\n"),
  );
  const f = await sb.json(p, "add", "--from-file", file, "--title", "Billing reads the token endpoint from config");
  assert.equal(f.code, 0, f.stderr);
  const fe = (await sb.json(p, "show", f.body.handle)).body.entry;
  assert.equal(fe.title, "Billing reads the token endpoint from config", "flags override the file");
  assert.equal(fe.root_cause, "api_contract");
  assert.deepEqual(fe.provenance.derived_from, { kind: "issue", ref: "77" });

  const bad = await sb.run(p, "add", "The export job must page by cursor on big tables, offsets time out after a million rows.", "--detect", ".*");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /matches any text/);
  const none = await sb.run(p, "add");
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--from-file/);
  const badCause = await sb.run(p, "add", LESSON, "--root-cause", "gremlins");
  assert.equal(badCause.code, 2);
});

test("cairn show prints where a lesson came from: the issue or task it derives from and its session", async () => {
  const p = project("trace");
  const file = path.join(p, "ko.yaml");
  fs.writeFileSync(
    file,
    [
      "lesson: The billing worker must read the OAuth token endpoint from config; the hard-coded v1 path returns 410 since March.",
      "derived_from: { issue_id: 123, session_id: abc-123-def-456 }",
    ].join("\n"),
  );
  const added = await sb.json(p, "add", "--from-file", file);
  assert.equal(added.code, 0, added.stderr);
  const shown = await sb.run(p, "show", added.body.handle);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /derived from\s+issue 123/, shown.stdout);
  assert.match(shown.stdout, /session\s+abc-123-def-456/);
  // A reference that names its kind already reads once: knowledge_add's derived_from "issue #12" is kind issue, ref "issue #12".
  const again = await sb.json(p, "add", "The billing worker retries a 429 from the token endpoint after the Retry-After header's delay.", "--from-file", writeYaml(p, "derived_from: { kind: issue, ref: 'issue #12' }"));
  assert.equal(again.code, 0, again.stderr);
  const twice = await sb.run(p, "show", again.body.handle);
  assert.match(twice.stdout, /derived from\s+issue #12\n/, twice.stdout);
});

function writeYaml(dir: string, text: string): string {
  const file = path.join(dir, `doc-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, text);
  return file;
}

test("a whole Knowledge Object file (seed 004's shape: id, status, approvals, usage) is added: the lesson and its fields taken, the system's keys left out and said", async () => {
  const p = project("ko-file");
  const file = writeYaml(p, [
    'id: "KO-shop-007"',
    'title: "Idempotency key on payment retries"',
    'status: "approved"',
    "derived_from:",
    "  issue_id: 88",
    '  resolution_status: "RESOLVED_FULL"',
    "insight:",
    "  what_was_learned: |",
    "    The payment client retried a timed-out charge without an Idempotency-Key header",
    "    in src/payments/charge.ts, so a slow gateway produced double charges.",
    '  why_it_matters: "Customers were billed twice and refunds took a week."',
    '  root_cause_category: "missing_validation"',
    "prevention:",
    '  rule: "Send one Idempotency-Key per logical charge and reuse it on every retry."',
    "  detection_pattern: 'charges\\.create\\('",
    "applicability:",
    '  file_patterns: ["src/payments/**"]',
    '  tech_stack: ["typescript", "stripe"]',
    '  tags: ["payments", "retries"]',
    'created_at: "2026-01-05T14:32:00Z"',
    'created_by: "agent:bugfix"',
    'approved_at: "2026-01-05T15:10:00Z"',
    'approved_by: "someone"',
    "usage:",
    "  times_consulted: 3",
    "  times_prevented: 1",
  ].join("\n"));
  const added = await sb.json(p, "add", "--from-file", file);
  assert.equal(added.code, 0, `${added.stderr} ${JSON.stringify(added.body)}`);
  assert.equal(added.body.status, "candidate", "a file does not approve a lesson");
  assert.match(added.stderr, /status, created_at, created_by, approved_at, approved_by, usage .*not applied/);
  const entry = (await sb.json<{ entry: Entry }>(p, "show", added.body.id)).body.entry;
  assert.equal(entry.provenance.external_id, "KO-shop-007");
  assert.equal(entry.provenance.approved_by, undefined);
  assert.equal(entry.provenance.created_by, "human:cli");
  assert.equal(entry.usage.consulted, 0);
  assert.equal(entry.title, "Idempotency key on payment retries");
  assert.deepEqual(entry.applicability.file_globs, ["src/payments/**"]);
  assert.equal(entry.provenance.derived_from.ref, "88");
});

test("drafts under approval: list --status draft, approve/reject, review needs a terminal, an agent actor cannot approve", async () => {
  const p = project("review", { governance: { require_approval: { swarm: true } } });
  const d = await sb.json(p, "--actor", "agent:coder", "add", LESSON);
  assert.equal(d.body.status, "draft");
  const d2 = await sb.json(p, "--actor", "agent:coder", "add", "Run prisma generate after editing schema.prisma in packages/db, or the generated client is stale.");
  const listed = await sb.json(p, "list", "--status", "draft");
  assert.equal(listed.body.length, 2);

  const review = await sb.run(p, "review");
  assert.equal(review.code, 2);
  assert.match(review.stderr, /needs a terminal.*cairn approve/s);

  const refused = await sb.run(p, "--actor", "agent:coder", "approve", d.body.handle);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Only a person can approve/);

  const ok = await sb.json(p, "--actor", "human:alice", "approve", d.body.handle);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.body.approved[0].status, "established");
  assert.equal(ok.body.approved[0].approved_by, "human:alice");
  const rej = await sb.json(p, "reject", d2.body.handle, "too vague for the team");
  assert.equal(rej.body.status, "archived");
  assert.equal((await sb.json(p, "list", "--status", "draft")).body.length, 0);
  const history = await sb.json(p, "show", d.body.handle);
  assert.ok(history.body.events.some((e: { type: string; actor: string }) => e.type === "approved" && e.actor === "human:alice"));
});

test("cairn check prints advisories and always exits 0; cairn related lists vetted entries by file and tag", async () => {
  const p = project("check");
  const a = await sb.json(p, "add", LESSON, "--detect", "token\\.(claims|payload)", "--files", "src/auth/**", "--prevention", "Return early when the token is missing.", "--tags", "auth,jwt");
  await sb.run(p, "approve", a.body.handle);
  const hit = await sb.json(p, "check", "--files", "src/auth/session.ts", "--text", "const c = token.claims");
  assert.equal(hit.code, 0);
  assert.equal(hit.body.count, 1);
  assert.equal(hit.body.advisories[0].matched, "pattern");
  const human = await sb.run(p, "check", "--files", "src/auth/session.ts");
  assert.equal(human.code, 0);
  assert.match(human.stdout, /Return early when the token is missing/);
  const miss = await sb.run(p, "check", "--files", "README.md");
  assert.equal(miss.code, 0);
  assert.match(miss.stderr, /no advisories/);
  assert.equal((await sb.run(p, "check")).code, 2);
  // An empty --text or --files was given, not missing: the refusal says which is empty.
  const emptyText = await sb.run(p, "check", "--text", "");
  assert.equal(emptyText.code, 2);
  assert.match(emptyText.stderr, /--text is empty/);
  const emptyFiles = await sb.run(p, "check", "--files", " , ");
  assert.equal(emptyFiles.code, 2);
  assert.match(emptyFiles.stderr, /--files names no file/);

  const rel = await sb.json(p, "related", "--files", "src/auth/login.ts", "--tags", "jwt,billing");
  assert.equal(rel.body.length, 1);
  assert.deepEqual(rel.body[0].reasons.sort(), ["file:src/auth/login.ts", "tag:jwt"]);
  const none = await sb.json(p, "related", "--tags", "billing");
  assert.deepEqual(none.body, []);
});

test("cairn guardrail writes a proposal from the suggested guardrail, refuses without one, never overwrites without --force", async () => {
  const p = project("guardrail");
  const a = await sb.json(p, "add", LESSON, "--title", "Null check at auth token boundaries", "--guardrail", "Add an ESLint rule that flags token.claims access in src/auth.", "--files", "src/auth/**");
  const b = await sb.json(p, "add", "Run prisma generate after editing schema.prisma in packages/db, or the generated client is stale.");
  // regression 11.9: the proposal is a person's act; an agent's shell gets FORBIDDEN and no file.
  const byAgent = await sb.run(p, "--actor", "agent:coder", "guardrail", a.body.handle, "--force");
  assert.equal(byAgent.code, 1);
  assert.match(byAgent.stderr, /Only a person can propose a guardrail/);
  assert.equal(fs.existsSync(path.join(p, ".swarm", "guardrails")), false);
  const r = await sb.json(p, "guardrail", a.body.handle);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.body.file, path.join(p, ".swarm", "guardrails", `${a.body.handle}-null-check-at-auth-token-boundaries.md`));
  assert.equal(r.body.guardrail_type, "lint");
  const text = fs.readFileSync(r.body.file, "utf8");
  assert.match(text, /status: proposed/);
  assert.match(text, /## Suggested guardrail\n\nAdd an ESLint rule/);
  assert.match(text, /- `src\/auth\/\*\*`/);
  fs.appendFileSync(r.body.file, "\nnotes from the implementer\n");
  const again = await sb.run(p, "guardrail", a.body.handle);
  assert.equal(again.code, 4);
  assert.match(fs.readFileSync(r.body.file, "utf8"), /notes from the implementer/);
  assert.equal((await sb.run(p, "guardrail", a.body.handle, "--force")).code, 0);
  assert.doesNotMatch(fs.readFileSync(r.body.file, "utf8"), /notes from the implementer/);
  const refused = await sb.run(p, "guardrail", b.body.handle);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /no suggested guardrail/);
});

test("cairn mirror rebuilds and --pull applies an edit; stats --governance prints the metrics", async () => {
  const p = project("mirror");
  const a = await sb.json(p, "add", LESSON, "--title", "Null check at auth token boundaries");
  const m = await sb.json(p, "mirror");
  assert.equal(m.body.written, 1);
  const file = path.join(p, ".swarm", "knowledge", "candidates", `${a.body.handle}-null-check-at-auth-token-boundaries.md`);
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("status: candidate", "status: approved").replace("tags: []", "tags: [auth]"));
  const pulled = await sb.json(p, "mirror", "--pull", "--approve");
  assert.equal(pulled.code, 0, pulled.stderr);
  assert.equal(pulled.body.applied.length, 1);
  const e = (await sb.json(p, "show", a.body.handle)).body.entry;
  assert.equal(e.lifecycle.status, "established");
  assert.deepEqual(e.tags, ["auth"]);
  assert.ok(fs.existsSync(path.join(p, ".swarm", "knowledge", "approved", path.basename(file))));

  const stats = await sb.json(p, "stats", "--governance");
  assert.equal(stats.body.approvals, 1);
  assert.equal(stats.body.approval_rate, 1);
  assert.equal(stats.body.targets.approval_rate, "> 80%");
  const text = await sb.run(p, "stats", "--governance");
  assert.match(text.stdout, /approval rate\s+100%/);
  assert.match(text.stdout, /lessons per resolved task/);
  assert.match(text.stdout, /median time to approve/);
});

/** Drives `cairn review` in a real pseudo-terminal (util-linux `script`), answering prompts as a person would. */
// No total time limit a busy machine could hit: waitFor fails when the terminal shows nothing new for a minute.
test("cairn review in a terminal: approve one draft, edit another in $EDITOR then approve it, reject a third", { skip: !fs.existsSync("/usr/bin/script") && "needs util-linux script for a pty" }, async () => {
  const { spawn } = await import("node:child_process");
  const { BIN } = await import("../helpers/cli.js");
  const p = project("tty", { governance: { require_approval: { swarm: true } } });
  const a = await sb.json(p, "--actor", "agent:coder", "add", LESSON);
  const b = await sb.json(p, "--actor", "agent:coder", "add", "Run prisma generate after editing schema.prisma in packages/db, or the generated client is stale.");
  const c = await sb.json(p, "--actor", "agent:coder", "add", "The billing worker must read STRIPE_WEBHOOK_TOLERANCE from config; the hard-coded 300s broke replays.");
  const editor = path.join(sb.root, "editor.sh");
  fs.writeFileSync(editor, "#!/bin/sh\nsed -i 's/^title: null/title: Regenerate the Prisma client/' \"$1\"\n", { mode: 0o755 });
  const cmd = `${process.execPath} ${BIN} --project ${p} review`;
  const child = spawn("script", ["-qfec", cmd, "/dev/null"], { env: { ...sb.env, EDITOR: editor, TERM: "xterm" } });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const waitFor = async (re: RegExp, from: number) => {
    let seen = out.length;
    let lastProgress = Date.now();
    while (!re.test(out.slice(from))) {
      if (out.length !== seen) [seen, lastProgress] = [out.length, Date.now()];
      if (Date.now() - lastProgress > 60_000) throw new Error(`no progress for 60 s waiting for ${re} in:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const answer = async (prompt: RegExp, keys: string) => {
    const at = out.length;
    await waitFor(prompt, Math.max(0, at - 2000));
    // Inquirer reads keys once its prompt is drawn; a short pause covers the raw-mode switch.
    await new Promise((r) => setTimeout(r, 300));
    child.stdin.write(keys);
  };
  const DOWN = "\u001b[B";
  await answer(new RegExp(`${a.body.handle}: what now\\?`), "\r");
  await answer(new RegExp(`${b.body.handle}: what now\\?`), `${DOWN}\r`);
  await answer(/updated .*title[\s\S]*what now\?/, "\r");
  await answer(new RegExp(`${c.body.handle}: what now\\?`), `${DOWN}${DOWN}\r`);
  await answer(/Reason/, "not specific enough\r");
  const code = await new Promise<number | null>((r) => child.on("close", r));
  assert.equal(code, 0, out);
  assert.match(out, /approved 2, rejected 1, edited 1, skipped 0/);
  const list = (await sb.json(p, "list", "--status", "established,archived")).body as Array<{ handle: string; title?: string; lifecycle: { status: string; status_reason?: string } }>;
  const by = new Map(list.map((e) => [e.handle, e]));
  assert.equal(by.get(a.body.handle)?.lifecycle.status, "established");
  assert.equal(by.get(b.body.handle)?.title, "Regenerate the Prisma client");
  assert.equal(by.get(b.body.handle)?.lifecycle.status, "established");
  assert.equal(by.get(c.body.handle)?.lifecycle.status_reason, "rejected: not specific enough");
});

test("cairn add --from-file takes opencode-swarm's category names as cairn add --category does, and says as what the lesson was stored", async () => {
  const p = project("legacy-file");
  const viaFlag = await sb.json(p, "add", "We decided to keep the billing worker's retry queue in Redis, not Postgres, so a retry storm cannot lock the invoices table.", "--category", "decision");
  assert.equal(viaFlag.code, 0, viaFlag.stderr);
  const file = writeYaml(p, [
    "lesson: We decided to read the OAuth token endpoint from config in the billing worker; the hard-coded v1 path returns 410 since March.",
    "category: decision",
  ].join("\n"));
  const added = await sb.json(p, "add", "--from-file", file);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.body.action, "added", added.stdout);
  const note = (added.body.issues as Array<{ code: string; message: string }>).find((i) => i.code === "category_mapped");
  assert.match(note?.message ?? "", /category "decision" is opencode-swarm's name: stored as category \w+/, added.stdout);
  const shown = await sb.json(p, "show", added.body.id);
  assert.equal(shown.body.entry.kind, "decision");
  assert.ok((CATEGORIES as readonly string[]).includes(shown.body.entry.category), shown.body.entry.category);
  assert.ok((shown.body.entry.tags as string[]).includes("legacy-category:decision"), "stored as cairn add --category stores it");
});

test("stats --governance counts a hive lesson once when two of this project's lessons were promoted into it (the second reinforcing it)", async () => {
  // A hive of its own: the lessons below must not meet the other tests' hive lessons.
  const own = sandbox();
  try {
    const a = own.project("two-originals");
    const b = own.project("other-project");
    // Two lessons of this project, too different to merge here, each close enough to a hive lesson another project wrote to reinforce it.
    const first = await own.json(a, "add", "Run prisma generate after editing schema.prisma in packages/db or builds fail with a stale generated client in the api service.", "--files", "packages/db/**");
    const second = await own.json(a, "add", "After editing schema.prisma in packages/db run prisma generate, otherwise the generated client is stale and jest crashes on new models.", "--files", "packages/db/**");
    assert.equal(second.body.action, "added", second.body.reason);
    assert.equal((await own.run(a, "approve", first.body.handle, second.body.handle)).code, 0);
    const shared = await own.json(b, "promote", "Run prisma generate after editing schema.prisma in packages/db, or the generated client is stale and builds fail.", "--files", "packages/db/**");
    assert.equal(shared.body.action, "added", shared.body.reason);
    assert.equal((await own.run(b, "approve", shared.body.handle)).code, 0);
    for (const original of [first, second]) {
      const up = await own.json(a, "promote", original.body.handle);
      assert.equal(up.body.action, "reinforced", up.body.reason);
      assert.equal(up.body.id, shared.body.id);
    }
    // An agent is warned once, by the hive lesson: one lesson, one consultation.
    const warned = await own.json(a, "--actor", "agent:coder", "check", "--files", "packages/db/schema.prisma");
    assert.deepEqual(warned.body.advisories.map((x: { handle: string }) => x.handle), [shared.body.handle]);
    const related = await own.json(a, "related", "--files", "packages/db/schema.prisma");
    assert.deepEqual(related.body.map((x: { entry: { handle: string } }) => x.entry.handle), [shared.body.handle]);

    const stats = await own.json(a, "stats", "--governance");
    assert.equal(stats.body.vetted_lessons, 1, `vetted ${stats.body.vetted_lessons}`);
    assert.equal(stats.body.consultations, 1);
    assert.equal(stats.body.mean_consultations_per_lesson, 1);
    assert.match((await own.run(a, "stats", "--governance")).stdout, /1 over 1 established\/promoted/);
  } finally {
    own.cleanup();
  }
});

test("a lesson whose text ends in a line of dashes keeps it through the mirror: a tag edited in the file and pulled changes only the tags", async () => {
  const p = project("mirror-rules");
  const file = path.join(p, "rule-lines.json");
  const lesson = "Pin the Node major in .nvmrc and in CI to the production one; a mismatch broke fetch in the deploy step.\n---";
  const why = "Deploys fail only in production, after every test passed.\n***";
  fs.writeFileSync(file, JSON.stringify({ title: "Pin the Node major everywhere", lesson, why, tags: ["ci"] }));
  const a = await sb.json(p, "add", "--from-file", file);
  assert.equal(a.code, 0, a.stderr);
  assert.equal((await sb.json(p, "show", a.body.handle)).body.entry.lesson, lesson, "stored as written");
  assert.equal((await sb.json(p, "mirror")).code, 0);
  const md = path.join(p, ".swarm", "knowledge", "candidates", `${a.body.handle}-pin-the-node-major-everywhere.md`);
  fs.writeFileSync(md, fs.readFileSync(md, "utf8").replace("tags: [ci]", "tags: [ci, node]"));
  const pulled = await sb.json(p, "mirror", "--pull");
  assert.equal(pulled.code, 0, pulled.stderr);
  assert.deepEqual(pulled.body.applied.map((x: { fields: string[] }) => x.fields), [["tags"]]);
  const e = (await sb.json(p, "show", a.body.handle)).body.entry;
  assert.deepEqual(e.tags, ["ci", "node"]);
  assert.equal(e.lesson, lesson);
  assert.equal(e.why, why);
});

test("a hive lesson another project supersedes or quarantines stops advising here too: this project's original promoted into it is not checked or related on its own", async () => {
  const own = sandbox();
  try {
    const a = own.project("reinforcer");
    const b = own.project("owner");
    const lessons = [
      "Set a lock_timeout before ALTER TABLE in migrations/*.sql; an ALTER waiting on a long transaction blocked every write to orders.",
      "Pass an idempotency key to every Stripe charge in services/payments/*.ts; a retried request billed a customer twice.",
    ];
    const globs = ["migrations/**", "services/payments/**"];
    const shared: string[] = [];
    for (const [i, lesson] of lessons.entries()) {
      const mine = await own.json(a, "add", lesson, "--files", globs[i]!, "--tags", `tag${i}`);
      assert.equal((await own.run(a, "approve", mine.body.handle)).code, 0);
      const theirs = await own.json(b, "promote", lesson, "--files", globs[i]!);
      assert.equal(theirs.body.action, "added", theirs.body.reason);
      assert.equal((await own.run(b, "approve", theirs.body.handle)).code, 0);
      const up = await own.json(a, "promote", mine.body.handle);
      assert.equal(up.body.action, "reinforced", up.body.reason);
      shared.push(theirs.body.handle);
    }
    const before = await own.json(a, "check", "--files", "migrations/001.sql,services/payments/charge.ts");
    assert.deepEqual(before.body.advisories.map((x: { handle: string }) => x.handle).sort(), [...shared].sort());

    // The other project retires both hive lessons: one replaced, one quarantined (hidden from every agent).
    const replaced = await own.json(b, "supersede", shared[0]!, "Set lock_timeout to a few seconds before any ALTER TABLE in migrations/*.sql and retry; an ALTER queued behind a long transaction blocked writes.");
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal((await own.run(b, "quarantine", shared[1]!, "wrong advice")).code, 0);

    const after = await own.json(a, "check", "--files", "migrations/001.sql,services/payments/charge.ts");
    assert.deepEqual(after.body.advisories.map((x: { handle: string; rule: string }) => `${x.handle} ${x.rule}`), []);
    const related = await own.json(a, "related", "--files", "migrations/001.sql,services/payments/charge.ts", "--tags", "tag0,tag1");
    assert.deepEqual(related.body.map((x: { entry: { handle: string } }) => x.entry.handle), []);
  } finally {
    own.cleanup();
  }
});

test("file globs written as in .gitignore apply: a leading slash anchors at the project root, a trailing slash means everything in that folder", async () => {
  const p = project("gitignore-globs");
  const lessons: Array<[string, string]> = [
    ["/src/auth/**", "Check the session token for null before reading its claims in the auth module; a missing token crashed /login."],
    ["src/billing/", "Read the Stripe webhook tolerance from config in the billing module; the hard-coded 300s broke replays."],
    ["migrations/", "Set a lock_timeout before ALTER TABLE in migration files; an ALTER queued behind a long transaction blocked writes."],
    ["/Makefile", "Keep the Makefile's test target running the type check first; CI passed a build that did not compile."],
  ];
  const handles: string[] = [];
  for (const [glob, lesson] of lessons) {
    const a = await sb.json(p, "add", lesson, "--files", glob);
    assert.equal(a.body.action, "added", a.body.reason);
    assert.equal((await sb.run(p, "approve", a.body.handle)).code, 0);
    handles.push(a.body.handle);
  }
  const warned = async (file: string) => (await sb.json(p, "check", "--files", file)).body.advisories.map((x: { handle: string }) => x.handle);
  assert.deepEqual(await warned("src/auth/session.ts"), [handles[0]]);
  assert.deepEqual(await warned("lib/src/auth/session.ts"), [], "anchored at the root");
  assert.deepEqual(await warned("src/billing/webhooks/stripe.ts"), [handles[1]]);
  assert.deepEqual(await warned("db/migrations/001_orders.sql"), [handles[2]], "a folder name without another slash is any folder of that name");
  assert.deepEqual(await warned("Makefile"), [handles[3]]);
  assert.deepEqual(await warned("tools/Makefile"), [], "anchored at the root");
});
