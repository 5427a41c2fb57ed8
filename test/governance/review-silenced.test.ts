// A lesson agents' verdicts silenced (no longer injected, lifecycle/feedback.ts isDiscredited) waits in the person's review queue: a person sees what agents hid.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { DAY, withWorld } from "../learning/helpers.js";
import { sandbox } from "../helpers/cli.js";

const REDIS = "Pin the Redis client's reconnect backoff to a ceiling so a flapping primary cannot stall the queue workers.";
const OTHER = "Give each queue worker its own Redis connection; a shared client serialises the workers' blocking pops.";
const TASK = { task: "tune the Redis client reconnect backoff for the queue workers" };

const sb = sandbox();
after(() => sb.cleanup());

test("engine: a lesson agents' harmful verdicts silenced is in the review queue; a lesson merely judged once is not; a person's approval takes it off", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const { id } = await cairn.add({ lesson: REDIS, category: "tooling" });
    const other = await cairn.add({ lesson: OTHER, category: "tooling" });
    await cairn.feedback(other.id!, "harmful", undefined, "agent:coder");
    for (let i = 0; i < 20; i++) await cairn.feedback(id!, "harmful", undefined, "agent:coder");
    const injected = (await cairn.inject(TASK, { recordShown: false })).entries.map((e) => e.id);
    assert.ok(!injected.includes(id!), "precondition: the verdicts silenced it");

    const queue = await cairn.reviewQueue();
    const item = queue.items.find((i) => i.entry.id === id);
    assert.ok(item, `the silenced lesson is not in the review queue: ${JSON.stringify(queue.items.map((i) => [i.entry.handle, i.reasons]))}`);
    const reason = item.reasons.find((r) => r.kind === "silenced");
    assert.ok(reason && reason.kind === "silenced", JSON.stringify(item.reasons));
    assert.equal(reason.harmful, 20);
    assert.equal(queue.counts.silenced, 1);
    assert.ok(!queue.items.some((i) => i.entry.id === other.id && i.reasons.some((r) => r.kind === "silenced")), "one harmful verdict does not silence");

    // As the verdicts fade it is injected again, and leaves the queue with them.
    clock.t += 5 * 365 * DAY;
    assert.ok(!(await cairn.reviewQueue()).items.some((i) => i.entry.id === id), "faded verdicts: no longer silenced, no longer queued");
    clock.t -= 5 * 365 * DAY;

    await cairn.approve(id!, "human:ann");
    assert.ok(!(await cairn.reviewQueue()).items.some((i) => i.entry.id === id), "a person approved it: off the queue");
  });
});

test("cli: `cairn review --list` and `--json` show a silenced lesson with its verdicts", async () => {
  const p = sb.project("review-silenced");
  const added = await sb.json(p, "add", REDIS);
  assert.equal(added.body.action, "added", added.stderr);
  for (let i = 0; i < 4; i++) {
    const fb = await sb.json(p, "feedback", added.body.handle, "harmful");
    assert.equal(fb.code, 0, fb.stderr);
  }
  const json = await sb.json(p, "review");
  assert.equal(json.code, 0, json.stdout + json.stderr);
  const item = (json.body.items as Array<{ entry: { id: string }; reasons: Array<{ kind: string }> }>).find((i) => i.entry.id === added.body.id);
  assert.ok(item?.reasons.some((r) => r.kind === "silenced"), JSON.stringify(json.body));
  const text = await sb.run(p, "review", "--list");
  assert.equal(text.code, 0, text.stdout + text.stderr);
  assert.match(text.stdout, new RegExp(`${added.body.handle}\\b.*silenced`), text.stdout);
  assert.match(text.stdout, /1 silenced/, text.stdout);
});
