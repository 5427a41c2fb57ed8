// Cairn's OpenCode plugin: the shared knowledge tools, lessons injection, advisories, curator, compaction, /swarm — composed, one handler per hook.
import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin";
import { Advisories, agentActor } from "./advisories.js";
import { handleCommand, registerCommand } from "./commands.js";
import { Curator } from "./curator.js";
import { Injector } from "./inject.js";
import { safeHook } from "./log.js";
import { resolveOptions } from "./options.js";
import { PluginState } from "./state.js";
import { compactionContext, isHiddenAgentPrompt, systemAddition } from "./system.js";
import { pluginTools } from "./tools.js";

/** Sends the one-time problem report to OpenCode's own log too; never awaited, never throws. */
function serverLog(client: PluginInput["client"]): (message: string) => void {
  return (message) => {
    Promise.resolve()
      .then(() => client.app.log({ body: { service: "cairn", level: "warn", message } }))
      .catch(() => undefined);
  };
}

/** Each configured model's context window as OpenCode knows it ("provider/model" → tokens), asked of its own server. */
function modelWindows(client: PluginInput["client"]): () => Promise<Map<string, number>> {
  return async () => {
    const r = await client.config.providers();
    const windows = new Map<string, number>();
    for (const p of r.data?.providers ?? []) {
      for (const [id, m] of Object.entries(p.models ?? {})) {
        const w = m?.limit?.context;
        if (typeof w === "number" && w > 0) windows.set(`${p.id}/${id}`, w);
      }
    }
    return windows;
  };
}

export const CairnPlugin: Plugin = async (input, options) => {
  const state = new PluginState({ directory: input.directory, options: resolveOptions(options), report: serverLog(input.client), modelWindows: modelWindows(input.client) });
  const curator = new Curator(state);
  const injector = new Injector(state, (phase, ids) => curator.noteShown(phase, ids));
  const advisories = new Advisories(state);
  const plugin = state.options.plugin;

  const hooks: Hooks = {
    tool: pluginTools({ cairn: () => state.cairn(), taskIdOf: (task) => curator.taskIdOf(task) }),

    config: safeHook(state.log, "config", async (config) => registerCommand(state, config)),

    // OpenCode emits event types its SDK union does not list (plugin.added, catalog.updated, …); nothing here depends on them.
    event: safeHook(state.log, "event", async () => undefined),

    "chat.message": safeHook(state.log, "chat.message", async (i, o) => {
      state.activity.noteSession(i.sessionID, i.agent ?? o.message?.agent);
    }),

    "experimental.chat.system.transform": safeHook(state.log, "experimental.chat.system.transform", async (i, o) => {
      state.usage.noteModel(i.model);
      if (o.system.some((s) => isHiddenAgentPrompt(s))) return;
      const addition = await systemAddition(state, i.sessionID, i.model);
      // Our own lines, exactly: OpenCode hands the whole prompt (AGENTS.md, skills) as one string, which may say "[cairn]" itself.
      if (addition && !o.system.some((s) => s.includes(addition))) o.system.push(addition);
    }),

    "experimental.chat.messages.transform": safeHook(state.log, "experimental.chat.messages.transform", async (_i, o) => {
      state.usage.note(o.messages);
      await injector.transform(o);
    }),

    // An advisory throws a HookVeto through safeHook: the call fails, before it runs, with the advice as its error
    // (always for an enforced lesson, once per session for a warning; see advisories.ts).
    "tool.execute.before": safeHook(state.log, "tool.execute.before", async (i, o) => {
      state.activity.noteTool(i.sessionID, i.tool, o.args);
      await advisories.before(i.tool, i.sessionID, i.callID, o.args);
    }),

    "tool.execute.after": safeHook(state.log, "tool.execute.after", async (i, o) => {
      advisories.after(i.callID, o);
      await curator.afterTool(i.tool, i.args, i.sessionID);
    }),

    // A `cairn` command run by an agent is attributed to it (and may not approve). Without a session it is
    // a person's terminal (OpenCode's PTY), which keeps the CLI's human default.
    "shell.env": safeHook(state.log, "shell.env", async (i, o) => {
      if (i.sessionID) o.env.CAIRN_ACTOR = agentActor(state.activity.agentOf(i.sessionID));
    }),

    "experimental.session.compacting": safeHook(state.log, "experimental.session.compacting", async (i, o) => {
      if (!plugin.compaction) return;
      // Bullets never curated are gated first: compaction carries a bullet only as the live lesson it became.
      await curator.curatePlanNow(i.sessionID).catch((e) => state.log.error("compaction.curate", e));
      o.context.push(...(await compactionContext(state)));
    }),

    "command.execute.before": safeHook(state.log, "command.execute.before", async (i, o) => {
      await handleCommand(state, curator, i, o);
    }),

    dispose: async () => {
      await curator.flush().catch((e) => state.log.error("dispose", e));
      await state.close().catch((e) => state.log.error("dispose", e));
    },
  };
  return hooks;
};

export default CairnPlugin;
