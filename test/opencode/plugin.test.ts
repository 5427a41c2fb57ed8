// The plugin as OpenCode loads it: one handler per hook key, options merged and reported once, failures logged never thrown.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as mod from "../../src/faces/opencode/plugin.js";
import { CairnPlugin } from "../../src/faces/opencode/plugin.js";
import { loadPlugin, newProject, pluginInput, readLog, userMessage, textOf, writePlan, PLAN } from "./helpers.js";

function toolCtx(dir: string) {
  return { sessionID: "s", messageID: "m", agent: "coder", directory: dir, worktree: dir, abort: new AbortController().signal, metadata() {}, ask: async () => {} };
}

test("default and named exports are the same Plugin, so OpenCode initialises it once", () => {
  assert.equal(mod.default, CairnPlugin);
  assert.equal(typeof CairnPlugin, "function");
});

test("the package's ./server entry is OpenCode's v1 module shape around the same plugin", async () => {
  const server = (await import("../../src/faces/opencode/server.js")).default;
  assert.equal(server.id, "cairn");
  assert.equal(server.server, CairnPlugin);
});

test("every hook key has exactly one handler", async () => {
  const p = await loadPlugin();
  try {
    assert.deepEqual(Object.keys(p.hooks).sort(), [
      "chat.message", "command.execute.before", "config", "dispose", "event",
      "experimental.chat.messages.transform", "experimental.chat.system.transform", "experimental.session.compacting",
      "shell.env", "tool", "tool.execute.after", "tool.execute.before",
    ]);
  } finally {
    await p.close();
  }
});

test("unknown event types (plugin.added, catalog.updated) are tolerated", async () => {
  const p = await loadPlugin();
  try {
    for (const type of ["plugin.added", "catalog.updated", "session.idle"]) {
      await p.hook("event")({ event: { type, properties: {} } as never });
    }
    assert.equal(readLog(p.dir), "");
  } finally {
    await p.close();
  }
});

test("an exception inside a hook is logged to .swarm/cairn-plugin.log and never reaches OpenCode", async () => {
  const p = await loadPlugin();
  try {
    await p.hook("experimental.chat.messages.transform")({}, { messages: [{ info: { role: "user" }, parts: null }] as never });
    await p.hook("experimental.chat.system.transform")({ model: {} as never }, { system: null } as never);
    await p.hook("tool.execute.before")({ tool: "edit", sessionID: "s", callID: "c" }, null as never);
    const log = readLog(p.dir);
    assert.match(log, /ERROR experimental\.chat\.messages\.transform: TypeError/);
    assert.match(log, /ERROR experimental\.chat\.system\.transform/);
    assert.match(log, /ERROR tool\.execute\.before/);
  } finally {
    await p.close();
  }
});

test("invalid plugin options are reported once, clearly, and their defaults apply", async () => {
  const p = await loadPlugin({ orchestrators: "architect", bogus: true, phase_summary_chars: 100 });
  try {
    const log = readLog(p.dir);
    assert.equal(log.match(/invalid plugin options/g)?.length, 1);
    assert.match(log, /option "orchestrators": .*array/i);
    assert.match(log, /unknown option "bogus"/);
    await p.hook("config")({});
    const out = { parts: [] as never[] };
    await p.hook("command.execute.before")({ command: "swarm", sessionID: "s", arguments: "status" }, out);
    assert.match((out.parts[0] as unknown as { text: string }).text, /Problems:\n- invalid plugin options/);
    // The default orchestrators (architect, build, plan) still get the full block.
    const c = await p.cairn();
    await c.add({ lesson: "Rebuild the GraphQL schema with npm run codegen after editing schema.graphql; stale types compile but fail at runtime." });
    const m = [userMessage("msg_o", "build", "edit schema.graphql codegen types")];
    await p.hook("experimental.chat.messages.transform")({}, { messages: m });
    assert.match(textOf(m[0]!), /cairn:knowledge/);
  } finally {
    await p.close();
  }
});

