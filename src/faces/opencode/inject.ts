// Injection in experimental.chat.messages.transform: the lessons block as a text part of the last user message.
import type { Hooks } from "@opencode-ai/plugin";
import type { RetrievalContext } from "../../retrieval/context.js";
import { currentTask } from "../../retrieval/plan.js";
import { INJECTION_SENTINEL } from "../../retrieval/render.js";
import { COMMAND_NOTE } from "./commands.js";
import type { PluginState } from "./state.js";
import { estimateTokens, modelKey, type MessageWithParts } from "./usage.js";

export { estimateTokens, type MessageWithParts };

type TransformOutput = Parameters<NonNullable<Hooks["experimental.chat.messages.transform"]>>[1];
type Part = MessageWithParts["parts"][number];

const CACHE_SIZE = 200;

export interface Injection {
  text: string;
  entries: Array<{ id: string; handle: string }>;
  mode: "orchestrator" | "delegated";
}

/** Per message: a block that some host version did persist in an earlier turn must not silence later turns. */
function hasSentinel(m: MessageWithParts): boolean {
  return m.parts.some((p) => p.type === "text" && p.text.includes(INJECTION_SENTINEL));
}

function userText(m: MessageWithParts, max = 2000): string {
  return m.parts
    .filter((p): p is Extract<Part, { type: "text" }> => p.type === "text" && !p.synthetic)
    .map((p) => p.text)
    .join("\n")
    .slice(0, max);
}

export class Injector {
  private readonly cache = new Map<string, Injection>();

  constructor(
    private readonly state: PluginState,
    /** Told which entries an orchestrator was shown, so phase completion can record their outcome. */
    private readonly onShown?: (phase: string | undefined, ids: string[]) => void,
  ) {}

  /**
   * OpenCode rebuilds the messages from storage for every model call, so our part never persists:
   * the block is computed once per user message (and counted as shown once) and re-attached on
   * each later step of that turn from the cache.
   */
  async transform(output: TransformOutput): Promise<Injection | undefined> {
    const messages = output.messages;
    let idx = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]!.info.role === "user") {
        idx = i;
        break;
      }
    }
    if (idx < 0) return undefined;
    const user = messages[idx]!;
    if (hasSentinel(user)) return undefined;
    if (user.info.role !== "user" || user.parts.some((p) => p.type === "text" && p.text === COMMAND_NOTE)) return undefined;
    const info = user.info;
    let injection = this.cache.get(info.id);
    if (!injection) {
      injection = await this.compute(messages, user);
      if (!injection) return undefined;
      this.cache.set(info.id, injection);
      if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    }
    if (!injection.text) return injection;
    const part = { id: `prt_cairn_${info.id}`, sessionID: info.sessionID, messageID: info.id, type: "text", text: injection.text, synthetic: true } as Part;
    // Before the user's own words, so the request itself stays the last thing the model reads.
    user.parts.unshift(part);
    return injection;
  }

  private async compute(messages: readonly MessageWithParts[], user: MessageWithParts): Promise<Injection | undefined> {
    if (user.info.role !== "user") return undefined;
    const agent = user.info.agent;
    const orchestrator = this.state.isOrchestrator(agent);
    const opts = this.state.options.plugin;
    if (orchestrator ? !opts.inject : !opts.delegated_directives) return undefined;
    const cairn = await this.state.cairn();
    const planned = this.state.plans.read();
    const phase = planned?.plan.current?.title;
    const task = planned ? currentTask(planned.plan) : undefined;
    // messages.transform is given no limits: reported by an earlier step's system hook, else listed by OpenCode's server.
    const window = user.info.model ? await this.state.modelWindow(user.info.model.providerID, user.info.model.modelID) : undefined;
    const ctx: RetrievalContext = {
      ...(phase ? { phase } : {}),
      ...(task ? { task: `${task.id} ${task.text}` } : {}),
      lastMessage: userText(user),
      files: this.state.activity.recentFiles(),
      techStack: [...cairn.techStack()],
      ...(agent ? { agent } : {}),
      tokensUsed: estimateTokens(messages),
      ...(user.info.model ? { model: modelKey(cairn, user.info.model.providerID, user.info.model.modelID) } : {}),
      ...(window ? { contextWindow: window } : {}),
    };
    // Delegated agents (coder, reviewer, …) get only the directives that apply to them.
    const r = await cairn.inject(ctx, { actor: `agent:${agent}`, directivesOnly: !orchestrator, ...(user.info.sessionID ? { sessionId: user.info.sessionID } : {}) });
    if (r.entries.length) this.onShown?.(phase, r.entries.map((e) => e.id));
    return { text: r.text, entries: r.entries.map((e) => ({ id: e.id, handle: e.handle })), mode: orchestrator ? "orchestrator" : "delegated" };
  }
}
