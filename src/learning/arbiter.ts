// Optional LLM arbiter for ambiguous upserts over an OpenAI-compatible endpoint; it can never delete.
import type { Entry } from "../core/entry.js";
import type { UpsertArbiter } from "../lifecycle/write.js";
import { isProtected, type UpsertDecision } from "../lifecycle/upsert.js";

export interface ArbiterConfig {
  /** Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1. */
  url: string;
  model: string;
  /** Name of the env var holding the API key (the key itself never sits in config). */
  apiKeyEnv?: string;
  timeoutMs?: number;
}

const PROMPT = `You maintain a list of engineering lessons. Decide how a NEW lesson relates to an EXISTING one.
Answer with JSON only: {"operation": "ADD" | "REINFORCE" | "SUPERSEDE" | "NOOP"}.
ADD: different lessons. REINFORCE: same lesson, new sighting. SUPERSEDE: the new lesson replaces the existing one
(it corrects or contradicts it on the same subject). NOOP: nothing new. There is no delete.`;

/** Builds an arbiter; any failure (timeout, bad JSON, unknown op) falls back to the rules' decision. */
export function createArbiter(cfg: ArbiterConfig, env: NodeJS.ProcessEnv = process.env): UpsertArbiter {
  return async (lesson: string, nearest: Entry): Promise<UpsertDecision> => {
    const key = cfg.apiKeyEnv ? env[cfg.apiKeyEnv] : undefined;
    const res = await fetch(`${cfg.url.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({
        model: cfg.model,
        temperature: 0,
        messages: [
          { role: "system", content: PROMPT },
          { role: "user", content: JSON.stringify({ existing: nearest.lesson, new: lesson }) },
        ],
      }),
      signal: AbortSignal.timeout(cfg.timeoutMs ?? 5000),
    });
    if (!res.ok) throw new Error(`arbiter HTTP ${res.status}`);
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
    const text = body.choices?.[0]?.message?.content ?? "";
    const op = /"operation"\s*:\s*"(ADD|REINFORCE|SUPERSEDE|NOOP|DELETE)"/i.exec(text)?.[1]?.toUpperCase();
    switch (op) {
      case "REINFORCE":
      case "NOOP":
        return { op: "reinforce", target: nearest, similarity: 0 };
      case "SUPERSEDE":
        return isProtected(nearest) ? { op: "flag", targets: [nearest] } : { op: "supersede", target: nearest };
      case "ADD":
        return { op: "add" };
      default:
        // DELETE or anything else is refused: an LLM never removes knowledge silently.
        throw new Error(`arbiter answered ${op ?? "nothing usable"}`);
    }
  };
}