test("engine options from opencode.json are merged over the config files; a bad one falls back and is reported", async () => {
  const dir = newProject();
  fs.mkdirSync(path.join(dir, ".swarm"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".swarm", "cairn.json"), JSON.stringify({ knowledge: { max_inject_count: 5, max_lesson_display_chars: 200 } }));
  const p = await loadPlugin({ knowledge: { max_inject_count: 1 } }, dir);
  try {
    const c = await p.cairn();
    for (const l of [
      "Run the auth integration suite after touching src/auth/session.ts refresh logic; rotation broke silently.",
      "Check the auth session token for null in src/auth/middleware.ts before reading claims.",
      "Log the auth session id in src/auth/audit.ts so support can trace failed logins.",
    ]) await c.add({ lesson: l });
    const m = [userMessage("msg_e", "architect", "auth session token refresh middleware audit")];
    await p.hook("experimental.chat.messages.transform")({}, { messages: m });
    assert.equal((textOf(m[0]!).match(/^- \[S-/gm) ?? []).length, 1, "max_inject_count 1 from the plugin options wins");
  } finally {
    await p.close();
  }
  const bad = await loadPlugin({ knowledge: { max_inject_count: -3 } });
  try {
    const r = await bad.hooks.tool!.knowledge_query!.execute({} as never, toolCtx(bad.dir));
    assert.match((r as { output: string }).output, /no|0|entries/i, "the plugin still works on the file config");
    assert.match(readLog(bad.dir), /engine options in opencode\.json ignored: [\s\S]*knowledge\.max_inject_count/);
  } finally {
    await bad.close();
  }
});

test("when the knowledge base cannot open, every agent's system prompt still gets the standing instruction, and the failure goes to stderr once", async () => {
  const { STANDING_INSTRUCTION } = await import("../../src/faces/opencode/system.js");
  const broken: Array<[string, (dir: string) => void]> = [
    // Unreadable as a database whoever runs the test (root reads any file): a folder where the file should be.
    ["cairn.db is a folder", (dir) => fs.mkdirSync(path.join(dir, ".swarm", "cairn.db"), { recursive: true })],
    [".swarm is a file", (dir) => fs.writeFileSync(path.join(dir, ".swarm"), "a file where the folder should be")],
  ];
  for (const [what, breakIt] of broken) {
    const dir = newProject();
    breakIt(dir);
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (write as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    }) as typeof process.stderr.write;
    const hooks = await CairnPlugin(pluginInput(dir), { orchestrators: ["architect"] });
    try {
      const systems: string[][] = [];
      for (const [sessionID, agent] of [["ses_arch", "architect"], ["ses_coder", "coder"], ["ses_arch", "architect"]] as const) {
        await hooks["chat.message"]!({ sessionID, agent } as never, { message: userMessage(`msg_${agent}`, agent, "fix the session check", sessionID).info, parts: [] } as never);
        // A turn of the orchestrator counts its context use; the budget line needs the store, and must not take the instruction with it.
        await hooks["experimental.chat.messages.transform"]!({}, { messages: [userMessage(`msg_${agent}`, agent, "fix the session check", sessionID)] });
        const out = { system: ["You are opencode."] };
        await hooks["experimental.chat.system.transform"]!({ sessionID, model: { providerID: "mock", id: "m", limit: { context: 1000 } } } as never, out);
        systems.push(out.system);
      }
      for (const system of systems) {
        assert.equal(system.length, 2, `${what}: ${JSON.stringify(system)}`);
        assert.equal(system[1], STANDING_INSTRUCTION, `${what}: only the standing instruction, nothing from the store`);
      }
      const said = written.filter((w) => /cannot open the knowledge base/i.test(w));
      assert.equal(said.length, 1, `${what}: said once on stderr: ${JSON.stringify(written)}`);
      assert.ok(!systems.flat().some((s) => /cannot open|failed/i.test(s)), `${what}: never in the conversation`);
    } finally {
      process.stderr.write = write;
      await hooks.dispose?.();
    }
  }
});

test("when the knowledge base cannot open, compaction still carries the phase, its open tasks and context.md's decisions (only the lessons are missing)", async () => {
  const dir = newProject();
  writePlan(dir, PLAN);
  fs.writeFileSync(path.join(dir, ".swarm", "context.md"), "# Context\n\n## Decisions\n- D-one: keep sessions in Redis.\n");
  fs.mkdirSync(path.join(dir, ".swarm", "cairn.db"));
  const hooks = await CairnPlugin(pluginInput(dir), { orchestrators: ["architect"] });
  try {
    const out = { context: [] as string[] };
    await hooks["experimental.session.compacting"]!({ sessionID: "ses_arch" } as never, out as never);
    const text = out.context.join("\n");
    assert.match(text, /Current phase \(keep\): Phase 2: Session middleware/, JSON.stringify(out.context));
    assert.match(text, /2\.3 Add refresh rotation/);
    assert.match(text, /D-one: keep sessions in Redis/);
  } finally {
    await hooks.dispose?.();
  }
});

