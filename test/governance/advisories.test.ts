// Pre-action advisories: globs and detection patterns of vetted lessons, bounded matching, consultations, the rule cache.
import { costRatioAsync, cpuMicros } from "../helpers/cost.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openCairn } from "../../src/index.js";
import { compilePattern, patternText } from "../../src/governance/patterns.js";
import { renderAdvisories } from "../../src/governance/advisories.js";
import { AUTH_STRUCTURED, openEnv, tool } from "./helpers.js";
import type { Cairn } from "../../src/index.js";

/** Adds and approves: only established/promoted lessons advise. */
async function vetted(c: Cairn, input: Parameters<Cairn["add"]>[0]): Promise<string> {
  const r = await c.add(input);
  assert.equal(r.action, "added", r.reason);
  await c.approve(r.id!);
  return r.id!;
}

test("a glob match and a pattern match return the prevention rule; a candidate or draft never advises", async () => {
  const env = await openEnv();
  try {
    const candidate = await env.human.add({ lesson: "Files under src/billing/ must round money with roundHalfEven from lib/money, never Math.round.", applicability: { file_globs: ["src/billing/**"] } });
    assert.deepEqual(await env.agent.checkAdvisories({ files: ["src/billing/invoice.ts"] }), [], "a candidate does not advise");
    await env.human.approve(candidate.id!);
    const globOnly = await env.agent.checkAdvisories({ files: [path.join(env.sb.projectDir, "src/billing/invoice.ts")] });
    assert.equal(globOnly.length, 1, "absolute paths inside the project match relative globs");
    assert.equal(globOnly[0]!.matched, "glob");
    assert.equal(globOnly[0]!.on, "src/billing/invoice.ts");

    const id = await vetted(env.human, { ...AUTH_STRUCTURED });
    const byPattern = await env.agent.checkAdvisories({ tool: "edit", files: ["src/auth/session.ts"], text: "const exp = token.exp * 1000;" });
    assert.equal(byPattern.length, 1);
    assert.equal(byPattern[0]!.id, id);
    assert.equal(byPattern[0]!.matched, "pattern");
    assert.equal(byPattern[0]!.pattern_kind, "regex");
    assert.equal(byPattern[0]!.rule, AUTH_STRUCTURED.prevention.rule);
    assert.equal(byPattern[0]!.why, AUTH_STRUCTURED.why);
    // The file glob scopes the pattern: the same text in another file is not about this lesson.
    assert.deepEqual(await env.agent.checkAdvisories({ files: ["src/ui/button.ts"], text: "token.exp" }), []);
    // No files (a shell command): the pattern alone decides.
    const bash = await env.agent.checkAdvisories({ tool: "bash", text: "node -e 'console.log(token.claims)'" });
    assert.deepEqual(bash.map((a) => a.id), [id]);
    assert.deepEqual(await env.agent.checkAdvisories({ tool: "bash", text: "npm test" }), []);
    const block = renderAdvisories(byPattern);
    assert.match(block, /Cairn advisory/);
    assert.ok(block.includes(byPattern[0]!.handle));
  } finally {
    await env.close();
  }
});

test("matches count as consultations for agents (usage and an event), not for a person's check", async () => {
  const env = await openEnv();
  try {
    const id = await vetted(env.human, { ...AUTH_STRUCTURED });
    await env.human.checkAdvisories({ files: ["src/auth/a.ts"] });
    assert.equal((await env.human.get(id)).usage.consulted, 0);
    await env.agent.checkAdvisories({ files: ["src/auth/a.ts"], sessionId: "ses_1", tool: "write" });
    await env.agent.checkAdvisories({ files: ["src/auth/a.ts"], text: "token.claims" });
    const e = await env.human.get(id);
    assert.equal(e.usage.consulted, 2);
    assert.ok(e.usage.last_consulted_at);
    const events = (await env.human.history(id)).filter((x) => x.type === "consulted");
    assert.deepEqual(events.map((x) => x.data.matched), ["glob", "pattern"]);
    assert.equal(events[0]!.data.session_id, "ses_1");
    assert.equal(events[0]!.actor, "agent:coder");
    await env.agent.checkAdvisories({ files: ["src/auth/a.ts"], record: false });
    assert.equal((await env.human.get(id)).usage.consulted, 2);
  } finally {
    await env.close();
  }
});

