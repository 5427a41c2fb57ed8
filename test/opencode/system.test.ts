// system.transform, chat.message, tool.execute.before and compaction: standing instruction, phase summary, agent awareness, phase lessons.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { agentWrotePlan, loadPlugin, writePlan, PLAN } from "./helpers.js";

const p = await loadPlugin({ orchestrators: ["architect"], phase_summary_chars: 120, agent_awareness_max_chars: 200 });
after(() => p.close());
const system = p.hook("experimental.chat.system.transform");
const model = {} as Parameters<typeof system>[0]["model"];

async function systemFor(sessionID: string, base = ["You are opencode."]): Promise<string[]> {
  const out = { system: [...base] };
  await system({ sessionID, model }, out);
  return out.system;
}

test("every agent gets the standing instruction; no plan means no plan line", async () => {
  const s = await systemFor("ses_none");
  assert.equal(s.length, 2);
  assert.match(s[1]!, /knowledge_recall/);
  assert.match(s[1]!, /knowledge_add/);
  assert.doesNotMatch(s[1]!, /Current plan/);
});

test("with a plan, the current phase and next task are summarised within the configured length", async () => {
  writePlan(p.dir, PLAN);
  const s = await systemFor("ses_none");
  const line = s[1]!.split("\n").find((l) => l.includes("Current plan"))!;
  assert.match(line, /Phase 2: Session middleware \[IN PROGRESS\] — 1\/3 tasks done; next: 2\.2/);
  assert.ok(line.replace("[cairn] Current plan: ", "").length <= 120);
});

test("the hook is idempotent and leaves OpenCode's hidden title agent alone", async () => {
  const out = { system: ["You are opencode."] };
  await system({ sessionID: "s", model }, out);
  await system({ sessionID: "s", model }, out);
  assert.equal(out.system.length, 2);
  const title = await systemFor("s", ["You are a title generator. You output ONLY a thread title."]);
  assert.equal(title.length, 1);
});

test("the architect sees what other agents did (bounded); other agents do not get the summary", async () => {
  const chat = p.hook("chat.message");
  const before = p.hook("tool.execute.before");
  const msg = (sessionID: string, agent: string) => ({ message: { id: "m", sessionID, role: "user", time: { created: 0 }, agent, model: { providerID: "x", modelID: "y" } }, parts: [] }) as never;
  await chat({ sessionID: "ses_arch", agent: "architect" }, msg("ses_arch", "architect"));
  await chat({ sessionID: "ses_coder", agent: "coder" }, msg("ses_coder", "coder"));
  await chat({ sessionID: "ses_rev", agent: "reviewer" }, msg("ses_rev", "reviewer"));
  for (let i = 0; i < 30; i++) await before({ tool: "edit", sessionID: "ses_coder", callID: `c${i}` }, { args: { filePath: `${p.dir}/src/auth/file${i}.ts` } });
  await before({ tool: "bash", sessionID: "ses_coder", callID: "b" }, { args: { command: "npm test" } });
  await before({ tool: "read", sessionID: "ses_rev", callID: "r" }, { args: { filePath: "src/auth/middleware.ts" } });
  await before({ tool: "read", sessionID: "ses_arch", callID: "a" }, { args: { filePath: "README.md" } });

  const arch = (await systemFor("ses_arch"))[1]!;
  const line = arch.split("\n").find((l) => l.includes("Recent activity"))!;
  assert.ok(line, arch);
  assert.match(line, /reviewer: read src\/auth\/middleware\.ts/);
  assert.match(line, /coder: edit src\/auth\/file\d+\.ts/);
  assert.doesNotMatch(line, /architect:/, "not its own activity");
  assert.ok(line.replace("[cairn] ", "").length <= 200);

  const coder = (await systemFor("ses_coder"))[1]!;
  assert.doesNotMatch(coder, /Recent activity/);
});

test("compaction carries the current phase, its Lessons Learned bullets and matching lessons", async () => {
  const cairn = await p.cairn();
  const decision = await cairn.add({ lesson: "Session middleware decision: keep sessions in Redis, not in signed cookies, so revocation is immediate.", kind: "decision" });
  writePlan(p.dir, `${PLAN}\n### Lessons Learned\n- The session middleware must run before the rate limiter in src/server.ts.\n`);
  await agentWrotePlan(p, "ses_arch");
  const out = { context: [] as string[] };
  await p.hook("experimental.session.compacting")({ sessionID: "ses_arch" }, out);
  const text = out.context[0]!;
  assert.match(text, /Current phase \(keep\): Phase 2: Session middleware/);
  assert.match(text, /\[S-\d+\] lesson of this phase: The session middleware must run before the rate limiter/, "the bullet as the lesson the curator stored");
  assert.match(text, new RegExp(`\\[${decision.handle}\\] decision:`));
  assert.ok(text.length <= 2000);
});

test("regression 11.14: context.md's newest decisions reach the system prompt; compaction keeps every open task and context.md", async () => {
  const fs = await import("node:fs");
  const path = await import("node:path");
  fs.writeFileSync(
    path.join(p.dir, ".swarm", "context.md"),
    [
      "# Context", "", "## Decisions",
      "- D-old: use REST for the admin API.",
      "- D-two: keep sessions in Redis.",
      "- D-three: tokens expire after 15 minutes;",
      "  refresh tokens after 30 days.",
      "- D-new: the rate limiter runs after the session middleware.",
      "", "## Patterns", "- P-one: every handler returns a Result, never throws.", "", "## SME Cache", "- not a decision", "",
    ].join("\n"),
  );
  writePlan(p.dir, PLAN.replace("- [ ] 2.3: Add refresh rotation", "- [ ] 2.3: Add refresh rotation\n- [ ] 2.4: Document the session cookie flags\n- [x] 2.5: Done already"));
  const line = (await systemFor("ses_none"))[1]!.split("\n").find((l) => l.includes("Key decisions"));
  assert.ok(line, "a Key decisions line");
  assert.match(line!, /D-new.*D-three: tokens expire after 15 minutes; refresh tokens after 30 days\..*D-two/);
  assert.doesNotMatch(line!, /D-old|P-one|not a decision/, "only the three newest decisions");

  const out = { context: [] as string[] };
  await p.hook("experimental.session.compacting")({ sessionID: "ses_arch" }, out);
  const all = out.context.join("\n");
  for (const t of ["2.2 Check the session token", "2.3 Add refresh rotation", "2.4 Document the session cookie flags"]) assert.ok(all.includes(t), `open task ${t} carried:\n${all}`);
  assert.doesNotMatch(all, /2\.5 Done already/);
  assert.match(all, /Decisions from \.swarm\/context\.md[^]*D-new[^]*D-old/);
  assert.match(all, /Patterns from \.swarm\/context\.md[^]*P-one/);
  for (const c of out.context.slice(1)) assert.ok(c.length <= 1500, c);
  fs.rmSync(path.join(p.dir, ".swarm", "context.md"));
});

test("compaction can be switched off", async () => {
  const off = await loadPlugin({ compaction: false }, p.dir);
  try {
    const out = { context: [] as string[] };
    await off.hook("experimental.session.compacting")({ sessionID: "s" }, out);
    assert.deepEqual(out.context, []);
  } finally {
    await off.close();
  }
});
