// messages.transform: the lessons block reaches orchestrator turns once per user message, directives only for delegated agents, within budget.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { INJECTION_SENTINEL } from "../../src/retrieval/render.js";
import { assistantMessage, loadPlugin, textOf, userMessage, writePlan, PLAN, type Msg } from "./helpers.js";

const p = await loadPlugin({ orchestrators: ["architect", "build"] });
after(() => p.close());
const cairn = await p.cairn();
const plain = await cairn.add({ lesson: "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login.", category: "security" });
const directive = await cairn.add({
  lesson: "Before changing src/auth/session.ts run the auth integration tests; the refresh token rotation broke twice unnoticed.",
  directive: { required_actions: ["run npm run test:auth before committing auth changes"], priority: "high" },
  category: "testing",
});
writePlan(p.dir, PLAN);

const transform = p.hook("experimental.chat.messages.transform");

async function run(messages: Msg[]): Promise<Msg[]> {
  await transform({}, { messages });
  // A turn of the event loop, as the host takes before its next step: the shown counts are written once the hook has answered.
  await new Promise((r) => setImmediate(r));
  return messages;
}

test("an orchestrator turn gets the block as a synthetic text part before the user's words, and the entries count as shown", async () => {
  const before = (await cairn.get(plain.id!)).usage.shown;
  const msgs = await run([userMessage("msg_a1", "architect", "fix the session token check in the auth middleware")]);
  const parts = msgs[0]!.parts;
  assert.equal(parts.length, 2);
  const first = parts[0]!;
  assert.equal(first.type, "text");
  assert.ok(first.type === "text" && first.synthetic === true);
  assert.ok(first.type === "text" && first.text.startsWith(INJECTION_SENTINEL));
  assert.match(textOf(msgs[0]!), new RegExp(`\\[${plain.handle}\\]`));
  assert.equal(parts[1]!.type === "text" && parts[1]!.text, "fix the session token check in the auth middleware");
  assert.equal((await cairn.get(plain.id!)).usage.shown, before + 1);
});

test("later steps of the same turn re-attach the cached block without counting it again; a block already present is never doubled", async () => {
  const shown = (await cairn.get(plain.id!)).usage.shown;
  // OpenCode rebuilds messages from storage on each step: a fresh copy without our part.
  const step2 = await run([userMessage("msg_a1", "architect", "fix the session token check in the auth middleware"), assistantMessage("msg_b1", "msg_a1")]);
  assert.equal(step2[0]!.parts.filter((x) => x.type === "text" && x.text.includes(INJECTION_SENTINEL)).length, 1);
  assert.equal((await cairn.get(plain.id!)).usage.shown, shown, "not counted twice for one turn");
  await run(step2);
  assert.equal(step2[0]!.parts.filter((x) => x.type === "text" && x.text.includes(INJECTION_SENTINEL)).length, 1, "idempotent on the same output");
});

test("only the last user message gets the block, even when an earlier turn kept its own", async () => {
  const msgs = await run([
    userMessage("msg_old", "architect", `${INJECTION_SENTINEL}\nan old block a host persisted`),
    assistantMessage("msg_old_a", "msg_old"),
    userMessage("msg_new", "architect", "now the session token in auth middleware"),
  ]);
  assert.equal(msgs[0]!.parts.length, 1);
  assert.match(textOf(msgs[2]!), /cairn:knowledge/);
});

test("a delegated agent gets only the directives that apply to it", async () => {
  const msgs = await run([userMessage("msg_c1", "coder", "change src/auth/session.ts refresh token rotation and the session token middleware")]);
  const text = textOf(msgs[0]!);
  assert.match(text, new RegExp(`\\[${directive.handle}\\]`));
  assert.match(text, /DO: run npm run test:auth/);
  assert.doesNotMatch(text, new RegExp(`\\[${plain.handle}\\]`), "plain lessons stay with the orchestrator");
});

test("directives restricted to other agents are left out", async () => {
  const r = await cairn.add({
    lesson: "Reviewers must reject auth middleware changes that read token claims before the null check in src/auth.",
    directive: { forbidden_actions: ["approve claim reads before the null check"], priority: "high" },
    applicability: { agents: ["reviewer"] },
  });
  const coder = textOf((await run([userMessage("msg_c2", "coder", "auth middleware token claims null check")]))[0]!);
  assert.doesNotMatch(coder, new RegExp(`\\[${r.handle}\\]`));
  const reviewer = textOf((await run([userMessage("msg_r2", "reviewer", "auth middleware token claims null check")]))[0]!);
  assert.match(reviewer, new RegExp(`\\[${r.handle}\\]`));
});

