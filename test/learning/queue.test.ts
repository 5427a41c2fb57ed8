// Acceptance: the reflection queue — kill -9 mid-batch and restart processes every outcome exactly once in effect; re-runs and poison are harmless.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Cairn, Entry } from "../../src/index.js";
import { validateLessonText } from "../../src/quality/gates.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { corpusLessons } from "./fixtures/corpus.js";
import { BAD_RUN, GOOD_RUN, T0, withWorld } from "./helpers.js";
import { runWorker, type WorkerRun } from "../fixtures/workers/sandbox.js";

const OUTCOMES = 40;
const SEEDS = [
  "Wrap every Stripe API call in the billing worker with an idempotency key derived from the invoice id.",
  "Run the Playwright suite against a production build, not the dev server, so hydration bugs show up.",
  "Give each Kafka consumer group its own dead-letter topic so one poison message cannot stall the rest.",
  "Keep feature flags for database migrations separate from product flags so a rollback never flips UI state.",
  "Store money as integer cents in Postgres and convert to decimals only at the API boundary.",
  "Set the Node heap limit explicitly in the container entrypoint so OOM kills turn into heap errors with a stack.",
];

interface Plan {
  id: string;
  lesson: string;
  shown: number[];
  success: boolean;
}

/**
 * Outcome i names three seeds and carries one distinct discovery; every third one fails. Only
 * discoveries the quality gate accepts are used: this test is about the queue, not the gate.
 */
function plans(): Plan[] {
  const lessons = corpusLessons(3 * OUTCOMES)
    .map((l) => `Discovered that ${l.text.charAt(0).toLowerCase()}${l.text.slice(1)}`)
    .filter((text) => validateLessonText(text).ok)
    .slice(0, OUTCOMES);
  assert.equal(lessons.length, OUTCOMES);
  return lessons.map((lesson, i) => ({
    id: `o-${String(i + 1).padStart(2, "0")}`,
    lesson,
    shown: [i % 6, (i + 1) % 6, (i + 3) % 6],
    success: i % 3 !== 0,
  }));
}

async function seed(cairn: Cairn): Promise<string[]> {
  const ids: string[] = [];
  for (const lesson of SEEDS) {
    const r = await cairn.add({ lesson, category: "process" });
    assert.equal(r.action, "added", r.reason);
    ids.push(r.id!);
  }
  return ids;
}

async function enqueue(cairn: Cairn, seeds: string[], all: Plan[]): Promise<void> {
  for (const p of all) {
    const r = await cairn.recordOutcome({
      id: p.id,
      task: `Ticket ${p.id}`,
      ...(p.success ? GOOD_RUN : BAD_RUN),
      files_touched: ["services/ledger/src/billing/worker.ts"],
      evaluation: p.lesson,
      shown_entry_ids: p.shown.map((i) => seeds[i]!),
    });
    assert.deepEqual(r, { id: p.id, queued: true });
  }
}

async function allEntries(cairn: Cairn): Promise<Entry[]> {
  return cairn.list({ tier: "all", limit: 10_000, order: "oldest" });
}

/** What "exactly once in effect" means, checked from the stored state alone. */
async function assertExactlyOnce(cairn: Cairn, seeds: string[], all: Plan[], tolerance: number): Promise<void> {
  const q = await cairn.queue("done", 1000);
  assert.deepEqual(q.counts, { done: OUTCOMES }, "every outcome ended done, none pending, processing or dead");
  assert.deepEqual(q.items.map((i) => i.id).sort(), all.map((p) => p.id));
  // Each outcome's verdict is shared among the seeds it names (learning/reflect.ts), shares saved with the item.
  const shares = new Map(q.items.map((i) => [i.id, i.shares ?? {}]));
  for (let s = 0; s < seeds.length; s++) {
    const e = await cairn.get(seeds[s]!);
    const share = (p: Plan) => {
      const x = shares.get(p.id)?.[seeds[s]!];
      assert.ok(x !== undefined && x > 0 && x <= 1, `${p.id}: a share for seed ${s} was saved (${x})`);
      return x;
    };
    const helpful = all.filter((p) => p.success && p.shown.includes(s)).reduce((sum, p) => sum + share(p), 0);
    const harmful = all.filter((p) => !p.success && p.shown.includes(s)).reduce((sum, p) => sum + share(p), 0);
    assert.ok(Math.abs(e.usage.helpful - helpful) <= tolerance, `seed ${s}: helpful ${e.usage.helpful}, expected ${helpful}`);
    assert.ok(Math.abs(e.usage.harmful - harmful) <= tolerance, `seed ${s}: harmful ${e.usage.harmful}, expected ${harmful}`);
    const events = (await cairn.history(seeds[s]!)).filter((h) => h.type === "feedback" && h.data.implicit === true);
    const perOutcome = new Map<string, number>();
    for (const ev of events) perOutcome.set(String(ev.data.outcome), (perOutcome.get(String(ev.data.outcome)) ?? 0) + 1);
    assert.deepEqual([...perOutcome.values()].filter((n) => n !== 1), [], `seed ${s}: one feedback event per outcome`);
    assert.equal(perOutcome.size, all.filter((p) => p.shown.includes(s)).length, `seed ${s}: a feedback event from every outcome that names it`);
  }
  const entries = await allEntries(cairn);
  const byText = new Map<string, number>();
  for (const e of entries) byText.set(e.lesson, (byText.get(e.lesson) ?? 0) + 1);
  assert.deepEqual([...byText].filter(([, n]) => n > 1), [], "no lesson stored twice");
  for (const p of all) assert.equal(byText.get(p.lesson), 1, `the lesson of ${p.id} was learned once`);
  assert.equal(entries.length, SEEDS.length + OUTCOMES);
}

