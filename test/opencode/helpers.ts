// Test harness for the OpenCode plugin: a real PluginInput on temp dirs, message builders, and the plugin's hooks.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createOpencodeClient } from "@opencode-ai/sdk";
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import { openCairn, type Cairn } from "../../src/engine.js";
import { CairnPlugin } from "../../src/faces/opencode/plugin.js";

/** Every user-level path points into one temp root, set before anything opens a database. */
export const SANDBOX = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-oc-unit-"));
for (const [k, v] of Object.entries({
  HOME: "home",
  XDG_CONFIG_HOME: "config",
  XDG_DATA_HOME: "data",
  XDG_CACHE_HOME: "cache",
  XDG_STATE_HOME: "state",
})) {
  process.env[k] = path.join(SANDBOX, v);
  fs.mkdirSync(process.env[k]!, { recursive: true });
}
process.env.CAIRN_HIVE = path.join(SANDBOX, "hive.db");
process.on("exit", () => fs.rmSync(SANDBOX, { recursive: true, force: true }));
delete process.env.CAIRN_CONFIG;

let counter = 0;

export function newProject(name = "proj"): string {
  const dir = path.join(SANDBOX, `${name}-${++counter}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A real PluginInput: the SDK client points at a port nobody listens on, so any call fails fast. */
export function pluginInput(dir: string): PluginInput {
  const client = createOpencodeClient({ baseUrl: "http://127.0.0.1:9" }) as unknown as PluginInput["client"];
  return {
    client,
    project: { id: "test-project", worktree: dir, time: { created: Date.now() } } as PluginInput["project"],
    directory: dir,
    worktree: dir,
    experimental_workspace: { register() {} },
    serverUrl: new URL("http://127.0.0.1:9"),
    $: undefined as unknown as PluginInput["$"],
  };
}

export interface Loaded {
  dir: string;
  hooks: Hooks;
  /** Hook by key, typed, and asserted present. */
  hook<K extends keyof Hooks>(key: K): NonNullable<Hooks[K]>;
  /** A second engine handle on the same project, for assertions (closed in `close`). */
  cairn(): Promise<Cairn>;
  close(): Promise<void>;
}

export async function loadPlugin(options?: Record<string, unknown>, dir = newProject()): Promise<Loaded> {
  const hooks = await CairnPlugin(pluginInput(dir), options);
  let own: Cairn | undefined;
  return {
    dir,
    hooks,
    hook(key) {
      const h = hooks[key];
      if (!h) throw new Error(`hook ${String(key)} missing`);
      return h as NonNullable<Hooks[typeof key]>;
    },
    async cairn() {
      own ??= await openCairn({ projectDir: dir });
      return own;
    },
    async close() {
      await own?.close();
      await hooks.dispose?.();
    },
  };
}

type TransformOutput = Parameters<NonNullable<Hooks["experimental.chat.messages.transform"]>>[1];
export type Msg = TransformOutput["messages"][number];

const MODEL = { providerID: "mock", modelID: "m" };

export function userMessage(id: string, agent: string, text: string, sessionID = "ses_1"): Msg {
  return {
    info: { id, sessionID, role: "user", time: { created: Date.now() }, agent, model: MODEL },
    parts: [{ id: `prt_${id}`, sessionID, messageID: id, type: "text", text }],
  } as Msg;
}

export function assistantMessage(id: string, parentID: string, tokens = 100, sessionID = "ses_1"): Msg {
  return {
    info: {
      id, sessionID, role: "assistant", time: { created: Date.now() }, parentID, modelID: "m", providerID: "mock", mode: "build",
      path: { cwd: "/", root: "/" }, cost: 0, tokens: { input: tokens, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    },
    parts: [{ id: `prt_${id}`, sessionID, messageID: id, type: "text", text: "ok" }],
  } as Msg;
}

export function textOf(m: Msg): string {
  return m.parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
}

export function writePlan(dir: string, text: string): string {
  const file = path.join(dir, ".swarm", "plan.md");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** An agent's write of .swarm/plan.md as OpenCode reports it after the call: the curator reads the plan. */
export async function agentWrotePlan(p: Loaded, sessionID = "ses_1"): Promise<void> {
  const after = p.hook("tool.execute.after");
  await after({ tool: "write", sessionID, callID: `write_plan_${++counter}`, args: { filePath: path.join(p.dir, ".swarm", "plan.md") } }, { title: "", output: "", metadata: {} });
}

export function readLog(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, ".swarm", "cairn-plugin.log"), "utf8");
  } catch {
    return "";
  }
}

/** A plan in opencode-swarm's format: phase 1 done, phase 2 in progress. */
export const PLAN = `# Auth rewrite
Swarm: test
Phase: 2 | Updated: 2026-01-01

## Phase 1: Token parsing [COMPLETE]
- [x] 1.1: Parse JWT headers
- [x] 1.2: Validate signatures

## Phase 2: Session middleware [IN PROGRESS]
- [x] 2.1: Add the middleware skeleton
- [ ] 2.2: Check the session token before reading claims in src/auth/middleware.ts
- [ ] 2.3: Add refresh rotation
`;
