// Governance test helpers: engines on a temp sandbox (as a person or as an agent), tool calls, realistic lessons.
import { openCairn, type Cairn, type ConfigInput } from "../../src/index.js";
import { ALL_TOOLS, callTool, type ToolResult } from "../../src/tools/index.js";
import { makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";

export interface Env {
  sb: Sandbox;
  /** The CLI's view: a person. */
  human: Cairn;
  /** The plugin's / MCP server's view: an agent on the same databases. */
  agent: Cairn;
  close(): Promise<void>;
}

export async function openEnv(config: ConfigInput = {}, opts: { now?: () => Date } = {}): Promise<Env> {
  const sb = makeSandbox("project-gov");
  const base = { projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config, ...(opts.now ? { now: opts.now } : {}) };
  const human = await openCairn({ ...base, actor: "human:alice" });
  const agent = await openCairn({ ...base, actor: "agent:coder" });
  return {
    sb,
    human,
    agent,
    async close() {
      await human.close();
      await agent.close();
      removeSandbox(sb);
    },
  };
}

export const APPROVAL_ON: ConfigInput = { governance: { require_approval: { swarm: true, hive: true } } };

export async function tool(cairn: Cairn, name: string, args: Record<string, unknown>, actor = "agent:coder"): Promise<ToolResult> {
  const def = ALL_TOOLS.find((t) => t.name === name);
  if (!def) throw new Error(`no tool ${name}`);
  return callTool(def, args, { cairn, actor, sessionId: "ses_test" });
}

export const AUTH_LESSON =
  "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login.";
export const AUTH_STRUCTURED = {
  lesson: AUTH_LESSON,
  title: "Null check required at auth token boundaries",
  why: "Unhandled null in the auth flow returns 500 and blocks login for users with expired sessions.",
  root_cause: "null_reference" as const,
  category: "security" as const,
  tags: ["auth", "jwt"],
  prevention: {
    rule: "Always check the token for null before reading claims; return early with token_missing.",
    detection_pattern: "token\\.(claims|payload|exp)",
    suggested_guardrail: "Add an ESLint rule that flags token property access in src/auth without a preceding null check.",
  },
  applicability: { file_globs: ["src/auth/**"], tech_stack: ["typescript", "jwt"], projects: ["*"] },
};

type Added = Awaited<ReturnType<Cairn["add"]>>;

/** Two approved tooling lessons, `old` superseded by `repl` (the mirror's supersedes: tests start here). */
export async function supersededPair(human: Cairn): Promise<{ old: Added; repl: Added }> {
  const old = await human.add({ lesson: "Use corepack enable in CI so the pinned pnpm version from packageManager is used.", category: "tooling" });
  const repl = await human.add({ lesson: "Run corepack prepare pnpm@9 --activate in CI images before installing dependencies.", category: "tooling" });
  await human.approve(repl.id!);
  await human.approve(old.id!);
  await human.supersede(old.id!, repl.id!);
  return { old, repl };
}
