// /swarm: registration through the config hook without clobbering, and every subcommand's answer in command.execute.before.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "@opencode-ai/plugin";
import { loadPlugin, readLog, SANDBOX, textOf, userMessage, writePlan, PLAN } from "./helpers.js";

const p = await loadPlugin();
after(() => p.close());
const config: Config = {
  command: { mine: { template: "do my thing" } },
  agent: { architect: { mode: "primary", model: "mock/m", description: "plans and delegates" }, reviewer: { mode: "subagent", tools: { write: false, edit: false } } },
};
await p.hook("config")(config);
const cmd = p.hook("command.execute.before");

async function swarm(args: string): Promise<{ parts: Array<{ type: string; text?: string; synthetic?: boolean }> }> {
  const original = [{ type: "text", text: "template" }] as never[];
  const out = { parts: original };
  await cmd({ command: "swarm", sessionID: "ses_1", arguments: args }, out);
  // OpenCode sends its own array on, not whatever `output.parts` points to afterwards.
  assert.equal(out.parts, original, "the parts array is changed in place");
  return out as never;
}
const answer = async (args: string) => (await swarm(args)).parts[0]!.text!;
/** Another plugin instance's answer to `/swarm <args>`. */
async function answerOf(plugin: typeof p, args: string): Promise<string> {
  const out = { parts: [{ type: "text", text: "template" }] as never[] };
  await plugin.hook("command.execute.before")({ command: "swarm", sessionID: "s", arguments: args }, out);
  return (out.parts[0] as unknown as { text: string }).text;
}

test("the config hook adds /swarm and keeps the user's commands", () => {
  assert.equal(config.command?.mine?.template, "do my thing");
  assert.ok(config.command?.swarm?.template);
  assert.match(config.command?.swarm?.description ?? "", /Cairn/);
});

test("a /swarm the user already defined is left alone, reported once, and not intercepted", async () => {
  const other = await loadPlugin(undefined, p.dir + "-own");
  try {
    const cfg: Config = { command: { swarm: { template: "user's own swarm" } } };
    await other.hook("config")(cfg);
    await other.hook("config")(cfg);
    assert.equal(cfg.command?.swarm?.template, "user's own swarm");
    assert.equal(readLog(other.dir).match(/already defined/g)?.length, 1);
    const out = { parts: [{ type: "text", text: "user's own swarm" }] as never[] };
    await other.hook("command.execute.before")({ command: "swarm", sessionID: "s", arguments: "status" }, out);
    assert.equal((out.parts[0] as unknown as { text: string }).text, "user's own swarm");
  } finally {
    await other.close();
  }
});

test("the answer is the visible part; a synthetic note tells the model not to act", async () => {
  const out = await swarm("help");
  assert.equal(out.parts.length, 2);
  assert.match(out.parts[0]!.text!, /^\/swarm help\n\nCairn — \/swarm commands:/);
  assert.equal(out.parts[0]!.synthetic, undefined);
  assert.equal(out.parts[1]!.synthetic, true);
  assert.match(out.parts[1]!.text!, /Do not call tools/);
});

test("the command's own turn gets no lessons block", async () => {
  const out = await swarm("status");
  const m = userMessage("msg_cmd", "build", "");
  m.parts.splice(0, m.parts.length, ...(out.parts as never[]));
  await p.hook("experimental.chat.messages.transform")({}, { messages: [m] });
  assert.equal(m.parts.length, 2);
  assert.doesNotMatch(textOf(m), /cairn:knowledge/);
});

test("other commands pass through untouched", async () => {
  const out = { parts: [{ type: "text", text: "do my thing" }] as never[] };
  await cmd({ command: "mine", sessionID: "s", arguments: "x" }, out);
  assert.deepEqual(out.parts, [{ type: "text", text: "do my thing" }]);
});