test("a hostile regex cannot stall a check, and text beyond the cap is not read", async () => {
  const env = await openEnv();
  try {
    await vetted(env.human, {
      lesson: "Input validators in src/validate must not use nested quantifiers; a crafted string hung the signup endpoint for minutes.",
      prevention: { rule: "Use linear-time patterns in validators.", detection_pattern: "(a+)+$" },
    });
    // Warm the rule cache so the measurement is the match itself.
    await env.agent.checkAdvisories({ text: "x", record: false });
    // A backtracking engine would need ~2^39 steps here and never return; RE2 answers at once.
    const hostile = "a".repeat(39) + "!";
    const r1 = await env.agent.checkAdvisories({ tool: "bash", text: hostile });
    assert.equal(r1.length, 0, "(a+)+$ does not match a string ending in !");
    // Only the first 64 KB are read, so 5 MB costs about what 100 KB does (reading it all would be ~50×).
    const check = (text: string) => () => env.agent.checkAdvisories({ tool: "bash", text, record: false });
    const ratio = await costRatioAsync(check("a".repeat(5_000_000) + "!"), check("a".repeat(100_000) + "!"), { recheckAbove: 8 });
    assert.ok(ratio < 8, `5 MB cost ${ratio.toFixed(1)}× as much CPU as 100 KB`);
    // Only the first 64 KB are read: a match past it is not seen.
    await vetted(env.human, { lesson: "Never call process.exit inside request handlers of the api server; it drops every in-flight request.", prevention: { detection_pattern: "process\\.exit\\(" } });
    assert.equal((await env.agent.checkAdvisories({ text: "x".repeat(70_000) + "process.exit(1)" })).length, 0);
    assert.equal((await env.agent.checkAdvisories({ text: "process.exit(1)" })).length, 1);
  } finally {
    await env.close();
  }
});

test("a command phrase advises however the agent spaces the command", async () => {
  const env = await openEnv();
  try {
    const id = await vetted(env.human, {
      lesson: "Never run prisma migrate reset against the shared staging database; it drops every table.",
      category: "tooling",
      prevention: { rule: "Use prisma migrate deploy on shared databases.", detection_pattern: "prisma migrate reset" },
    });
    for (const text of ["npx prisma migrate reset --force", "npx prisma migrate  reset", "npx prisma   migrate\treset"]) {
      const a = await env.agent.checkAdvisories({ tool: "bash", text });
      assert.deepEqual(a.map((x) => x.id), [id], JSON.stringify(text));
    }
  } finally {
    await env.close();
  }
});

test("patterns: RE2 regex, glob, keyword list; a backreference pattern falls back to keywords", () => {
  const backref = compilePattern("(token)\\.claims\\s*=\\s*\\1");
  assert.equal(backref?.kind, "keywords");
  const m = (p: ReturnType<typeof compilePattern>, t: string) => p!.matchText(t, t.toLowerCase());
  assert.equal(m(backref, "token.claims = token"), true);
  assert.equal(m(backref, "token only"), false, "every literal word must appear");
  assert.equal(compilePattern("src/auth/**")?.kind, "glob");
  assert.equal(compilePattern("src/auth/**")!.matchFile("src/auth/a/b.ts"), true);
  assert.equal(compilePattern("*.config.ts")!.matchFile("apps/web/vite.config.ts"), true);
  const kw = compilePattern("refreshToken, session store");
  assert.equal(kw?.kind, "keywords");
  assert.equal(m(kw, "the Session Store is empty"), true);
  assert.equal(compilePattern("kw: ab"), undefined, "keywords shorter than 3 characters match nothing");
  // Spacing is no way around a phrase: a doubled space, a tab or a line break between its words still matches.
  const phrase = compilePattern("prisma migrate reset");
  const spaced = (t: string) => phrase!.matchText(t, patternText(t));
  for (const t of ["npx prisma migrate reset --force", "npx prisma migrate  reset", "npx prisma\tmigrate reset", "npx prisma migrate\n  reset"]) {
    assert.equal(spaced(t), true, JSON.stringify(t));
  }
  assert.equal(spaced("npx prisma migrate deploy"), false);
  assert.equal(compilePattern("x".repeat(301)), undefined, "over-long patterns are ignored");
});