test("queue: kill -9 mid-item, restart with a short lease — every outcome processed exactly once in effect", async () => {
  await withWorld(async ({ cairn, sb }) => {
    const seeds = await seed(cairn);
    const all = plans();
    await enqueue(cairn, seeds, all);
    const leaseMs = 1000;

    // Three effects per outcome: the 25th is the first of the ninth outcome, so the worker stalls inside it.
    const first: WorkerRun = runWorker("reflect-worker.ts", [sb.projectDir, sb.hivePath, new Date(T0).toISOString(), String(leaseMs), "25"], sb.env);
    await first.waitForLine(/^STALLED$/);
    assert.equal((await cairn.queue()).counts.done, 8, "eight outcomes done when the worker stalls");
    first.child.kill("SIGKILL");
    const exit = await first.done;
    assert.equal(exit.signal, "SIGKILL");
    assert.ok(!exit.stdout.includes("DONE"), "the first worker did not finish");

    const atKill = await cairn.queue("processing");
    assert.equal(atKill.items.length, 1, "one outcome was in flight");
    const inFlight = atKill.items[0]!.id;
    const lastEffect = exit.stdout.split("\n").filter((l) => l.startsWith("APPLIED ")).at(-1)!;
    assert.match(lastEffect, new RegExp(`^APPLIED outcome:${inFlight}:feedback:`), "it had already applied part of its effects");
    const doneAtKill = atKill.counts.done ?? 0;
    assert.equal(doneAtKill, 8, "killed mid-batch");

    // The lease was recorded on the first worker's clock; the second one's clock is past it.
    const second = runWorker("reflect-worker.ts", [sb.projectDir, sb.hivePath, new Date(T0 + 5 * leaseMs).toISOString(), String(leaseMs), "0"], sb.env);
    const end = await second.done;
    assert.equal(end.code, 0, end.stderr);
    const report = JSON.parse(end.stdout.split("\n").find((l) => l.startsWith("REPORT "))!.slice(7)) as { processed: number; dead: number };
    assert.deepEqual([report.processed, report.dead], [OUTCOMES - doneAtKill, 0]);
    assert.ok(end.stdout.includes(`CLAIMED ${inFlight}`), "the in-flight outcome was reclaimed after its lease");
    const reclaimed = (await cairn.queue("done", 1000)).items.find((i) => i.id === inFlight)!;
    assert.equal(reclaimed.attempts, 2);

    // The second worker's clock is 5 s later: a 90-day half-life decays the earlier sums by ~1e-7, a double count by 1.
    await assertExactlyOnce(cairn, seeds, all, 1e-5);

    // And the resumed run ends where one never interrupted does: the in-flight item kept the shares it
    // had decided, though some of its lessons already carried its verdict when it was taken up again.
    const resumed = await Promise.all(seeds.map((id) => cairn.get(id)));
    await withWorld(async ({ cairn: calm }) => {
      const calmSeeds = await seed(calm);
      await enqueue(calm, calmSeeds, all);
      assert.equal((await calm.reflect({ maxItems: 10_000 })).processed, OUTCOMES);
      for (let s = 0; s < seeds.length; s++) {
        const e = await calm.get(calmSeeds[s]!);
        assert.ok(Math.abs(e.usage.helpful - resumed[s]!.usage.helpful) <= 1e-5, `seed ${s}: helpful ${resumed[s]!.usage.helpful} resumed, ${e.usage.helpful} uninterrupted`);
        assert.ok(Math.abs(e.usage.harmful - resumed[s]!.usage.harmful) <= 1e-5, `seed ${s}: harmful ${resumed[s]!.usage.harmful} resumed, ${e.usage.harmful} uninterrupted`);
      }
    });
  });
});

