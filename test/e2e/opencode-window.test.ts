// End to end: the lessons block is sized to the model's own context window from the first turn of an opencode process.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openCairn } from "../../src/engine.js";
import { INJECTION_SENTINEL } from "../../src/retrieval/render.js";
import { isSideRequest, messageText, startModelServer, type ChatRequest, type ModelServer } from "../fixtures/model-server/server.js";
import { isolatedEnv, modelConfig, OPENCODE_BIN, REPO, runFailure, runOpencode } from "./support/opencode.js";

const PLUGIN = path.join(REPO, "dist", "plugin.js");
const LESSON = "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login.";
/** The model's window as its provider entry in opencode.json declares it; Cairn's config names no limit for it. */
const WINDOW = 4000;

const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-oc-window-"));
const project = path.join(root, "project");
let server: ModelServer;
let env: NodeJS.ProcessEnv;

before(async () => {
  assert.ok(fs.existsSync(PLUGIN), `build first: ${PLUGIN} is missing (npm run build)`);
  assert.ok(fs.existsSync(OPENCODE_BIN), "the opencode-ai dev dependency provides node_modules/.bin/opencode");
  server = await startModelServer((req: ChatRequest) => (isSideRequest(req) ? { text: "Test session" } : { text: "ok" }));
  fs.mkdirSync(project, { recursive: true });
  const config = modelConfig(server, { plugin: [[pathToFileURL(PLUGIN).href, { orchestrators: ["build"] }]] });
  (config.provider as { mock: { models: Record<string, unknown> } }).mock.models.m = { name: "Mock model", limit: { context: WINDOW, output: 100 } };
  fs.writeFileSync(path.join(project, "opencode.json"), JSON.stringify(config, null, 2));
  env = isolatedEnv(root, project, { CAIRN_HIVE: path.join(root, "hive.db") });
  const cairn = await openCairn({ projectDir: project, env, actor: "human:test" });
  try {
    assert.equal((await cairn.add({ lesson: LESSON, category: "security" })).action, "added");
  } finally {
    await cairn.close();
  }
});

after(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

// No total time limit that a busy machine could hit: the run has a watchdog on no progress (support/opencode.ts).
test("the first turn of a process whose message fills 96 % of the model's window gets no lessons block (the window is the model's, not the 128k default)", async () => {
  // The control: with room left, the same lesson is injected.
  const roomy = await runOpencode(["fix the session token null check in src/auth/middleware.ts"], { cwd: project, env, server });
  assert.equal(roomy.code, 0, runFailure(roomy));
  const shown = roomy.requests[0]!.messages.filter((m) => m.role === "user").map(messageText).join("\n");
  assert.ok(shown.includes(INJECTION_SENTINEL) && shown.includes(LESSON), shown.slice(0, 600));
  // ~3,850 tokens at four characters a token, about the matching lesson.
  const words = "fix the session token null check in src/auth/middleware.ts before reading claims. ";
  const message = words.repeat(Math.ceil((WINDOW * 0.96 * 4) / words.length));
  const run = await runOpencode([message], { cwd: project, env, server });
  assert.equal(run.code, 0, runFailure(run));
  const user = run.requests[0]!.messages.filter((m) => m.role === "user").map(messageText).join("\n");
  assert.ok(user.includes("fix the session token"), "the user's words reached the model");
  assert.ok(!user.includes(INJECTION_SENTINEL), `a nearly full window gets no block: ${user.slice(0, 600)}`);
});