test("keywords match where a word starts: \"eval(\" does not fire on retrieval(q), \"user\" not on superuser; camelCase and prefixes still match", () => {
  const m = (p: string, t: string) => compilePattern(p)!.matchText(t, patternText(t));
  assert.equal(m("kw: eval(", "const hits = retrieval(query);"), false, "retrieval( is not eval(");
  assert.equal(m("kw: eval(", "medieval(history)"), false);
  assert.equal(m("kw: eval(", "return eval(userInput);"), true);
  assert.equal(m("kw: eval(", "window.eval(code)"), true);
  assert.equal(m("kw: user", "grant superuser to the role"), false);
  assert.equal(m("kw: user", "select username from accounts"), true, "a keyword still matches the start of a longer word");
  assert.equal(m("kw: token", "const t = session.refreshToken;"), true, "the start of a camelCase part is the start of a word");
  assert.equal(m("kw: token", "const t = session.refreshtoken;"), false);
  // The literal words of a regex RE2 cannot run are held to the same rule.
  const backref = "(token)\\.claims\\s*=\\s*\\1";
  assert.equal(m(backref, "token.claims = token"), true);
  assert.equal(m(backref, "mytoken.otherclaims = x"), false);
});

test("a regex RE2 runs in linear but huge time (a counted repeat: a 4,000-step program) cannot stall a check: it is matched by its words, and a write warns", async () => {
  // RE2 is linear in the text, times the program: "(?:\\w+\\s*){999}\\d" is ~4,000 steps per character,
  // seconds on a 64 KB text, in one call the check's 50 ms budget cannot interrupt.
  const words = ("ab ".repeat(22_000)).slice(0, 65_536);
  const hostile = compilePattern("(?:\\w+\\s*){999}token\\d")!;
  assert.equal(hostile.kind, "keywords", "matched by its words, as a regex RE2 cannot compile is");
  assert.equal(hostile.matchText("the token is read", "the token is read"), true);
  const simple = compilePattern("token\\.(claims|payload)")!;
  const ratio = cpuMicros(() => hostile.matchText(words, words), { calls: 1, batches: 3 }) / Math.max(cpuMicros(() => simple.matchText(words, words), { calls: 1, batches: 3 }), 200);
  assert.ok(ratio < 20, `the counted-repeat pattern cost ${ratio.toFixed(0)}× a plain one on the same 64 KB`);
  // A usable regex of ordinary size stays a regex.
  assert.equal(compilePattern("(?:api|secret)_?key\\s*[:=]\\s*['\"][A-Za-z0-9]{16,40}['\"]")!.kind, "regex");
  const env = await openEnv();
  try {
    const warned = await env.human.add({
      lesson: "In scripts/seed.ts batch the inserts in groups of 500 rows; one insert per row made the seed step take twenty minutes.",
      prevention: { detection_pattern: "(?:\\w+\\s*){999}insert\\d" },
    });
    assert.equal(warned.action, "added", warned.reason);
    assert.ok(warned.issues.some((i) => i.code === "detection_pattern_keywords" && /too large/.test(i.message)), JSON.stringify(warned.issues));
    await env.human.approve(warned.id!);
    assert.equal((await env.agent.checkAdvisories({ text: "db.insert(row)", record: false })).length, 1, "advises by its word");
    // With no word to fall back on it is refused, as a regex RE2 cannot compile is.
    const refused = await env.human.add({
      lesson: "In scripts/import.ts stream the CSV rows instead of reading the file whole; a 2 GB export ran the worker out of memory.",
      prevention: { detection_pattern: "(?:\\w+\\s*){999}\\d" },
    });
    assert.equal(refused.action, "rejected", JSON.stringify(refused));
    assert.match(refused.reason ?? "", /too large/);
  } finally {
    await env.close();
  }
});