test("queue: re-recording an outcome is refused, and re-running processed outcomes changes nothing", async () => {
  await withWorld(async ({ cairn }) => {
    const seeds = await seed(cairn);
    const all = plans();
    await enqueue(cairn, seeds, all);
    const first = await cairn.reflect();
    assert.deepEqual([first.processed, first.failed, first.dead, first.lessons_added], [OUTCOMES, 0, 0, OUTCOMES]);
    // Stored sums are kept to a thousandth (feedback.ts roundSum), so they equal the shares' float sum
    // only to rounding error; applying an outcome twice would be off by a whole share.
    await assertExactlyOnce(cairn, seeds, all, 1e-9);
    const snapshot = JSON.stringify(await allEntries(cairn));

    const again = await cairn.recordOutcome({ id: all[4]!.id, task: "Ticket again", ...GOOD_RUN, shown_entry_ids: [seeds[0]!] });
    assert.deepEqual(again, { id: all[4]!.id, queued: false });
    assert.equal((await cairn.reflect()).processed, 0);

    // Force every item back to pending, as a processor that crashed after its effects but before `done` would leave it.
    const raw = new SqliteStore(cairn.swarmPath, "swarm");
    try {
      raw.driver.run("UPDATE reflection_queue SET status = 'pending'");
    } finally {
      await raw.close();
    }
    const rerun = await cairn.reflect();
    assert.deepEqual([rerun.processed, rerun.entries_scored, rerun.lessons_added], [OUTCOMES, 0, 0]);
    assert.equal(JSON.stringify(await allEntries(cairn)), snapshot, "no entry changed at all");
    await assertExactlyOnce(cairn, seeds, all, 1e-9);
  });
});

test("queue: a poison payload is dead-lettered with its error after max attempts and blocks nothing", async () => {
  await withWorld(
    async ({ cairn, clock }) => {
      const seeds = await seed(cairn);
      const raw = new SqliteStore(cairn.swarmPath, "swarm");
      try {
        // Older than the good ones, so it is claimed first every time.
        assert.equal(await raw.enqueueOutcome("poison-1", { task: 42, success: "yes" }, new Date(T0 - 1000).toISOString()), true);
      } finally {
        await raw.close();
      }
      for (let i = 0; i < 3; i++) {
        await cairn.recordOutcome({ id: `ok-${i}`, task: `Ticket ${i}`, ...GOOD_RUN, shown_entry_ids: [seeds[i]!] });
      }
      // A failure is retried with backoff, not within the same drain: the good items are not held up.
      const first = await cairn.reflect();
      assert.deepEqual([first.processed, first.dead, first.failed], [3, 0, 1], "first attempt fails, the rest go through");
      assert.equal((await cairn.reflect()).failed, 0, "not retried before its backoff ends");
      const later = { processed: 0, dead: 0, failed: 0 };
      for (let i = 0; i < 2; i++) {
        clock.t += 3_600_000;
        const r = await cairn.reflect();
        later.processed += r.processed;
        later.dead += r.dead;
        later.failed += r.failed;
      }
      assert.deepEqual([later.processed, later.dead, later.failed], [0, 1, 1], "one more retry, then dead");
      const { counts, items } = await cairn.queue("dead");
      assert.deepEqual(counts, { done: 3, dead: 1 });
      assert.equal(items[0]!.id, "poison-1");
      assert.equal(items[0]!.attempts, 3);
      assert.match(items[0]!.last_error ?? "", /task/);
      for (let i = 0; i < 3; i++) assert.equal((await cairn.get(seeds[i]!)).usage.helpful, 1);
      // Dead stays dead: a later drain does not pick it up again.
      clock.t += 3_600_000;
      assert.equal((await cairn.reflect()).processed + (await cairn.reflect()).dead, 0);
      assert.equal((await cairn.stats()).queue.dead, 1);
    },
    { learning: { reflection_max_attempts: 3 } },
  );
});