test("budget regimes: a nearly full context gets nothing, a three-quarters full one a shorter block", async () => {
  const full = await run([userMessage("msg_f0", "architect", "auth middleware session token"), assistantMessage("msg_f1", "msg_f0", 126000), userMessage("msg_f2", "architect", "auth middleware session token again")]);
  assert.doesNotMatch(textOf(full[2]!), /cairn:knowledge/);
  const roomy = textOf((await run([userMessage("msg_g0", "architect", "auth middleware session token refresh rotation tests")]))[0]!);
  const tight = await run([userMessage("msg_h0", "architect", "x"), assistantMessage("msg_h1", "msg_h0", 110000), userMessage("msg_h2", "architect", "auth middleware session token refresh rotation tests")]);
  const tightText = textOf(tight[2]!);
  assert.match(tightText, /cairn:knowledge/);
  const count = (s: string) => (s.match(/^- \[/gm) ?? []).length;
  assert.ok(count(tightText) < count(roomy), `quarter regime shows fewer entries (${count(tightText)} < ${count(roomy)})`);
});

test("turns without a user message, or when injection is off, are left alone", async () => {
  const msgs = [assistantMessage("msg_z", "none")];
  await run(msgs);
  assert.equal(msgs[0]!.parts.length, 1);
  const off = await loadPlugin({ inject: false, delegated_directives: false }, p.dir);
  try {
    const m = [userMessage("msg_off", "architect", "auth middleware session token")];
    await off.hook("experimental.chat.messages.transform")({}, { messages: m });
    assert.equal(m[0]!.parts.length, 1);
  } finally {
    await off.close();
  }
});

test("what an orchestrator was shown is remembered for the phase outcome without a file write per turn", async () => {
  const q = await loadPlugin({ orchestrators: ["architect"] });
  writePlan(q.dir, PLAN);
  const c = await q.cairn();
  const e = await c.add({ lesson: "Rotate the refresh token in src/auth/refresh.ts on every use; reuse let stolen tokens live for weeks." });
  const state = path.join(q.dir, ".swarm", "cairn-curator.json");
  await q.hook("experimental.chat.messages.transform")({}, { messages: [userMessage("msg_s1", "architect", "refresh token rotation in src/auth/refresh.ts")] });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(fs.existsSync(state), false, "nothing written during the turn");
  await q.close();
  const saved = JSON.parse(fs.readFileSync(state, "utf8")) as { shown: Record<string, string[]> };
  assert.deepEqual(saved.shown["Phase 2: Session middleware"], [e.id]);
});

test("the plugin matches lessons' tech stack against the project's own (read from its package.json)", async () => {
  fs.mkdirSync(p.dir + "-stack", { recursive: true });
  fs.writeFileSync(path.join(p.dir + "-stack", "package.json"), JSON.stringify({ devDependencies: { typescript: "5.6.0" } }));
  const other = await loadPlugin({ orchestrators: ["architect"] }, p.dir + "-stack");
  try {
    const c = await other.cairn();
    // The same advice for two stacks; the Python one is written first, so words alone would rank it first.
    const py = await c.add({ lesson: "Validate request bodies at the API edge with a schema library before they reach handlers: pydantic models.", category: "security", applicability: { tech_stack: ["python"] } });
    const ts = await c.add({ lesson: "Validate request bodies at the API edge with a schema library before they reach handlers: zod schemas.", category: "security", applicability: { tech_stack: ["typescript"] } });
    assert.equal(ts.action, "added", "two lessons, not one merged");
    const transformOther = other.hook("experimental.chat.messages.transform");
    const messages = [userMessage("msg_stack", "architect", "validate request bodies at the api edge before they reach handlers")];
    await transformOther({}, { messages });
    const text = textOf(messages[0]!);
    assert.ok(text.includes(`[${ts.handle}]`), text);
    const tsAt = text.indexOf(`[${ts.handle}]`);
    const pyAt = text.indexOf(`[${py.handle}]`);
    assert.ok(pyAt === -1 || tsAt < pyAt, `the TypeScript lesson comes first in a TypeScript project:\n${text}`);
  } finally {
    await other.close();
  }
});