test("a stored backreference pattern advises by its keywords; a write warns about it", async () => {
  const env = await openEnv();
  try {
    const r = await env.human.add({
      lesson: "Do not assign a JWT claims object back onto the token in src/auth; the cycle breaks JSON serialisation of sessions.",
      prevention: { detection_pattern: "(token)\\.claims\\s*=\\s*\\1" },
    });
    assert.ok(r.issues.some((i) => i.code === "detection_pattern_keywords"), JSON.stringify(r.issues));
    await env.human.approve(r.id!);
    assert.equal((await env.agent.checkAdvisories({ text: "token.claims = token" })).length, 1);
    assert.equal((await env.agent.checkAdvisories({ text: "claims only here" })).length, 0);
  } finally {
    await env.close();
  }
});

test("the rule cache reloads after a rule changes, including a change made by another process's connection", async () => {
  const env = await openEnv();
  try {
    assert.deepEqual(await env.agent.checkAdvisories({ files: ["src/auth/x.ts"] }), []);
    // Written and approved through the other engine (its own connections), as the CLI would.
    const id = await vetted(env.human, { ...AUTH_STRUCTURED });
    assert.equal((await env.agent.checkAdvisories({ files: ["src/auth/x.ts"] })).length, 1);
    await env.human.archive(id, "the auth module was rewritten");
    assert.deepEqual(await env.agent.checkAdvisories({ files: ["src/auth/x.ts"] }), []);
    // Usage updates do not move the rules version (the cache survives consultations).
    const other = await openCairn({ projectDir: env.sb.projectDir, hivePath: env.sb.hivePath, env: env.sb.env, actor: "human:bob" });
    try {
      await vetted(other, { ...AUTH_STRUCTURED, lesson: `${AUTH_STRUCTURED.lesson} Applies to refresh tokens too.` });
    } finally {
      await other.close();
    }
    assert.equal((await env.agent.checkAdvisories({ files: ["src/auth/x.ts"] })).length, 1);
  } finally {
    await env.close();
  }
});

test("enforced entries come first and mark the result blocking; tools and projects scope an entry", async () => {
  const env = await openEnv();
  try {
    await vetted(env.human, { lesson: "Edits under migrations/ must add a new numbered file; editing an applied migration corrupts every existing database.", applicability: { file_globs: ["migrations/**"] }, directive: { enforcement: "enforce" } });
    await vetted(env.human, { lesson: "SQL files under migrations/ are reviewed by the data team; mention the ticket number in the file header.", applicability: { file_globs: ["migrations/*.sql"] } });
    await vetted(env.human, { lesson: "Only the bash tool should run migrations in the scratch database; the edit tool touching migrations is fine.", applicability: { file_globs: ["migrations/**"], tools: ["bash"] } });
    await vetted(env.human, { lesson: "In the payments project, migrations need a rollback script next to them in migrations/rollback.", applicability: { file_globs: ["migrations/**"], projects: ["payments"] } });
    const r = await env.agent.checkAdvisories({ tool: "edit", files: ["migrations/0003_add_orders.sql"] });
    assert.equal(r.length, 2, JSON.stringify(r.map((a) => a.rule)));
    assert.equal(r[0]!.enforcement, "enforce");
    const viaTool = await tool(env.agent, "knowledge_check", { files: ["migrations/0003_add_orders.sql"], tool: "edit" });
    assert.equal(viaTool.data.blocking, true);
    assert.match(viaTool.text, /\[enforced\]/);
    assert.equal((await env.agent.checkAdvisories({ tool: "bash", files: ["migrations/0003_add_orders.sql"] })).length, 3);
  } finally {
    await env.close();
  }
});

