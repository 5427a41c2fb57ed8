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

test("the window is the model's own as OpenCode reports it (model.limit.context), unless model_limits names the model", async () => {
  const p = await loadPlugin({ orchestrators: ["architect"], model_limits: { "mock/pinned": 50_000, default: 128_000 } });
  const at = async (sessionID: string, tokens: number, m: unknown) => {
    await p.hook("chat.message")({ sessionID, agent: "architect" }, { message: {} as never, parts: [] });
    const messages = [userMessage(`u_${tokens}`, "architect", "continue", sessionID), assistantMessage(`a_${tokens}`, `u_${tokens}`, tokens, sessionID)];
    await p.hook("experimental.chat.messages.transform")({}, { messages });
    const out = { system: ["You are opencode."] };
    await p.hook("experimental.chat.system.transform")({ sessionID, model: m as never }, out);
    return out.system.slice(1).join("\n");
  };
  try {
    assert.doesNotMatch(await at("ses_big", 120_000, { id: "big", providerID: "mock", limit: { context: 1_000_000, output: 8_000 } }), /CONTEXT/, "12 % of a 1M window");
    assert.match(await at("ses_small", 31_000, { id: "small", providerID: "mock", limit: { context: 32_000, output: 4_000 } }), /CONTEXT CRITICAL: ~97%/, "97 % of a 32k window");
    assert.match(await at("ses_pin", 46_000, { id: "pinned", providerID: "mock", limit: { context: 1_000_000, output: 8_000 } }), /CONTEXT CRITICAL: ~92%/, "model_limits wins");
    assert.match(await at("ses_none", 95_000, { id: "unknown", providerID: "mock" }), /CONTEXT WARNING: ~74%/, "no limit reported: the default");
  } finally {
    await p.close();
  }
});

test("right after compaction the summary's token count (the whole old history) is not read as the context in use", async () => {
  const p = await loadPlugin({ orchestrators: ["architect"] });
  try {
    const sessionID = "ses_compacted";
    await p.hook("chat.message")({ sessionID, agent: "architect" }, { message: {} as never, parts: [] });
    const summary = assistantMessage("a_sum", "u_0", 120_000, sessionID);
    (summary.info as { summary?: boolean }).summary = true;
    const messages = [userMessage("u_0", "architect", "what did we do so far", sessionID), summary, userMessage("u_1", "architect", "continue", sessionID)];
    await p.hook("experimental.chat.messages.transform")({}, { messages });
    const out = { system: ["You are opencode."] };
    await p.hook("experimental.chat.system.transform")({ sessionID, model }, out);
    assert.doesNotMatch(out.system.join("\n"), /CONTEXT/);
  } finally {
    await p.close();
  }
});

test("a system prompt that merely mentions [cairn] (an AGENTS.md, a skill) still gets Cairn's lines, once", async () => {
  const p = await loadPlugin({ orchestrators: ["architect"] });
  try {
    const out = { system: ["You are opencode.\nAGENTS.md: lessons come from [cairn]; run `cairn recall` when unsure."] };
    await p.hook("experimental.chat.system.transform")({ sessionID: "ses_m", model }, out);
    assert.equal(out.system.length, 2, "Cairn's addition is there");
    await p.hook("experimental.chat.system.transform")({ sessionID: "ses_m", model }, out);
    assert.equal(out.system.length, 2, "and not doubled on the same output");
  } finally {
    await p.close();
  }
});
