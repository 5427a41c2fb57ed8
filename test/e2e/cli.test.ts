// End-to-end tests of the built `cairn` CLI: real child processes, real SQLite files in a temp sandbox.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { bytesUnder, sandbox, type Sandbox } from "../helpers/cli.js";
import { MEMORIES_FILE, WITHOUT_MEMORIES } from "../helpers/shared-data.js";

const MEMORIES = MEMORIES_FILE;
const sandboxes: Sandbox[] = [];
function fresh(): Sandbox {
  const sb = sandbox();
  sandboxes.push(sb);
  return sb;
}
after(() => sandboxes.forEach((s) => s.cleanup()));

/** A GitHub token shape with real entropy, so no placeholder heuristic can excuse it. */
function fakeGithubToken(): string {
  const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return "ghp_" + [...randomBytes(36)].map((b) => alnum[b % alnum.length]).join("");
}

// Each test owns its sandbox, so they run side by side to keep the suite fast.
describe("cairn CLI", { concurrency: 4 }, () => {
  test("--help lists the commands with examples; an unknown command points to --help and exits 2", async () => {
    const sb = fresh();
    const help = await sb.raw(["--help"]);
    assert.equal(help.code, 0);
    for (const cmd of ["init", "add", "recall", "import", "export", "quarantine", "remove", "doctor", "config", "rejected"]) {
      assert.match(help.stdout, new RegExp(`\\b${cmd}\\b`), `help mentions ${cmd}`);
    }
    assert.match(help.stdout, /Examples:/);
    const addHelp = await sb.raw(["add", "--help"]);
    assert.equal(addHelp.code, 0);
    assert.match(addHelp.stdout, /Examples:\n\s+\$ cairn add/);
    const unknown = await sb.raw(["frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
    assert.match(unknown.stderr, /cairn --help/);
  });

  test("add: added, reinforced on a near-duplicate, rejected secrets with exit 2 and nothing on disk", async () => {
    const sb = fresh();
    const p = sb.project("add");
    const init = await sb.json(p, "init");
    assert.equal(init.code, 0);
    assert.equal(init.body.swarm, path.join(p, ".swarm", "cairn.db"));
    assert.ok(fs.existsSync(init.body.swarm) && fs.existsSync(sb.hive));

    const lesson = "Run the database migrations before seeding the integration test database in CI";
    const added = await sb.json(p, "add", lesson, "--category", "testing", "--tags", "ci,db");
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.body.action, "added");
    assert.equal(added.body.status, "candidate");
    assert.equal(typeof added.body.id, "string");

    const again = await sb.json(p, "add", "Run database migrations before seeding the integration test databases in CI");
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.body.action, "reinforced");
    assert.equal(again.body.id, added.body.id);
    assert.equal(typeof again.body.reason, "string");

    const human = await sb.run(p, "add", "Pin the Node version in CI to the one production runs, or native modules break");
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^added S-\d+ \(candidate\)\n$/);

    const secret = fakeGithubToken();
    const rejected = await sb.json(p, "add", `Authenticate the release job against the GitHub API with ${secret} from now on`);
    assert.equal(rejected.code, 2);
    assert.equal(rejected.body.action, "rejected");
    assert.equal(rejected.body.id, null);
    assert.match(rejected.body.reason, /GitHub token/);
    const humanRejected = await sb.run(p, "add", `Use ${secret} as the token for the GitHub release job`);
    assert.equal(humanRejected.code, 2);
    assert.match(humanRejected.stderr, /^rejected: /);
    const listed = await sb.run(p, "rejected", "--json");
    assert.equal(JSON.parse(listed.stdout).length, 2);
    for (const out of [rejected.stdout, rejected.stderr, humanRejected.stdout, humanRejected.stderr, listed.stdout]) {
      assert.ok(!out.includes(secret), "secret echoed in output");
    }
    assert.ok(!bytesUnder(path.join(p, ".swarm")).includes(secret), "secret in the swarm database files");
    assert.ok(!bytesUnder(path.dirname(sb.hive)).includes(secret), "secret in the hive database files");

    const bad = await sb.json(p, "add", "Prefer the fast path when the cache is warm", "--confidence", "7");
    assert.equal(bad.code, 2);
    assert.equal(bad.body.action, "rejected");
    assert.match(bad.body.reason, /confidence/);
  });

  test("add: a password given to a field in a pasted .env line is refused with exit 2, not echoed and not on disk", async () => {
    const sb = fresh();
    const p = sb.project("add-env-password");
    assert.equal((await sb.json(p, "init")).code, 0);
    // Letters only (no digit): the value the config-field rule reads as a password where the older assignment rule saw a word.
    const letters = "abcdefghijkmnrstuvwyz";
    const password = [...randomBytes(14)].map((b) => letters[b % letters.length]).join("");
    const rejected = await sb.json(p, "add", `The web bundle leaked REACT_APP_AUTH_PASSWORD=${password} because CRA inlines every REACT_APP_ variable at build time`);
    assert.equal(rejected.code, 2, rejected.stdout);
    assert.equal(rejected.body.action, "rejected");
    assert.match(rejected.body.reason, /credential/);
    for (const out of [rejected.stdout, rejected.stderr, (await sb.run(p, "rejected", "--json")).stdout]) assert.ok(!out.includes(password), "password echoed in output");
    assert.ok(!bytesUnder(path.join(p, ".swarm")).includes(password), "password in the swarm database files");
    assert.ok(!bytesUnder(path.dirname(sb.hive)).includes(password), "password in the hive database files");
  });

  test("add --category takes opencode-swarm's names (pattern, lesson, domain, decision), stored as the import stores them, and says as what", async () => {
    const sb = fresh();
    const added = sb.project("legacy-add");
    const imported = sb.project("legacy-import");
    const lessons: Record<string, string> = {
      pattern: "Wrap every Prisma transaction in src/db/tx.ts with withRetry(); serialization failures under load are retried three times.",
      lesson: "The vitest config in vitest.config.ts must set pool to forks; worker threads crash the native libsql driver in CI.",
      domain: "Invoices in the billing service are immutable once issued; a correction is a credit note linked by invoice_id.",
      decision: "We decided to keep sessions in Redis rather than signed cookies so that revocation in src/auth/session.ts is immediate.",
    };
    const file = path.join(sb.root, "knowledge.jsonl");
    fs.writeFileSync(file, Object.entries(lessons).map(([category, lesson]) => JSON.stringify({ id: `k-${category}`, lesson, category })).join("\n") + "\n");
    const imp = await sb.json(imported, "import", file, "--format", "opencode-swarm");
    assert.equal(imp.code, 0, imp.stderr);
    assert.equal(imp.body.imported, 4, JSON.stringify(imp.body));
    const importedAs = new Map(((await sb.json(imported, "list", "--tier", "swarm")).body as Array<{ lesson: string; category: string; kind: string; tags: string[] }>).map((e) => [e.lesson, e]));

    for (const [legacy, lesson] of Object.entries(lessons)) {
      const r = await sb.json(added, "add", lesson, "--category", legacy);
      assert.equal(r.code, 0, `--category ${legacy}: ${r.stdout}${r.stderr}`);
      assert.equal(r.body.action, "added");
      const shown = (await sb.json(added, "show", r.body.handle)).body.entry as { category: string; kind: string; tags: string[] };
      const twin = importedAs.get(lesson)!;
      assert.deepEqual([shown.category, shown.kind, shown.tags], [twin.category, twin.kind, twin.tags], `--category ${legacy} is stored as the import stores it`);
      const note = (r.body.issues as Array<{ severity: string; message: string }>).find((i) => i.message.includes(`"${legacy}"`));
      assert.ok(note, `the answer says what became of "${legacy}": ${JSON.stringify(r.body.issues)}`);
      assert.equal(note.severity, "warn");
      assert.match(note.message, new RegExp(`stored as category ${shown.category}\\b`));
    }
    const human = await sb.run(added, "add", "Tag every Docker image built in CI with the git SHA as well as latest, so rollbacks can name a build.", "--category", "pattern");
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stderr, /warning: category "pattern" .*stored as category \w+/);
    // A name neither system uses is still refused, and the refusal lists what is accepted.
    const bogus = await sb.run(added, "add", "Run the linter before every commit of src/api so review stays on design.", "--category", "frobnicate");
    assert.equal(bogus.code, 2);
    assert.match(bogus.stderr, /frobnicate/);
    assert.match(bogus.stderr, /security/);
    const help = await sb.raw(["add", "--help"]);
    assert.match(help.stdout.replace(/\s+/g, " "), /opencode-swarm's .*pattern.*lesson.*domain.*decision/);
  });

  test("init --project with a folder that does not exist refuses, says so, and creates nothing", async () => {
    const sb = fresh();
    const typo = path.join(sb.root, "code", "apii");
    const human = await sb.run(typo, "init");
    assert.equal(human.code, 2, human.stdout + human.stderr);
    assert.match(human.stderr, /^error: Project directory .* does not exist/);
    assert.ok(human.stderr.includes(typo), human.stderr);
    assert.match(human.stderr, /mkdir/, "it says how to make it a project");
    const json = await sb.json(typo, "init");
    assert.equal(json.code, 2);
    assert.equal(json.body.error.code, "INVALID_INPUT");
    assert.match(json.body.error.message, /does not exist/);
    assert.equal(fs.existsSync(path.join(sb.root, "code")), false, "no folder was created");
    const real = await sb.json(sb.project("api"), "init");
    assert.equal(real.code, 0, real.stderr);
  });

  test("recall: JSON contract, the relevant lesson first, --explain breakdowns", async () => {
    const sb = fresh();
    const p = sb.project("recall");
    const lessons = [
      ["The auth middleware reads req.user before the null check; check for a missing session first", "security"],
      ["Vite dev server caches optimized deps; delete node_modules/.vite after upgrading React", "tooling"],
      ["Flaky integration tests came from a shared Postgres schema; give each worker its own schema", "testing"],
    ] as const;
    for (const [lesson, category] of lessons) {
      const r = await sb.json(p, "add", lesson, "--category", category);
      assert.equal(r.body.action, "added", r.stdout);
    }
    const r = await sb.json(p, "recall", "auth middleware null session check", "--limit", "5");
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Array.isArray(r.body) && r.body.length >= 1);
    const top = r.body[0];
    assert.equal(top.lesson, lessons[0][0]);
    assert.deepEqual(Object.keys(top).filter((k) => ["id", "tier", "lesson", "score", "status", "category"].includes(k)).sort(), ["category", "id", "lesson", "score", "status", "tier"]);
    assert.equal(top.tier, "swarm");
    assert.equal(top.category, "security");
    assert.equal(top.breakdown, undefined);
    // The order is best first after diversity: `rank` says the position, `score` may rise after an MMR swap.
    r.body.forEach((h: { rank: number }, i: number) => assert.equal(h.rank, i + 1));

    const ex = await sb.json(p, "recall", "flaky postgres integration tests", "--explain");
    assert.equal(ex.body[0].lesson, lessons[2][0]);
    assert.equal(typeof ex.body[0].breakdown.relevance, "number");
    const human = await sb.run(p, "recall", "flaky postgres integration tests", "--explain");
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^ID\s+TIER\s+SCORE\s+LESSON/);
    assert.match(human.stdout, /\n\s+relevance \d\.\d{3}/);
  });

  test("regression 10.15: read commands in a folder with no database create nothing; the first write does", async () => {
    const sb = fresh();
    const p = sb.project("empty");
    const swarmDir = path.join(p, ".swarm");
    // The hive answers even when the project has no database.
    const hiveProject = sb.project("hive-writer");
    const h = await sb.json(hiveProject, "add", "Pin the Terraform AWS provider to a minor version; unpinned upgrades renamed resources", "--category", "tooling", "--tier", "hive");
    assert.equal(h.body.action, "added", h.stdout);
    for (const args of [["recall", "x"], ["list"], ["stats"], ["show", "S-1"], ["rejected"], ["doctor"], ["check", "--files", "src/a.ts"]] as const) {
      const r = await sb.run(p, ...args, "--json");
      assert.ok(r.code === 0 || (args[0] === "show" && r.code === 3), `${args.join(" ")}: exit ${r.code}\n${r.stderr}`);
      assert.equal(fs.existsSync(swarmDir), false, `${args.join(" ")} created ${swarmDir}`);
    }
    const recalled = await sb.json(p, "recall", "terraform aws provider upgrade");
    assert.deepEqual(recalled.body.map((x: { tier: string }) => x.tier), ["hive"], "the hive still answers");
    const stats = await sb.json(p, "stats");
    assert.equal(stats.body.tiers.find((t: { tier: string }) => t.tier === "swarm").total, 0);
    assert.equal(fs.existsSync(swarmDir), false);

    const added = await sb.json(p, "add", "Run prisma generate after editing schema.prisma or the client is stale", "--category", "tooling");
    assert.equal(added.body.action, "added", added.stdout);
    assert.ok(fs.existsSync(path.join(swarmDir, "cairn.db")), "a write creates the project database");
    const listed = await sb.json(p, "list", "--tier", "swarm");
    assert.deepEqual(listed.body.map((e: { id: string }) => e.id), [added.body.id]);
  });

  test("import the swarm-tools memories, export, and restore into a fresh project", { skip: WITHOUT_MEMORIES }, async () => {
    const sb = fresh();
    const a = sb.project("source");
    const imp = await sb.json(a, "import", MEMORIES, "--trusted");
    assert.equal(imp.code, 0, imp.stderr);
    assert.equal(imp.body.imported + imp.body.reinforced, 729, `rejections: ${JSON.stringify(imp.body.rejections)}`);
    assert.ok(imp.body.imported > 500, "most rows are distinct");
    assert.equal(imp.body.skipped_lines.length, 1);
    assert.equal(imp.body.skipped_lines[0].line, 730);
    assert.equal(typeof imp.body.skipped_lines[0].error, "string");

    const file = path.join(sb.root, "export.jsonl");
    const exp = await sb.json(a, "export", file, "--tier", "swarm");
    assert.equal(exp.code, 0, exp.stderr);
    assert.equal(exp.body.written, imp.body.imported);
    assert.equal(exp.body.file, file);

    const b = sb.project("restored");
    const back = await sb.json(b, "import", file);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(back.body.imported, imp.body.imported);
    assert.deepEqual(back.body.skipped_lines, []);
    const lessonsOf = async (p: string) => {
      const l = await sb.json(p, "list", "--tier", "swarm", "--limit", "5000");
      return (l.body as Array<{ lesson: string }>).map((e) => e.lesson).sort();
    };
    const [la, lb] = await Promise.all([lessonsOf(a), lessonsOf(b)]);
    assert.equal(la.length, imp.body.imported);
    assert.deepEqual(lb, la);
  });

  test("import in human mode lists skipped lines on stderr; an unreadable file exits 1", async () => {
    const sb = fresh();
    const p = sb.project("import-human");
    const file = path.join(sb.root, "knowledge.jsonl");
    const row = (lesson: string) => JSON.stringify({ id: `k${lesson.length}`, lesson, category: "tooling", confidence: 0.6 });
    fs.writeFileSync(file, [row("Use npm ci in CI so the lockfile is honoured exactly"), "{not json", row("Cache ~/.npm between CI runs keyed on the lockfile hash")].join("\n") + "\n");
    const r = await sb.run(p, "import", file, "--format", "opencode-swarm");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /imported 2\b/);
    assert.match(r.stderr, /^line 2: .+/m);
    const missing = await sb.json(p, "import", path.join(sb.root, "nope.jsonl"));
    assert.equal(missing.code, 1);
    assert.equal(missing.body.error.code, "IMPORT_ERROR");
    assert.match(missing.body.error.message, /nope\.jsonl/);
  });

  test("quarantine, restore, archive, remove, and --force for promoted entries", async () => {
    const sb = fresh();
    const p = sb.project("lifecycle");
    const add = await sb.json(p, "add", "Close SQLite connections in a finally block or the WAL file never checkpoints");
    const id = add.body.id as string;
    const recallIds = async () => (await sb.json(p, "recall", "sqlite WAL checkpoint finally")).body.map((h: { id: string }) => h.id);
    assert.deepEqual(await recallIds(), [id]);

    const q = await sb.json(p, "quarantine", id, "suspicious advice");
    assert.equal(q.code, 0, q.stderr);
    assert.equal(q.body.lifecycle.status, "quarantined");
    assert.deepEqual(await recallIds(), [], "a quarantined entry is never recalled");
    const quarantinedList = await sb.json(p, "list", "--status", "quarantined");
    assert.deepEqual(quarantinedList.body.map((e: { id: string }) => e.id), [id]);

    const rs = await sb.json(p, "restore", id);
    assert.equal(rs.body.lifecycle.status, "candidate");
    const again = await sb.json(p, "restore", id);
    assert.equal(again.code, 4, "restoring a live entry conflicts");
    const ar = await sb.run(p, "archive", add.body.handle, "superseded by the pool rewrite");
    assert.equal(ar.code, 0);
    assert.match(ar.stdout, /^archived S-\d+ \(archived\)/);

    const shown = await sb.json(p, "show", id);
    assert.deepEqual(shown.body.events.map((e: { type: string }) => e.type), ["created", "quarantined", "restored", "archived"]);
    const rm = await sb.json(p, "remove", id);
    assert.equal(rm.code, 0);
    assert.equal(rm.body.removed, true);
    const gone = await sb.json(p, "show", id);
    assert.equal(gone.code, 3);
    assert.equal(gone.body.error.code, "NOT_FOUND");

    const keep = await sb.json(p, "add", "Set busy_timeout on every SQLite connection before the first write");
    const promoted = await sb.json(p, "promote", "--from-swarm", keep.body.handle);
    assert.equal(promoted.code, 0, promoted.stdout + promoted.stderr);
    assert.equal(promoted.body.tier, "hive");
    const refused = await sb.run(p, "remove", keep.body.handle);
    assert.equal(refused.code, 4);
    assert.match(refused.stderr, /--force/);
    const forced = await sb.run(p, "remove", keep.body.handle, "--force");
    assert.equal(forced.code, 0, forced.stderr);
  });

  test("invalid ids, actors and config values are refused with clear messages", async () => {
    const sb = fresh();
    const p = sb.project("invalid");
    const traversal = await sb.run(p, "show", "../etc/passwd");
    assert.equal(traversal.code, 2);
    assert.match(traversal.stderr, /^error: Invalid entry id/);
    assert.ok(!traversal.stderr.includes("    at "), "no stack trace");
    const traversalJson = await sb.json(p, "show", "../etc/passwd");
    assert.equal(traversalJson.code, 2);
    assert.equal(traversalJson.body.error.code, "INVALID_ID");

    const actor = await sb.run(p, "--actor", "root", "list");
    assert.equal(actor.code, 2);
    assert.match(actor.stderr, /--actor/);

    fs.mkdirSync(path.join(p, ".swarm"), { recursive: true });
    fs.writeFileSync(path.join(p, ".swarm", "cairn.json"), JSON.stringify({ knowledge: { max_inject_count: "lots" } }));
    const cfg = await sb.run(p, "list");
    assert.equal(cfg.code, 2);
    assert.match(cfg.stderr, /knowledge\.max_inject_count/);
    const cfgJson = await sb.json(p, "config");
    assert.equal(cfgJson.body.error.code, "INVALID_CONFIG");
    assert.match(cfgJson.body.error.message, /knowledge\.max_inject_count/);
  });

  test("doctor and config report a healthy setup", async () => {
    const sb = fresh();
    const p = sb.project("doctor");
    const d = await sb.json(p, "doctor");
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.body.ok, true);
    assert.deepEqual(d.body.tiers.map((t: { tier: string; integrity: string }) => [t.tier, t.integrity]), [["swarm", "ok"], ["hive", "ok"]]);
    assert.equal(d.body.paths.hive, sb.hive);
    assert.equal(d.body.runtime.node, process.versions.node);
    const userCfg = path.join(sb.root, "user.json");
    fs.writeFileSync(userCfg, JSON.stringify({ knowledge: { max_inject_count: 7 } }));
    const c = await sb.json(p, "--config", userCfg, "config");
    assert.equal(c.body.config.knowledge.max_inject_count, 7);
    assert.ok(c.body.sources.includes(userCfg));
    const ref = await sb.run(p, "config");
    assert.match(ref.stdout, /\| `knowledge\.max_inject_count` \| `5` \|/);
  });

  test("two projects sharing one hive never see each other's swarm entries", async () => {
    const sb = fresh();
    const a = sb.project("alpha");
    const b = sb.project("beta");
    const mine = await sb.json(a, "add", "alpha's billing.ts rounds currency with roundBankers(); the invoice export must call it too");
    assert.equal(mine.body.action, "added");
    const shared = await sb.json(a, "add", "Currency in reports must be rounded by the same function the billing API uses, never Math.round", "--tier", "hive");
    assert.equal(shared.body.action, "added", shared.stdout);

    const fromB = await sb.json(b, "recall", "billing currency rounding reports");
    assert.deepEqual(fromB.body.map((h: { id: string; tier: string }) => [h.id, h.tier]), [[shared.body.id, "hive"]]);
    const listB = await sb.json(b, "list");
    assert.deepEqual(listB.body.map((e: { id: string }) => e.id), [shared.body.id]);
    const fromA = await sb.json(a, "recall", "billing currency rounding reports");
    assert.equal(fromA.body.length, 2);
  });
});
