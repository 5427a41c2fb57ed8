// `cairn doctor` with a broken config file reports it as a finding (file, key, problem, fix) and still checks the databases.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "Run the database migrations inside one transaction so a failed step leaves the schema unchanged.";

test("doctor: an invalid value in the project config is a finding naming file, key and fix; the tiers are still checked; exit non-zero", async () => {
  const p = sb.project("bad-value");
  assert.equal((await sb.json(p, "add", LESSON)).body.action, "added");
  const file = path.join(p, ".swarm", "cairn.json");
  fs.writeFileSync(file, JSON.stringify({ knowledge: { max_inject_count: "lots" } }));

  const text = await sb.run(p, "doctor");
  assert.equal(text.code, 1, text.stdout + text.stderr);
  assert.doesNotMatch(text.stderr, /INVALID_CONFIG/);
  assert.match(text.stdout, /PROBLEM/);
  assert.ok(text.stdout.includes(file), text.stdout);
  assert.match(text.stdout, /knowledge\.max_inject_count/);
  assert.match(text.stdout, /swarm .*1 entry/, "the databases are still checked");

  const json = await sb.json(p, "doctor");
  assert.equal(json.code, 1, json.stderr);
  assert.equal(json.body.ok, false);
  const problem = json.body.config_problems?.[0];
  assert.ok(problem, JSON.stringify(json.body).slice(0, 600));
  assert.equal(problem.file, file);
  assert.equal(problem.key, "knowledge.max_inject_count");
  assert.ok(problem.problem.length > 0);
  assert.match(problem.fix, /knowledge\.max_inject_count/);
  assert.ok(json.body.tiers.some((t: { tier: string; entries: number }) => t.tier === "swarm" && t.entries === 1), JSON.stringify(json.body.tiers));
});

test("doctor: a config file that is not JSON, and an unknown key, are findings with a fix", async () => {
  const p = sb.project("bad-json");
  const file = path.join(p, ".swarm", "cairn.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "{ knowledge: ");
  const broken = await sb.json(p, "doctor");
  assert.equal(broken.code, 1, broken.stderr);
  assert.equal(broken.body.config_problems[0].file, file);
  assert.match(broken.body.config_problems[0].problem, /JSON/);

  fs.writeFileSync(file, JSON.stringify({ knowledge: { max_inject_cont: 3 } }));
  const typo = await sb.json(p, "doctor");
  assert.equal(typo.code, 1, typo.stderr);
  assert.match(typo.body.config_problems[0].problem + typo.body.config_problems[0].fix, /max_inject_count/);

  fs.writeFileSync(file, JSON.stringify({ knowledge: { max_inject_count: 3 } }));
  const fixed = await sb.json(p, "doctor");
  assert.equal(fixed.code, 0, fixed.stderr);
  assert.deepEqual(fixed.body.config_problems ?? [], []);
});

test("a server with a bad config refuses to start as every command does: `cairn mcp` (stdio, --http) and `cairn ui` exit 2 with the finding on stderr, nothing on stdout", async () => {
  const p = sb.project("bad-server-config");
  const file = path.join(sb.root, "typo.json");
  fs.writeFileSync(file, JSON.stringify({ knowledge: { max_inject_cont: 3 } }));
  const servers = [["mcp"], ["mcp", "--http", "--port", "0"], ["ui", "--port", "0"]];
  for (const args of servers) {
    // A server that does start is ended by the timeout (a signal, no exit code 2).
    const r = await sb.raw(["--project", p, "--config", file, ...args], { cwd: p, timeoutMs: 20_000 });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, "", args.join(" "));
    assert.match(r.stderr, /max_inject_cont \(did you mean max_inject_count\?\)/, args.join(" "));
    assert.doesNotMatch(r.stderr, /ready|listening/, args.join(" "));
  }
});

test("doctor: knowledge settings in opencode-swarm's own config files, which Cairn does not read, are named with Cairn's value and where to set them; still ok", async () => {
  const p = sb.project("swarm-config");
  const user = path.join(sb.env.XDG_CONFIG_HOME!, "opencode", "opencode-swarm.json");
  fs.mkdirSync(path.dirname(user), { recursive: true });
  fs.writeFileSync(user, JSON.stringify({ knowledge: { max_inject_count: 3, dedup_threshold: 0.6, sweep_enabled: true, swarm_max_entries: 100, rejected_max_entries: 20, hive_max_entries: 500 } }));
  const project = path.join(p, ".opencode", "opencode-swarm.json");
  fs.mkdirSync(path.dirname(project), { recursive: true });
  fs.writeFileSync(project, JSON.stringify({ context_budget: { warn_threshold: 0.5, model_limits: { "claude-sonnet-4-20250514": 200000 } } }));
  try {
    const text = await sb.run(p, "doctor");
    assert.equal(text.code, 0, text.stdout + text.stderr);
    assert.ok(text.stdout.includes(`${user}: knowledge.max_inject_count = 3 (Cairn: 5)`), text.stdout);
    assert.ok(text.stdout.includes(`${project}: context_budget.warn_threshold = 0.5 (Cairn: 0.7)`), text.stdout);
    assert.match(text.stdout, /context_budget\.model_limits\.claude-sonnet-4-20250514 = 200000 \(Cairn: model_limits has none\)/);
    // A cap chosen there is named; the JSONL-era default cap Cairn replaced on purpose (README) is no choice.
    assert.ok(text.stdout.includes(`${user}: knowledge.hive_max_entries = 500 (Cairn: 50000)`), text.stdout);
    // The same value as Cairn's needs no move; a key Cairn has no equivalent for is not Cairn's to name.
    assert.doesNotMatch(text.stdout, /dedup_threshold|sweep_enabled|swarm_max_entries|rejected_max_entries/);
    assert.match(text.stdout, /Cairn does not read opencode-swarm's config[^\n]*\.swarm\/cairn\.json/);
    const json = await sb.json(p, "doctor");
    assert.equal(json.body.ok, true);
    assert.deepEqual(
      json.body.opencode_swarm_settings.map((s: { file: string; key: string }) => `${s.file === user ? "user" : "project"} ${s.key}`),
      ["user knowledge.max_inject_count", "user knowledge.hive_max_entries", "project context_budget.warn_threshold", "project context_budget.model_limits.claude-sonnet-4-20250514"],
    );
  } finally {
    fs.rmSync(user);
  }
});
