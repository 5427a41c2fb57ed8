// End to end: the real opencode binary loads the built plugin and talks to a scripted model server; we assert on what the model saw.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openCairn } from "../../src/engine.js";
import { INJECTION_SENTINEL } from "../../src/retrieval/render.js";
import { isSideRequest, messageText, startModelServer, toolResults, type ChatRequest, type ModelServer, type Reply } from "../fixtures/model-server/server.js";
import { isolatedEnv, modelConfig, OPENCODE_BIN, REPO, runFailure, runOpencode, type OpencodeRun } from "./support/opencode.js";
const PLUGIN = path.join(REPO, "dist", "plugin.js");

const LESSON = "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login.";
const DIRECTIVE = "Before changing src/auth/session.ts run the auth integration tests; refresh token rotation broke twice unnoticed.";
const RETRO_1 = "Keep the session middleware ahead of the rate limiter in src/server.ts or anonymous requests bypass the limits.";
const RETRO_2 = "Mock the clock in src/auth/refresh.test.ts because real timers made the refresh rotation test flaky on CI.";
const DB_RULE = "Give every migration under src/db a down step; a one-way migration blocked the 2.3 rollback.";
const PAY_RULE = "Pass an idempotency key on every payment provider call in src/payments; retries double-charged customers.";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-oc-e2e-"));
const project = path.join(root, "project");
let server: ModelServer;
let env: NodeJS.ProcessEnv;

function planWithRetro(): string {
  return [
    "# Auth rewrite", "Phase: 2 | Updated: 2026-01-01", "",
    "## Phase 1: Token parsing [COMPLETE]", "- [x] 1.1: Parse JWT headers", "",
    "## Phase 2: Session middleware [IN PROGRESS]", "- [x] 2.1: Middleware skeleton", "- [ ] 2.2: Null check before claims", "",
    "### Lessons Learned", `- ${RETRO_1}`, `- ${RETRO_2}`, "",
  ].join("\n");
}

/** What the scripted model saw in the advisory scene: whether the migration existed when the advice came back. */
const advise: { fileExistedWhenTold?: boolean; retried: boolean } = { retried: false };
const DB_FILE = () => path.join(project, "src", "db", "0001_users.sql");

const lastRole = (req: ChatRequest) => req.messages[req.messages.length - 1]?.role;
const userText = (req: ChatRequest) => req.messages.filter((m) => m.role === "user").map(messageText).join("\n");

/** One script for every run: the marker in the user's words picks the scene; a tool result ends it. */
function respond(req: ChatRequest): Reply {
  if (isSideRequest(req)) return { text: "Test session" };
  const text = userText(req);
  const afterTool = lastRole(req) === "tool";
  if (text.includes("E2E-CHILD")) return { text: "child done" };
  if (text.includes("E2E-ADD")) {
    return afterTool
      ? { text: "Recorded both." }
      : {
          toolCalls: [
            { name: "knowledge_add", arguments: { lesson: LESSON, category: "security" } },
            { name: "knowledge_add", arguments: { lesson: DIRECTIVE, category: "testing", required_actions: ["run npm run test:auth before committing auth changes"], priority: "high" } },
          ],
        };
  }
  if (text.includes("E2E-PLAN")) {
    return afterTool ? { text: "Plan written." } : { toolCalls: [{ name: "write", arguments: { filePath: path.join(project, ".swarm", "plan.md"), content: planWithRetro() } }] };
  }
  if (text.includes("E2E-ADVISE")) {
    // A warning holds the write back once with the advice; the model reads it, then sends the identical call again.
    const held = afterTool ? toolResults(req).find((r) => r.name === "write" && /send the same call again/.test(r.text)) : undefined;
    if (held && !advise.retried) {
      advise.fileExistedWhenTold = fs.existsSync(DB_FILE());
      advise.retried = true;
      return { toolCalls: [{ name: "write", arguments: held.args }] };
    }
    return afterTool
      ? { text: "Advisories read." }
      : {
          toolCalls: [
            { name: "write", arguments: { filePath: DB_FILE(), content: "CREATE TABLE users (id integer);\n" } },
            { name: "write", arguments: { filePath: path.join(project, "src", "payments", "charge.ts"), content: "export const charge = () => provider.charge();\n" } },
            { name: "bash", arguments: { command: "echo actor=$CAIRN_ACTOR", description: "Show the actor" } },
          ],
        };
  }
  if (text.includes("E2E-DELEGATE")) {
    return afterTool
      ? { text: "Delegated." }
      : { toolCalls: [{ name: "task", arguments: { subagent_type: "coder", description: "Fix auth check", prompt: "E2E-CHILD change src/auth/session.ts refresh token rotation and the session token null check" } }] };
  }
  return { text: "ok" };
}

