// A verdict replayed from the outbox keeps the hive lesson's later revalidation: only clocks past the present are pulled back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { replayOutbox, teamHive } from "../../src/hive/outbox.js";
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