test("a lesson promoted onto a hive lesson another project put there advises once (cairn check, knowledge_check), by its promotion event", async () => {
  const env = await openEnv();
  try {
    // Another project's lesson reached the hive first (its promoted_from names that project's entry, or nothing).
    const first = await env.human.promote({ lesson: { ...AUTH_STRUCTURED } });
    assert.equal(first.action, "added", first.reason);
    const hive = first.id!;
    await env.human.approve(hive).catch(() => undefined);
    // This project learns the same lesson; promoting it reinforces the hive lesson: the link is only in the `promoted` event.
    const original = await vetted(env.human, { ...AUTH_STRUCTURED });
    const promoted = await env.human.promote({ id: original });
    assert.equal(promoted.action, "reinforced", promoted.reason);
    assert.equal(promoted.id, hive);
    assert.equal((await env.human.get(hive)).provenance.promoted_from, undefined, "no lineage on the hive lesson");
    const advised = await env.agent.checkAdvisories({ tool: "edit", files: ["src/auth/session.ts"], text: "const exp = token.exp * 1000;" });
    assert.deepEqual(advised.map((a) => a.id), [hive], `one advisory: ${advised.map((a) => `${a.handle} ${a.tier}`).join(", ")}`);
    assert.equal((await env.human.get(original)).usage.consulted, 0);
    const related = await env.human.related({ files: ["src/auth/session.ts"], tags: ["auth"] });
    assert.deepEqual(related.map((r) => r.entry.id), [hive], "related lists the lesson once too");
    const viaTool = await tool(env.agent, "knowledge_check", { tool: "edit", files: ["src/auth/session.ts"] });
    assert.equal((viaTool.text.match(/\[[SH]-\d+\]/g) ?? []).length, 1, viaTool.text);
    // Only the original marked enforce: it advises in the copy's place, never beside it.
    await env.human.edit(original, { enforcement: "enforce" });
    const enforced = await env.agent.checkAdvisories({ tool: "edit", files: ["src/auth/session.ts"], record: false });
    assert.deepEqual(enforced.map((a) => [a.id, a.enforcement]), [[original, "enforce"]]);
  } finally {
    await env.close();
  }
});

test("knowledge_check refuses an empty call and reports no advisories plainly", async () => {
  const env = await openEnv();
  try {
    await assert.rejects(tool(env.agent, "knowledge_check", {}), /files, text, or both/);
    const r = await tool(env.agent, "knowledge_check", { files: ["README.md"] });
    assert.equal(r.data.count, 0);
    assert.match(r.text, /No recorded lesson applies/);
  } finally {
    await env.close();
  }
});

test("a promoted lesson advises once, as its hive copy, not once per tier (cairn check, knowledge_check, cairn related)", async () => {
  const env = await openEnv();
  try {
    const original = await vetted(env.human, { ...AUTH_STRUCTURED });
    const promoted = await env.human.promote({ id: original });
    assert.equal(promoted.action, "added", promoted.reason);
    const copy = promoted.id!;
    await env.human.approve(copy);
    const other = await vetted(env.human, {
      lesson: "Files under src/auth/ must log the session id, never the raw token, when a login fails.",
      prevention: { rule: "Log the session id, never the token, on a failed login." },
      applicability: { file_globs: ["src/auth/**"] },
    });
    const advised = await env.agent.checkAdvisories({ tool: "edit", files: ["src/auth/session.ts"], text: "const exp = token.exp * 1000;" });
    assert.deepEqual(advised.map((a) => a.id).sort(), [copy, other].sort(), `one advisory per lesson: ${advised.map((a) => `${a.handle} ${a.tier}`).join(", ")}`);
    // Only the copy agents were warned with counts the consultation: the original is its record of origin.
    assert.equal((await env.human.get(original)).usage.consulted, 0);
    assert.equal((await env.human.get(copy)).usage.consulted, 1);
    const related = await env.human.related({ files: ["src/auth/session.ts"], tags: ["auth"] });
    assert.deepEqual(related.map((r) => r.entry.id).sort(), [copy, other].sort(), "related lists the lesson once too");
    // A person who marks only the original `enforce` is never overruled by the copy's warning.
    await env.human.edit(original, { enforcement: "enforce" });
    const enforced = await env.agent.checkAdvisories({ tool: "edit", files: ["src/auth/session.ts"], record: false });
    assert.deepEqual(enforced.map((a) => [a.id, a.enforcement]), [[original, "enforce"], [other, "warn"]]);
  } finally {
    await env.close();
  }
});