async function opencode(args: string[]): Promise<OpencodeRun> {
  return runOpencode(args, { cwd: project, env, server });
}

before(async () => {
  assert.ok(fs.existsSync(PLUGIN), `build first: ${PLUGIN} is missing (npm run build)`);
  assert.ok(fs.existsSync(OPENCODE_BIN), "the opencode-ai dev dependency provides node_modules/.bin/opencode");
  server = await startModelServer(respond);
  fs.mkdirSync(project, { recursive: true });
  const config = modelConfig(server, {
    agent: { coder: { mode: "subagent", description: "Writes code for the architect", model: "mock/m" } },
    plugin: [[pathToFileURL(PLUGIN).href, { orchestrators: ["build", "architect"], phase_summary_chars: 200 }]],
  });
  fs.writeFileSync(path.join(project, "opencode.json"), JSON.stringify(config, null, 2));
  env = isolatedEnv(root, project, { CAIRN_HIVE: path.join(root, "hive.db") });
});

after(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

// No total time limit that a busy machine could hit: each run has a watchdog on no progress (support/opencode.ts).
test("opencode + Cairn plugin against a scripted model", async (t) => {
  let firstRun: OpencodeRun | undefined;
  await t.test("the model's knowledge_add calls store lessons", async () => {
    const run = (firstRun = await opencode(["E2E-ADD: remember the auth lessons"]));
    assert.equal(run.code, 0, runFailure(run));
    const calls = run.events.filter((e) => e.type === "tool_use" && e.part?.tool === "knowledge_add");
    assert.equal(calls.length, 2, JSON.stringify(run.events).slice(0, 2000));
    for (const c of calls) assert.equal(c.part?.state?.status, "completed");
    assert.match(calls.map((c) => c.part?.state?.output).join("\n"), /added S-\d+ to the swarm tier/);
    const followUp = run.requests.at(-1)!;
    assert.ok(followUp.messages.some((m) => m.role === "tool" && messageText(m).includes("added S-")), "the model got the tool's answer");
    const tools = run.requests[0]!.tools!.map((x) => x.function.name);
    for (const name of ["knowledge_add", "knowledge_recall", "knowledge_query", "knowledge_remove", "knowledge_archive", "knowledge_quarantine", "knowledge_feedback", "knowledge_promote"]) {
      assert.ok(tools.includes(name), `${name} offered to the model`);
    }
    const recall = run.requests[0]!.tools!.find((x) => x.function.name === "knowledge_recall")!;
    assert.match(JSON.stringify(recall.function.parameters), /"query":\{[^}]*"description"/);
  });

  // Item 15 of issue 11: a start that takes minutes on a busy machine used to print nothing until the model
  // was called, so the watchdog could not tell a slow start from a hang. Its log lines are that progress now.
  await t.test("regression 11.15: opencode's start reports progress to the watchdog before the first model request", () => {
    assert.ok(firstRun, "the first scene ran");
    assert.ok(firstRun!.linesBeforeFirstRequest >= 5, `progress lines before the first model request: ${firstRun!.linesBeforeFirstRequest}`);
  });

  await t.test("on the next turn the lessons block reaches the model, plus the standing instruction", async () => {
    const run = await opencode(["E2E-RECALL: fix the session token null check in the auth middleware"]);
    assert.equal(run.code, 0, runFailure(run));
    const req = run.requests[0]!;
    const user = req.messages.filter((m) => m.role === "user").map(messageText).join("\n");
    assert.ok(user.includes(INJECTION_SENTINEL), user.slice(0, 1000));
    assert.ok(user.includes(LESSON), "the stored lesson is in the request");
    assert.equal(user.split(INJECTION_SENTINEL).length, 2, "exactly one block");
    const system = req.messages.filter((m) => m.role === "system").map(messageText).join("\n");
    assert.match(system, /\[cairn\] Knowledge tools/);
    const cairn = await openCairn({ projectDir: project, env });
    try {
      const shown = (await cairn.list({ limit: 10 })).find((e) => e.lesson === LESSON)!;
      assert.ok(shown.usage.shown >= 1, "the injected lesson counts as shown");
    } finally {
      await cairn.close();
    }
  });

  await t.test("writing .swarm/plan.md with a Lessons Learned section produces entries", async () => {
    const run = await opencode(["E2E-PLAN: write the retrospective into the plan"]);
    assert.equal(run.code, 0, runFailure(run));
    assert.ok(run.events.some((e) => e.type === "tool_use" && e.part?.tool === "write" && e.part.state?.status === "completed"), JSON.stringify(run.events).slice(0, 1500));
    const cairn = await openCairn({ projectDir: project, env });
    try {
      const entries = await cairn.list({ limit: 50 });
      for (const l of [RETRO_1, RETRO_2]) {
        const e = entries.find((x) => x.lesson === l);
        assert.ok(e, `curated: ${l}\n${entries.map((x) => x.lesson).join("\n")}`);
        assert.equal(e!.provenance.derived_from.kind, "retrospective");
      }
    } finally {
      await cairn.close();
    }
  });

  await t.test("/swarm knowledge answers with the lessons, no tool call needed", async () => {
    const run = await opencode(["--command", "swarm", "knowledge"]);
    assert.equal(run.code, 0, runFailure(run));
    const req = run.requests[0]!;
    const user = req.messages.filter((m) => m.role === "user").map(messageText).join("\n");
    assert.match(user, /Live lessons:/);
    assert.ok(!user.includes(INJECTION_SENTINEL), "the command turn carries no lessons block");
    assert.ok(user.includes(LESSON.slice(0, 60)));
    assert.ok(user.includes(RETRO_1.slice(0, 60)));
    assert.ok(run.events.some((e) => e.type === "text" && e.part?.text === "ok"));
    assert.ok(!run.events.some((e) => e.type === "tool_use"));
  });

  await t.test("a delegated agent gets only the directives that apply to it", async () => {
    const run = await opencode(["E2E-DELEGATE: have the coder fix the auth session"]);
    assert.equal(run.code, 0, runFailure(run));
    const child = run.requests.find((r) => userText(r).includes("E2E-CHILD"));
    assert.ok(child, "the coder's request reached the model");
    const text = userText(child!);
    assert.ok(text.includes(INJECTION_SENTINEL), text.slice(0, 800));
    assert.ok(text.includes(DIRECTIVE.slice(0, 60)), "the directive is there");
    assert.match(text, /DO: run npm run test:auth/);
    assert.ok(!text.includes(LESSON.slice(0, 60)), "plain lessons stay with the orchestrator");
  });

  await t.test("regression 11.11: a warn advisory reaches the model before the file changes; the identical retry writes it; an enforced one fails the call", async () => {
    const seed = await openCairn({ projectDir: project, env, actor: "human:test" });
    const ids: string[] = [];
    try {
      for (const [rule, glob, enforcement] of [[DB_RULE, "src/db/**", "warn"], [PAY_RULE, "src/payments/**", "enforce"]] as const) {
        const r = await seed.add({ lesson: `Lesson behind the rule: ${rule}`, prevention: { rule }, applicability: { file_globs: [glob] }, directive: { enforcement } });
        assert.equal(r.action, "added", r.reason);
        await seed.approve(r.id!);
        ids.push(r.id!);
      }
    } finally {
      await seed.close();
    }
    const run = await opencode(["E2E-ADVISE: add the users migration and the charge call"]);
    assert.equal(run.code, 0, runFailure(run));
    const results = toolResults(run.requests.at(-1)!);
    const byFile = (dir: string) => results.find((r) => r.name === "write" && String(r.args.filePath).includes(dir))?.text ?? "";
    const db = byFile("src/db");
    assert.match(db, /Cairn advisory/, JSON.stringify(results).slice(0, 2000));
    assert.ok(db.includes(DB_RULE), db);
    assert.match(db, /matched file src\/db\/0001_users\.sql/);
    assert.equal(advise.retried, true, "the model was told to repeat the call");
    assert.equal(advise.fileExistedWhenTold, false, "the advice arrived before the write ran");
    const writes = results.filter((r) => r.name === "write" && String(r.args.filePath).includes("src/db"));
    assert.equal(writes.length, 2, "held once, then the identical retry");
    assert.match(writes[1]!.text, /Cairn advisory \(shown to you before\)/);
    const pay = byFile("src/payments");
    assert.ok(pay.includes(PAY_RULE) && pay.includes("[enforced]"), pay);
    assert.ok(fs.existsSync(DB_FILE()), "the warned write went through on the retry");
    assert.ok(!fs.existsSync(path.join(project, "src", "payments", "charge.ts")), "the enforced write was stopped");
    const bash = results.find((r) => r.name === "bash")?.text ?? "";
    assert.match(bash, /actor=agent:build/, "shell.env names the agent for a cairn CLI it runs");
    const cairn = await openCairn({ projectDir: project, env });
    try {
      for (const id of ids) assert.ok((await cairn.get(id)).usage.consulted >= 1, "each match counts as a consultation");
      assert.equal((await cairn.history(ids[0]!)).find((e) => e.type === "consulted")?.actor, "agent:build");
    } finally {
      await cairn.close();
    }
  });

  await t.test("no hook failed along the way", () => {
    const log = path.join(project, ".swarm", "cairn-plugin.log");
    const text = fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "";
    assert.doesNotMatch(text, /ERROR/, text);
  });
});
