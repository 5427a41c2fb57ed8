// Context-budget warnings in the orchestrator's system prompt (seed 002 §2.1): thresholds and limits from config.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigSchema } from "../../src/config.js";
import { assistantMessage, loadPlugin, userMessage, type Loaded } from "./helpers.js";

const model = { id: "m", providerID: "mock" } as never;

/** One step as OpenCode runs it: messages.transform, then the system prompt of the same call. */
async function systemAt(p: Loaded, sessionID: string, agent: string, tokens: number): Promise<string> {
  await p.hook("chat.message")({ sessionID, agent }, { message: {} as never, parts: [] });
  const messages = [userMessage(`u_${tokens}`, agent, "continue", sessionID), assistantMessage(`a_${tokens}`, `u_${tokens}`, tokens, sessionID)];
  await p.hook("experimental.chat.messages.transform")({}, { messages });
  const out = { system: ["You are opencode."] };
  await p.hook("experimental.chat.system.transform")({ sessionID, model }, out);
  return out.system.slice(1).join("\n");
}

test("regression 11.12: the architect is warned at 70 % and 90 % of the model's window; other agents are not", async () => {
  const p = await loadPlugin({ orchestrators: ["architect"] });
  try {
    assert.doesNotMatch(await systemAt(p, "ses_a", "architect", 80_000), /CONTEXT/, "62 % of the default 128k: quiet");
    assert.match(await systemAt(p, "ses_a", "architect", 95_000), /\[cairn\] \[CONTEXT WARNING: ~74% of the context window used\. Consider summarizing .*\.swarm\/context\.md/);
    const critical = await systemAt(p, "ses_a", "architect", 120_000);
    assert.match(critical, /\[CONTEXT CRITICAL: ~94% .*Offload details/);
    assert.doesNotMatch(critical, /CONTEXT WARNING/);
    assert.doesNotMatch(await systemAt(p, "ses_c", "coder", 120_000), /CONTEXT/, "a delegated agent is not the one to summarise");
  } finally {
    await p.close();
  }
});

test("thresholds and the model's limit come from config; enabled=false turns the warnings off", async () => {
  const tuned = await loadPlugin({ orchestrators: ["architect"], context_budget: { warn_threshold: 0.5, critical_threshold: 0.8 }, model_limits: { "mock/m": 10_000, default: 128_000 } });
  try {
    assert.doesNotMatch(await systemAt(tuned, "ses_t", "architect", 4_000), /CONTEXT/);
    assert.match(await systemAt(tuned, "ses_t", "architect", 5_500), /CONTEXT WARNING: ~55%/);
    assert.match(await systemAt(tuned, "ses_t", "architect", 8_500), /CONTEXT CRITICAL: ~85%/);
  } finally {
    await tuned.close();
  }
  const off = await loadPlugin({ orchestrators: ["architect"], context_budget: { enabled: false } });
  try {
    assert.doesNotMatch(await systemAt(off, "ses_o", "architect", 127_000), /CONTEXT/);
  } finally {
    await off.close();
  }
  assert.equal(ConfigSchema.safeParse({ context_budget: { warn_threshold: 0.95, critical_threshold: 0.9 } }).success, false, "warn above critical is refused");
});
