// A verdict replayed from the outbox keeps the hive lesson's later revalidation: only clocks past the present are pulled back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { replayOutbox, teamHive } from "../../src/hive/outbox.js";
import { decayedFeedback } from "../../src/lifecycle/feedback.js";
import type { Services } from "../../src/services.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

test("an outbox verdict older than the lesson's last revalidation leaves the revalidation where it is", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("fbclock");
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, env: sb.env, actor: "human:ann", config: { hive_url: url, hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 } } });
  try {
    const added = await cairn.add({ lesson: "Run the Prisma migrate deploy step before the app container starts, or the new columns are missing at boot.", category: "tooling" }, { tier: "hive" });
    await cairn.archive(added.id!, "parked");
    const restored = await cairn.restore(added.id!);
    const revalidated = restored.lifecycle.revalidated_at!;
    assert.ok(revalidated);
    // A verdict given an hour before the restore, while this machine could not reach the hive, replays now.
    const s = (cairn as unknown as { services: Services }).services;
    const at = new Date(Date.parse(revalidated) - 3_600_000).toISOString();
    await s.swarm.enqueueOutbox("late-1", "feedback", { ref: added.id, verdict: "helpful", actor: "human:ann", at }, at);
    await replayOutbox(s, teamHive(s)!.remote);
    const e = await cairn.get(added.id!);
    assert.equal(e.usage.helpful, 1, "the verdict applied");
    assert.equal(e.lifecycle.revalidated_at, revalidated, "the restore's revalidation was moved back to the replayed verdict's time");
  } finally {
    await cairn.close();
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
});

test("regression: a verdict replayed from the outbox after a later one keeps its own time: the later verdict's clock stays, and the old verdict counts decayed from when it was given", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("fbclock");
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, env: sb.env, actor: "human:ann", config: { hive_url: url, hive_postgres: { schema, read_timeout_ms: 10_000, connect_timeout_ms: 30_000 } } });
  try {
    const added = await cairn.add({ lesson: "Set statement_timeout on the reporting role so a runaway dashboard query cannot hold locks for hours.", category: "performance" }, { tier: "hive" });
    const s = (cairn as unknown as { services: Services }).services;
    const halfLife = s.config.knowledge.feedback_half_life_days;
    // A helpful verdict reaches the hive now; a harmful one given a half-life earlier, on a machine that was offline, replays after it.
    const fresh = await cairn.feedback(added.id!, "helpful");
    const lastFeedback = fresh.usage.last_feedback_at!;
    const at = new Date(Date.parse(lastFeedback) - halfLife * 86_400_000).toISOString();
    await s.swarm.enqueueOutbox("late-2", "feedback", { ref: added.id, verdict: "harmful", actor: "human:bob", at }, at);
    await replayOutbox(s, teamHive(s)!.remote);
    const e = await cairn.get(added.id!);
    assert.equal(e.usage.last_feedback_at, lastFeedback, "the replay set the lesson's feedback clock back to the replayed verdict's time");
    const d = decayedFeedback(e, new Date(lastFeedback), halfLife);
    assert.equal(d.helpful, 1, `the verdict given last keeps its whole weight (helpful ${d.helpful})`);
    assert.equal(d.harmful, 0.5, `the replayed verdict counts as given a half-life before (harmful ${d.harmful})`);
  } finally {
    await cairn.close();
    await dropSchema(url, schema);
    removeSandbox(sb);
  }
});
