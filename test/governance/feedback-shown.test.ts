// One lesson as every face shows it: helpful/harmful decayed to now (what ranking weighs), not to the last verdict.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";
import { openCairn } from "../../src/index.js";
import { decayedFeedback } from "../../src/lifecycle/feedback.js";

const sb = sandbox();
after(() => sb.cleanup());

const DAY_MS = 86_400_000;

test("cairn show, the lesson page and the MCP entry show helpful feedback faded a year on, as ranking does", async () => {
  const p = sb.project("faded");
  const added = await sb.json(p, "add", "Run the migrations in a transaction so a failed step leaves the schema as it was.");
  assert.equal(added.code, 0, added.stderr);
  // Two helpful verdicts a year ago (four half-lives of 90 days and more), then nothing.
  const yearAgo = new Date(Date.now() - 365 * DAY_MS);
  const past = await openCairn({ projectDir: p, hivePath: sb.hive, env: sb.env, actor: "agent:coder", now: () => yearAgo });
  await past.feedback(added.body.id, "helpful");
  const stored = await past.feedback(added.body.id, "helpful");
  await past.close();
  assert.equal(stored.usage.helpful, 2, "stored sum at the last verdict");
  const ranked = decayedFeedback(stored, new Date(), 90).helpful;
  assert.ok(ranked < 0.2, `ranking has let it fade: ${ranked}`);

  const shown = await sb.json(p, "show", added.body.handle);
  assert.equal(shown.code, 0, shown.stderr);
  const h = shown.body.entry.usage.helpful;
  assert.ok(Math.abs(h - ranked) < 0.01, `cairn show --json: helpful ${h}, ranking uses ${ranked}`);
  const text = await sb.run(p, "show", added.body.handle);
  const usage = /helpful ([\d.]+)/.exec(text.stdout)?.[1];
  assert.ok(usage && Math.abs(Number(usage) - ranked) < 0.01, `cairn show: helpful ${usage}, ranking uses ${ranked}`);

  const now = await openCairn({ projectDir: p, hivePath: sb.hive, env: sb.env, actor: "human:alice" });
  try {
    const detail = await now.lessonDetail(added.body.handle);
    assert.ok(Math.abs(detail.entry.usage.helpful - ranked) < 0.01, `lesson page: helpful ${detail.entry.usage.helpful}`);
    const mcp = await now.shownEntry(await now.get(added.body.handle));
    assert.ok(Math.abs(mcp.usage.helpful - ranked) < 0.01, `MCP entry: helpful ${mcp.usage.helpful}`);
  } finally {
    await now.close();
  }
});
