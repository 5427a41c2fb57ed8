// How full each session's context is, noted when OpenCode hands us the messages and read when it builds the system prompt.
import type { Hooks } from "@opencode-ai/plugin";
import type { Cairn } from "../../engine.js";
import { contextBudget } from "../../retrieval/context-budget.js";

export type MessageWithParts = Parameters<NonNullable<Hooks["experimental.chat.messages.transform"]>>[1]["messages"][number];

const MAX_SESSIONS = 200;
const CHARS_PER_TOKEN = 4;

/**
 * Tokens in play: the provider's count from the last answer, or ~4 chars per token of every part,
 * whichever is larger. A compaction summary's count is the whole history it replaced, not what is in
 * play after it: it is not read.
 */
export function estimateTokens(messages: readonly MessageWithParts[]): number {
  let chars = 0;
  let reported = 0;
  for (const m of messages) {
    if (m.info.role === "assistant") {
      const t = m.info.tokens;
      if (m.info.summary) reported = 0;
      else if (t) reported = t.input + t.output + t.reasoning + t.cache.read + t.cache.write;
    }
    for (const p of m.parts) {
      if (p.type === "text" || p.type === "reasoning") chars += p.text.length;
      else if (p.type === "tool") {
        chars += JSON.stringify(p.state.input ?? {}).length;
        if (p.state.status === "completed") chars += p.state.output.length;
      }
    }
  }
  return Math.max(reported, Math.ceil(chars / CHARS_PER_TOKEN));
}


/** The model id `model_limits` knows: "provider/model" if configured that way, else the bare model id. */
export function modelKey(cairn: Cairn, providerID: string, modelID: string): string {
  const full = `${providerID}/${modelID}`;
  return cairn.config.model_limits[full] ? full : modelID;
}

const windowKey = (providerID: string, modelID: string) => `${providerID}/${modelID}`;

/** A model as the hooks name it; OpenCode's system hook also gives its limits. */
export interface HookModel {
  providerID?: string;
  id?: string;
  limit?: { context?: number };
}

export class ContextUsage {
  private readonly tokens = new Map<string, number>();
  /** Each model's context window as OpenCode last reported it ("provider/model" → tokens). */
  private readonly windows = new Map<string, number>();

  /** Remembers a model's window from a hook that reports it (the system hook), for the hooks that do not (messages.transform). */
  noteModel(model: HookModel | undefined): void {
    const w = model?.limit?.context;
    if (!model?.providerID || !model.id || typeof w !== "number" || !(w > 0)) return;
    const key = windowKey(model.providerID, model.id);
    this.windows.delete(key);
    this.windows.set(key, w);
    if (this.windows.size > MAX_SESSIONS) this.windows.delete(this.windows.keys().next().value as string);
  }

  /** The window OpenCode reported for a model, if it has. */
  windowOf(providerID: string, modelID: string): number | undefined {
    return this.windows.get(windowKey(providerID, modelID));
  }

  /**
   * OpenCode runs messages.transform before it builds the system prompt of the same model call,
   * so the estimate read there is this step's, not the previous one's.
   */
  note(messages: readonly MessageWithParts[]): void {
    const sessionID = messages.at(-1)?.info.sessionID;
    if (!sessionID) return;
    this.tokens.delete(sessionID);
    this.tokens.set(sessionID, estimateTokens(messages));
    if (this.tokens.size > MAX_SESSIONS) this.tokens.delete(this.tokens.keys().next().value as string);
  }

  /** The CONTEXT WARNING / CRITICAL line for this session and model, or "". */
  warning(cairn: Cairn, sessionID: string | undefined, model: HookModel | undefined): string {
    const used = sessionID ? this.tokens.get(sessionID) : undefined;
    if (used === undefined) return "";
    const key = model?.providerID && model.id ? modelKey(cairn, model.providerID, model.id) : undefined;
    return contextBudget(cairn.config, used, key, model?.limit?.context).text;
  }
}