test("when the knowledge base cannot open, hooks stay silent, tools fail with the reason, and it is reported once", async () => {
  const dir = newProject();
  fs.writeFileSync(path.join(dir, ".swarm"), "a file where the folder should be");
  const hooks = await CairnPlugin(pluginInput(dir));
  const m = [userMessage("msg_x", "architect", "anything")];
  await hooks["experimental.chat.messages.transform"]!({}, { messages: m });
  await hooks["experimental.chat.messages.transform"]!({}, { messages: m });
  assert.equal(m[0]!.parts.length, 1);
  await assert.rejects(hooks.tool!.knowledge_recall!.execute({ query: "x" } as never, toolCtx(dir)), /knowledge_recall failed/);
  await hooks.dispose?.();
});

test("seed 002's hooks group among the plugin options is reported with the option each switch is now, and the defaults apply", async () => {
  const p = await loadPlugin({ hooks: { compaction: false, agent_awareness_max_chars: 500, delegation_tracker: true } });
  try {
    const log = readLog(p.dir);
    assert.match(log, /unknown option "hooks" \(opencode-swarm's hook switches; here they are plugin options, beside hooks/);
    assert.match(log, /hooks\.compaction → "compaction"/);
    assert.match(log, /hooks\.agent_awareness_max_chars → "agent_awareness_max_chars"/);
    assert.match(log, /hooks\.delegation_tracker → no option/);
    // Only the switches given are named.
    assert.doesNotMatch(log, /hooks\.system_enhancer/);
  } finally {
    await p.close();
  }
});

test("knowledge settings in opencode-swarm's project config, which Cairn does not read, are reported once with Cairn's value and where to set them", async () => {
  const dir = newProject();
  fs.mkdirSync(path.join(dir, ".opencode"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".opencode", "opencode-swarm.json"), JSON.stringify({ knowledge: { max_inject_count: 3, enabled: true } }));
  const p = await loadPlugin(undefined, dir);
  try {
    await p.hook("config")({});
    const out = { parts: [] as never[] };
    await p.hook("command.execute.before")({ command: "swarm", sessionID: "s", arguments: "status" }, out);
    const text = (out.parts[0] as unknown as { text: string }).text;
    assert.match(text, /Problems:\n- [^\n]*opencode-swarm\.json: knowledge\.max_inject_count = 3 \(Cairn: 5\)/, text);
    assert.doesNotMatch(text, /knowledge\.enabled/, "the same value as Cairn's is not named");
    assert.equal(readLog(dir).match(/knowledge\.max_inject_count = 3/g)?.length, 1);
  } finally {
    await p.close();
  }
});

test("opencode-swarm knowledge keys Cairn has none of, given as plugin options, are reported with what replaces each here", async () => {
  const p = await loadPlugin({ knowledge: { delegate_max_inject_count: 8, sweep_enabled: true } });
  try {
    await p.hook("config")({});
    const out = { parts: [] as never[] };
    await p.hook("command.execute.before")({ command: "swarm", sessionID: "s", arguments: "status" }, out);
    const text = (out.parts[0] as unknown as { text: string }).text + readLog(p.dir);
    assert.match(text, /delegate_max_inject_count \(opencode-swarm's [^)]*knowledge\.max_inject_count/, text);
    assert.match(text, /sweep_enabled \(opencode-swarm's [^)]*not needed/, text);
  } finally {
    await p.close();
  }
});

test("seed 002's inject_phase_reminders among the plugin options is reported with the option that does it here, and the defaults apply", async () => {
  const p = await loadPlugin({ inject_phase_reminders: false, orchestrators: ["architect"] });
  try {
    const log = readLog(p.dir);
    assert.match(log, /unknown option "inject_phase_reminders" \(opencode-swarm's phase reminders; here the plugin option "system_instruction"/, log);
    // The option names no file: the user is already writing plugin options.
    assert.doesNotMatch(log, /inject_phase_reminders[^\n]*opencode\.json/);
  } finally {
    await p.close();
  }
  const typo = await loadPlugin({ inject_phase_reminder: true });
  try {
    assert.doesNotMatch(readLog(typo.dir), /phase reminders/);
  } finally {
    await typo.close();
  }
});
