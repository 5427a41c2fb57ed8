// End to end, seed 002 §2.1–2.2 in the real opencode: the context-budget warning of a filling window, and what compaction carries.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openCairn } from "../../src/engine.js";
import { messageText, startModelServer, type ChatRequest, type ModelServer, type Reply } from "../fixtures/model-server/server.js";
import { isolatedEnv, modelConfig, OPENCODE_BIN, REPO, runFailure, runOpencode } from "./support/opencode.js";

const PLUGIN = path.join(REPO, "dist", "plugin.js");
/** The model's window as opencode.json declares it: the first reply reports nearly all of it used, so opencode compacts. */
const WINDOW = 8000;
const OUTPUT = 1000;
const CARRY = "Cairn knowledge to carry over";

const LIVE = "Keep the session middleware ahead of the rate limiter in src/server.ts or anonymous requests bypass the limits.";
const RETIRED = "Cache the parsed JWT header per request in src/auth/middleware.ts so the signature is verified only once.";
const PLAN = [
  "# Auth rewrite", "Phase: 2 | Updated: 2026-01-01", "",
  "## Phase 1: Token parsing [COMPLETE]", "- [x] 1.1: Parse JWT headers", "",
  "## Phase 2: Session middleware [IN PROGRESS]", "- [x] 2.1: Middleware skeleton", "- [ ] 2.2: Null check before claims in the session middleware", "- [ ] 2.3: Refresh rotation", "",
  "### Lessons Learned", `- ${LIVE}`, `- ${RETIRED}`, "",
].join("\n");
const CONTEXT_MD = ["# Context", "", "## Decisions", "- Sessions live in Redis, not in signed cookies.", ""].join("\n");

const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-oc-compact-"));
const project = path.join(root, "project");
let server: ModelServer;
let env: NodeJS.ProcessEnv;

const texts = (req: ChatRequest) => req.messages.map(messageText).join("\n");

/** The first turn calls a tool and reports a nearly full window; opencode then compacts before going on. */
function respond(req: ChatRequest): Reply {
  const all = texts(req);
  if (all.includes(CARRY)) return { text: "Summary: phase 2 of the auth rewrite is under way." };
  if (!req.tools?.length) return { text: "Test session" };
  // Four fifths of the window: past context_budget.warn_threshold (0.7), short of what makes opencode compact.
  if (all.includes("E2E-BUDGET")) {
    return req.messages.at(-1)?.role === "tool" ? { text: "Done." } : { toolCalls: [{ name: "knowledge_recall", arguments: { query: "session" } }], usage: { prompt_tokens: WINDOW * 0.8, completion_tokens: 10 } };
  }
  if (req.messages.at(-1)?.role === "tool" || /Summary: phase 2/.test(all)) return { text: "Done." };
  return { toolCalls: [{ name: "knowledge_recall", arguments: { query: "session middleware" } }], usage: { prompt_tokens: WINDOW - 100, completion_tokens: 50 } };
}

before(async () => {
  assert.ok(fs.existsSync(PLUGIN), `build first: ${PLUGIN} is missing (npm run build)`);
  assert.ok(fs.existsSync(OPENCODE_BIN), "the opencode-ai dev dependency provides node_modules/.bin/opencode");
  server = await startModelServer(respond);
  fs.mkdirSync(path.join(project, ".swarm"), { recursive: true });
  const config = modelConfig(server, { plugin: [[pathToFileURL(PLUGIN).href, { orchestrators: ["build"] }]] });
  (config.provider as { mock: { models: Record<string, unknown> } }).mock.models.m = { name: "Mock model", limit: { context: WINDOW, output: OUTPUT } };
  fs.writeFileSync(path.join(project, "opencode.json"), JSON.stringify(config, null, 2));
  fs.writeFileSync(path.join(project, ".swarm", "plan.md"), PLAN);
  fs.writeFileSync(path.join(project, ".swarm", "context.md"), CONTEXT_MD);
  env = isolatedEnv(root, project, { CAIRN_HIVE: path.join(root, "hive.db") });
  // The curator's work, done here: both bullets stored, then a person quarantines one.
  const cairn = await openCairn({ projectDir: project, env, actor: "human:test" });
  try {
    for (const lesson of [LIVE, RETIRED]) assert.equal((await cairn.add({ lesson, category: "architecture", phase: "Phase 2: Session middleware" })).action, "added");
    const retired = (await cairn.list({ limit: 10 })).find((e) => e.lesson === RETIRED)!;
    await cairn.quarantine(retired.id, "the header cache leaked between requests");
  } finally {
    await cairn.close();
  }
});

after(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

// No total time limit that a busy machine could hit: the run has a watchdog on no progress (support/opencode.ts).
test("a session opencode compacts carries the phase, its live lessons, open tasks and context.md decisions into the summary request; never a quarantined lesson", async () => {
  const run = await runOpencode(["E2E-COMPACT: carry on with the session middleware"], { cwd: project, env, server });
  assert.equal(run.code, 0, runFailure(run));
  // The summarising request offers no tools, so the run's own list (side requests left out) lacks it: every request counts here.
  const all = server.requests.map((r) => r.body);
  const summary = all.find((r) => texts(r).includes(CARRY));
  assert.ok(summary, `opencode compacted and the summarising request carries Cairn's context:\n${all.map((r) => texts(r).slice(-300)).join("\n---\n")}\n${run.stderr.split("\n").filter((l) => /compact|overflow|summar/i.test(l)).join("\n")}`);
  const text = texts(summary!);
  assert.match(text, /Current phase \(keep\): Phase 2: Session middleware/);
  assert.match(text, /\[S-\d+\] lesson of this phase: Keep the session middleware ahead of the rate limiter/);
  assert.match(text, /Open tasks of Phase 2: Session middleware[^]*2\.2 Null check before claims[^]*2\.3 Refresh rotation/);
  assert.match(text, /Decisions from \.swarm\/context\.md[^]*Sessions live in Redis/);
  assert.doesNotMatch(text, /Cache the parsed JWT header/, "a quarantined lesson is not carried");
  const log = path.join(project, ".swarm", "cairn-plugin.log");
  assert.doesNotMatch(fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "", /ERROR/);
});

test("a turn that reports four fifths of the window used gets [CONTEXT WARNING] in the next system prompt of the same turn (messages.transform runs before system.transform)", async () => {
  const run = await runOpencode(["E2E-BUDGET: look up the session lessons"], { cwd: project, env, server });
  assert.equal(run.code, 0, runFailure(run));
  const system = (r: ChatRequest) => r.messages.filter((m) => m.role === "system").map(messageText).join("\n");
  assert.equal(run.requests.length, 2, "the tool call, then the answer after it");
  assert.doesNotMatch(system(run.requests[0]!), /CONTEXT (WARNING|CRITICAL)/, "an empty window gets no warning");
  assert.match(system(run.requests[1]!), /\[cairn\] \[CONTEXT WARNING: ~8\d% /, system(run.requests[1]!).slice(-600));
  assert.ok(!server.requests.some((r) => texts(r.body).includes("E2E-BUDGET") && texts(r.body).includes(CARRY)), "no compaction at four fifths");
});