test("knowledge add (quoted), list, search, quarantine, restore, stats", async () => {
  assert.match(await answer("knowledge"), /No lessons recorded yet/);
  const added = await answer('knowledge add "Always run prisma generate after editing prisma/schema.prisma; stale clients fail at runtime."');
  assert.match(added, /^\/swarm knowledge add .*\n\nRecorded S-1 \(candidate\)\./s);
  const cairn = await p.cairn();
  assert.equal((await cairn.get("S-1")).provenance.created_by, "human:opencode");
  assert.match(await answer("knowledge add 'be careful'"), /Not recorded — rejected:/);
  assert.match(await answer("knowledge list"), /\[S-1\] \(swarm\/candidate\/.*prisma generate/);
  assert.match(await answer("knowledge search prisma schema"), /1 match\(es\):\n- \[S-1\]/);
  assert.match(await answer("knowledge search"), /Usage/);
  assert.match(await answer('knowledge quarantine S-1 "wrong for v5"'), /Quarantined S-1/);
  assert.equal((await cairn.get("S-1")).lifecycle.status_reason, "wrong for v5");
  assert.match(await answer("knowledge restore S-1"), /Restored S-1 \(candidate\)/);
  assert.match(await answer("knowledge stats"), /- swarm: 1 entries/);
  const missing = await answer("knowledge quarantine S-404");
  assert.match(missing, /Failed: No entry/);
  assert.match(missing, /`\/swarm knowledge` lists/, "the command that lists ids, not the CLI");
  assert.doesNotMatch(missing, /cairn list/);
  assert.match(await answer("knowledge frobnicate"), /Unknown knowledge command "frobnicate"/);
});

test("renamed with the command option, every usage and hint names that command, never /swarm (which is another plugin's)", async () => {
  const renamed = await loadPlugin({ command: "kb" }, p.dir + "-renamed");
  try {
    const cfg: Config = { command: { swarm: { template: "opencode-swarm's own /swarm" } } };
    await renamed.hook("config")(cfg);
    const kb = async (args: string): Promise<string> => {
      const out = { parts: [{ type: "text", text: "template" }] as never[] };
      await renamed.hook("command.execute.before")({ command: "kb", sessionID: "s", arguments: args }, out);
      return (out.parts[0] as unknown as { text: string }).text;
    };
    const answers = await Promise.all(["knowledge", "knowledge add", "knowledge search", "knowledge quarantine", "knowledge restore", "knowledge frobnicate", "promote", "help"].map(kb));
    for (const a of answers) {
      assert.doesNotMatch(a, /\/swarm/, a);
      assert.match(a, /\/kb /, a);
    }
  } finally {
    await renamed.close();
  }
});

test("knowledge migrate imports context.md and the old JSONL once", async () => {
  const swarmDir = path.join(p.dir, ".swarm");
  fs.mkdirSync(swarmDir, { recursive: true });
  fs.writeFileSync(path.join(swarmDir, "context.md"), "## Decisions\n- Use pnpm workspaces for the monorepo; npm hoisting broke the shared eslint config.\n");
  fs.writeFileSync(
    path.join(swarmDir, "knowledge.jsonl"),
    JSON.stringify({ id: "lesson-1", tier: "swarm", lesson: "Set statement_timeout on the reporting pool in src/db/pool.ts; runaway queries blocked deploys.", category: "performance", status: "active", confirmed_by: [] }) + "\nnot json\n",
  );
  const first = await answer("knowledge migrate");
  assert.match(first, /\.swarm\/context\.md: 1 imported/);
  assert.match(first, /\.swarm\/knowledge\.jsonl: 1 imported, 0 merged into existing, 0 rejected, 1 unreadable line\(s\): line 2/);
  const again = await answer("knowledge migrate");
  assert.match(again, /context\.md: already migrated/);
  const cairn = await p.cairn();
  assert.ok((await cairn.recall("pnpm workspaces eslint")).length >= 1);
  // Seed 001's commands name entries by opencode-swarm's ids (`quarantine lesson-abc123 "false positive"`): a migrated one still answers to it.
  assert.match(await answer('knowledge quarantine lesson-1 "false positive"'), /^Quarantined S-\d+/m);
  assert.deepEqual([(await cairn.get("lesson-1")).lifecycle.status, (await cairn.get("lesson-1")).lifecycle.status_reason], ["quarantined", "false positive"]);
  assert.match(await answer("knowledge restore lesson-1"), /^Restored S-\d+ \(candidate\)/m);
});

test("knowledge migrate leaves context.md alone once opencode-swarm has migrated it (its .knowledge-migrated marker)", async () => {
  const other = await loadPlugin(undefined, p.dir + "-migrated");
  try {
    const swarmDir = path.join(other.dir, ".swarm");
    fs.mkdirSync(swarmDir, { recursive: true });
    const lesson = "Use pnpm workspaces for the monorepo; npm hoisting broke the shared eslint config.";
    fs.writeFileSync(path.join(swarmDir, "context.md"), `## Decisions\n- ${lesson}\n`);
    // opencode-swarm's own migration already copied context.md into knowledge.jsonl, and left its marker.
    fs.writeFileSync(path.join(swarmDir, "knowledge.jsonl"), JSON.stringify({ id: "lesson-1", tier: "swarm", lesson, category: "process", status: "active", confirmed_by: [] }) + "\n");
    fs.writeFileSync(path.join(swarmDir, ".knowledge-migrated"), "");
    await other.hook("config")({});
    const cmdOther = other.hook("command.execute.before");
    const out = { parts: [{ type: "text", text: "template" }] as never[] };
    await cmdOther({ command: "swarm", sessionID: "ses_2", arguments: "knowledge migrate" }, out);
    const text = (out.parts[0] as unknown as { text: string }).text;
    assert.match(text, /context\.md: skipped, opencode-swarm already migrated it into knowledge\.jsonl/);
    assert.match(text, /knowledge\.jsonl: 1 imported, 0 merged/);
    const cairn = await other.cairn();
    const [e] = await cairn.list({ tier: "swarm" });
    assert.equal(e!.lifecycle.confirmations.length, 0, "not confirmed a second time by its own copy");
  } finally {
    await other.close();
  }
});

test("promote: text into the hive, and --from-swarm by id", async () => {
  assert.match(await answer('promote "Pin the Node major in .nvmrc and the CI matrix together; mismatches broke native builds."'), /Promoted to the hive as H-\d+/);
  assert.match(await answer("promote --from-swarm S-1"), /Promoted to the hive as H-\d+ \(from S-1\)|Already in the hive/);
  assert.match(await answer("promote --from-swarm"), /Usage/);
  assert.match(await answer("promote"), /Usage/);
});

test("promote <handle>: an id given as the text promotes that entry, as `cairn promote S-1` does, and is not stored as a rejected lesson", async () => {
  const other = await loadPlugin(undefined, p.dir + "-promote-ref");
  try {
    await other.hook("config")({});
    const run = (args: string) => answerOf(other, args);
    assert.match(await run('knowledge add "Use the --frozen-lockfile flag with pnpm install in CI to catch lockfile drift early."'), /Recorded S-1/);
    assert.match(await run("promote S-1"), /Promoted to the hive as H-\d+ \(from S-1\)\.$/);
    const cairn = await other.cairn();
    assert.equal((await cairn.get("S-1")).lifecycle.status, "promoted");
    assert.equal((await cairn.rejected("hive")).length, 0, "the handle was not gated as a lesson");
  } finally {
    await other.close();
  }
});

test("knowledge add and promote take --category, --tags and --scope as the CLI does, instead of storing them as words of the lesson", async () => {
  const other = await loadPlugin(undefined, p.dir + "-add-flags");
  try {
    await other.hook("config")({});
    const run = (args: string) => answerOf(other, args);
    assert.match(await run('knowledge add "Validate the JWT audience in src/auth/verify.ts; tokens minted for other services were accepted." --category security --tags auth,jwt --scope stack:node'), /Recorded S-1/);
    const cairn = await other.cairn();
    const e = await cairn.get("S-1");
    assert.equal(e.lesson, "Validate the JWT audience in src/auth/verify.ts; tokens minted for other services were accepted.");
    assert.equal(e.category, "security");
    assert.deepEqual(e.tags, ["auth", "jwt"]);
    assert.equal(e.applicability.scope, "stack:node");
    // A flag-like word inside the lesson (a command's own option) stays part of it.
    assert.match(await run("knowledge add Use the --frozen-lockfile flag with pnpm install in CI to catch lockfile drift early."), /Recorded S-2/);
    assert.match((await cairn.get("S-2")).lesson, /--frozen-lockfile flag/);
    assert.match(await run('knowledge add "Pin the Terraform provider versions in required_providers." --category'), /Usage/);
    const promoted = await run('promote "Rotate the webhook signing secret with a grace period for the old one." --category security');
    assert.match(promoted, /Promoted to the hive as (H-\d+)/);
    const h = await cairn.get(/(H-\d+)/.exec(promoted)![1]!);
    assert.equal(h.category, "security");
    assert.doesNotMatch(h.lesson, /--category/);
  } finally {
    await other.close();
  }
});

test("status, plan [N], agents, curate", async () => {
  assert.match(await answer("status"), /No active swarm plan found/);
  writePlan(p.dir, `${PLAN}\n### Lessons Learned\n- Log the request id in src/auth/middleware.ts errors; support could not correlate failed logins.\n`);
  const status = await answer("status");
  assert.match(status, /Phases: 1\/2 complete; tasks: 3\/5 done/);
  assert.match(status, /Current: Phase 2: Session middleware \[IN PROGRESS\]/);
  assert.match(status, /Agents configured: 2/);
  assert.match(await answer("plan"), /# Auth rewrite[\s\S]*Phase 2/);
  const phase1 = await answer("plan 1");
  assert.match(phase1, /## Phase 1: Token parsing/);
  assert.doesNotMatch(phase1, /Phase 2/);
  assert.match(await answer("plan 9"), /Phase 9 not found/);
  const agents = await answer("agents");
  assert.match(agents, /- architect \(primary, mock\/m, gets lessons block\): plans and delegates/);
  assert.match(agents, /- reviewer \(subagent, read-only, gets directives\)/);
  assert.match(await answer("curate"), /1 added/);
  assert.match(await answer("curate"), /0 added/);
  assert.match(await answer("nonsense"), /Unknown subcommand "nonsense"/);
  assert.match(await answer(""), /Cairn — \/swarm commands/);
});

test("regression 11.13: plan keeps its Markdown lines, agents show temperature, status says Plan: once", async () => {
  const dir = p.dir;
  writePlan(dir, `# Plan: Billing\nPhase: 1\n\n## Phase 1: Invoices [IN PROGRESS]\n- [x] 1.1: Model\n- [ ] 1.2: PDF export\n  - acceptance: opens in Acrobat\n\n\`\`\`sh\nnpm run pdf\n\`\`\`\n`);
  const plan = await answer("plan");
  assert.match(plan, /^# Plan: Billing$/m, plan);
  assert.match(plan, /^## Phase 1: Invoices \[IN PROGRESS\]$/m);
  assert.match(plan, /^- \[ \] 1\.2: PDF export\n {2}- acceptance: opens in Acrobat$/m, "nested lists keep their indentation");
  assert.match(plan, /^```sh\nnpm run pdf\n```$/m, "code fences survive");
  assert.match(await answer("plan 1"), /^- \[x\] 1\.1: Model$/m);
  const status = await answer("status");
  assert.match(status, /^Plan: Billing$/m, status);
  assert.doesNotMatch(status, /Plan: Plan:/);
  const cfg: Config = { agent: { architect: { mode: "primary", model: "mock/m", temperature: 0.2 }, coder: { mode: "subagent", temperature: 0 } } };
  await p.hook("config")(cfg);
  const agents = await answer("agents");
  assert.match(agents, /- architect \(primary, mock\/m, temperature 0\.2, gets lessons block\)/, agents);
  assert.match(agents, /- coder \(subagent, temperature 0, gets directives\)/);
  await p.hook("config")(config);
});

test("/swarm on odd input: an empty plan, a long plan, an agent config with line breaks, a knowledge base that cannot open", async () => {
  const q = await loadPlugin({ orchestrators: ["architect"] }, p.dir + "-odd");
  try {
    await q.hook("config")({ agent: { architect: { mode: "primary", model: "anthropic/claude\n## injected", description: "plans" } } });
    const ask = async (args: string) => {
      const out = { parts: [{ type: "text", text: "template" }] as never[] };
      await q.hook("command.execute.before")({ command: "swarm", sessionID: "ses_odd", arguments: args }, out);
      return (out.parts[0] as unknown as { text: string }).text;
    };
    writePlan(q.dir, "   \n");
    assert.match(await ask("plan"), /No active swarm plan found/, "an empty plan.md is no plan");
    // Forty finished phases of ten tasks, then the one in progress: ~300 KB.
    const done = Array.from({ length: 40 }, (_, i) => `## Phase ${i + 1}: Step ${i + 1} [COMPLETE]\n${Array.from({ length: 10 }, (_, t) => `- [x] ${i + 1}.${t + 1}: ${"finished work item with a long description ".repeat(16)}`).join("\n")}\n`).join("\n");
    writePlan(q.dir, `# Plan: Long haul\n\n${done}\n## Phase 41: The last one [IN PROGRESS]\n- [x] 41.1: started\n- [ ] 41.2: to do\n`);
    const status = await ask("status");
    assert.match(status, /Phases: 40\/41 complete; tasks: 401\/402 done/, status);
    assert.match(status, /Current: Phase 41: The last one/);
    assert.match(await ask("plan 41"), /41\.2: to do/);
    const agents = await ask("agents");
    assert.doesNotMatch(agents, /\n## injected/, "a model name cannot start a heading of its own");
  } finally {
    await q.close();
  }
  // The knowledge base cannot open: .swarm is a file (in a plugin that has not opened it yet: /swarm status does). Every command still answers, saying why.
  const closed = p.dir + "-odd-closed";
  fs.mkdirSync(closed, { recursive: true });
  fs.writeFileSync(path.join(closed, ".swarm"), "not a folder");
  const r = await loadPlugin({ orchestrators: ["architect"] }, closed);
  try {
    await r.hook("config")({});
    const out = { parts: [{ type: "text", text: "template" }] as never[] };
    await r.hook("command.execute.before")({ command: "swarm", sessionID: "ses_odd", arguments: "knowledge stats" }, out);
    assert.match((out.parts[0] as unknown as { text: string }).text, /^\/swarm knowledge stats\n\nFailed: /);
  } finally {
    await r.close();
  }
});

test("knowledge migrate also brings the hive's rejected lessons (shared-learnings-rejected.jsonl), quarantined in the hive", async () => {
  const legacy = path.join(SANDBOX, "data", "opencode-swarm");
  fs.mkdirSync(legacy, { recursive: true });
  const file = path.join(legacy, "shared-learnings-rejected.jsonl");
  fs.writeFileSync(file, JSON.stringify({ id: "hr-1", lesson: "Run the payments suite with vitest --pool=forks; worker threads leaked memory on the CI runners.", rejection_reason: "contradicts an existing entry", rejected_at: "2025-01-01T00:00:00Z", rejection_layer: 2 }) + "\n");
  const other = await loadPlugin(undefined, p.dir + "-hive-rejected");
  try {
    await other.hook("config")({});
    const out = { parts: [{ type: "text", text: "template" }] as never[] };
    await other.hook("command.execute.before")({ command: "swarm", sessionID: "s", arguments: "knowledge migrate" }, out);
    assert.match((out.parts[0] as unknown as { text: string }).text, /shared-learnings-rejected\.jsonl: 1 imported/);
    const cairn = await other.cairn();
    const [entry] = await cairn.list({ tier: "hive", statuses: ["quarantined"] });
    assert.match(entry?.lesson ?? "", /--pool=forks/);
  } finally {
    fs.rmSync(file);
    await other.close();
  }
});

test("status: a plan whose phases are marked [COMPLETE] but whose tasks lack ✅ (seed 002) counts those tasks done and says how many were unticked", async () => {
  // A copy of ../shared/seeds/002_82ad6cf997b3591c.txt, opencode-swarm's own plan.md for its v4.3.0 release.
  const seed = fs.readFileSync(new URL("../fixtures/seed-002-plan.md", import.meta.url), "utf8");
  const tasks = seed.match(/^### \d+\.\d+:/gm)!.length;
  const ticked = seed.match(/^### \d+\.\d+:.*✅\s*$/gm)!.length;
  const phases = seed.match(/^## Phase \d+:.*\[COMPLETE\]\s*$/gm)!.length;
  assert.ok(ticked < tasks, "the seed's plan has unticked tasks in complete phases");
  const other = await loadPlugin();
  try {
    await other.hook("config")({});
    writePlan(other.dir, seed);
    const status = await answerOf(other, "status");
    assert.match(status, new RegExp(`Phases: ${phases}/${phases} complete; tasks: ${tasks}/${tasks} done \\(${tasks - ticked} not ticked, in complete phases\\)`), status);
    // The plan itself is read as written: the task's own mark is what the curator's outcomes follow.
    const plan = await answerOf(other, "plan 2");
    assert.match(plan, /### 2\.1: Add context budget tracker \[MEDIUM\]\n/);
  } finally {
    await other.close();
  }
});

test("knowledge migrate: a lesson opencode-swarm had promoted and its copy in shared-learnings.jsonl are linked, so /swarm knowledge lists one lesson", async () => {
  const other = await loadPlugin();
  const legacyHive = path.join(process.env.XDG_DATA_HOME!, "opencode-swarm", "shared-learnings.jsonl");
  try {
    const lesson = "Pin the protobuf compiler version in tools/proto.lock; a newer protoc changed generated field names.";
    const project = { id: "l-mig", tier: "swarm", lesson, category: "tooling", tags: ["protobuf"], scope: "global", confidence: 0.9, status: "promoted", confirmed_by: [], project_name: "mig" };
    fs.mkdirSync(path.join(other.dir, ".swarm"), { recursive: true });
    fs.writeFileSync(path.join(other.dir, ".swarm", "knowledge.jsonl"), JSON.stringify(project) + "\n");
    fs.mkdirSync(path.dirname(legacyHive), { recursive: true });
    const copy = { ...project, id: "h-mig", tier: "hive", status: "established", confirmed_by: [{ project_name: "mig", confirmed_at: "2026-01-01T00:00:00Z" }], source_project: "mig" };
    fs.writeFileSync(legacyHive, JSON.stringify(copy) + "\n");
    await other.hook("config")({});
    assert.match(await answerOf(other, "knowledge migrate"), /shared-learnings\.jsonl: 1 imported/);
    const listed = await answerOf(other, "knowledge");
    const lines = listed.split("\n").filter((l) => l.includes("protobuf compiler"));
    assert.equal(lines.length, 1, listed);
    assert.match(lines[0]!, /H-\d+[^\n]*promoted from this project's S-\d+/, listed);
    // The link is the promotion record: promoting it again names the copy instead of writing or reinforcing it.
    assert.match(await answerOf(other, "promote --from-swarm l-mig"), /already in the hive as H-\d+/);
  } finally {
    fs.rmSync(legacyHive, { force: true });
    await other.close();
  }
});
