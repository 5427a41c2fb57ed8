// Unit and engine tests of feedback: half-life decay on the injected clock, the 0.1 floor, revalidation, violation escalation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decayedFeedback, decayFactor, FEEDBACK_FLOOR, hasNegativeFeedback, NEUTRAL_PRIOR_VOTES as P } from "../../src/lifecycle/feedback.js";
import { feedbackFactor } from "../../src/retrieval/weights.js";
import { DAY, T0, withWorld } from "./helpers.js";

const close = (a: number, b: number, msg?: string) => assert.ok(Math.abs(a - b) < 1e-9, `${msg ?? ""} ${a} ≠ ${b}`);

test("decay factor is 0.5 ^ (age / half_life) and never grows for a clock that runs backwards", () => {
  const from = new Date(T0).toISOString();
  close(decayFactor(from, new Date(T0), 90), 1);
  close(decayFactor(from, new Date(T0 + 30 * DAY), 90), Math.pow(0.5, 30 / 90));
  close(decayFactor(from, new Date(T0 + 90 * DAY), 90), 0.5);
  close(decayFactor(from, new Date(T0 + 270 * DAY), 90), 0.125);
  close(decayFactor(from, new Date(T0 + 10 * DAY), 10), 0.5, "the half-life is a parameter");
  close(decayFactor(from, new Date(T0 - 5 * DAY), 90), 1);
  close(decayFactor(undefined, new Date(T0), 90), 1);
});

test("engine: older verdicts weigh less than newer ones, by the configured half-life on the injected clock", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const half = cairn.config.knowledge.feedback_half_life_days;
    const { id } = await cairn.add({ lesson: "Pin the Postgres major version in docker-compose so local and CI databases behave the same.", category: "tooling" });
    await cairn.feedback(id!, "harmful");
    clock.t += half * DAY;
    let e = await cairn.feedback(id!, "helpful");
    // The harmful verdict is one half-life old when the helpful one lands.
    close(e.usage.harmful, 0.5);
    close(e.usage.helpful, 1);
    const now = decayedFeedback(e, new Date(clock.t), half).weight;
    close(now, (1 + P / 2) / (1.5 + P));
    // Both decay together afterwards: the sums shrink, and with them the weight returns toward neutral.
    const later = decayedFeedback(e, new Date(clock.t + 2 * half * DAY), half);
    close(later.helpful, 0.25);
    close(later.harmful, 0.125);
    close(later.weight, (0.25 + P / 2) / (0.375 + P));
    assert.ok(later.weight < now && later.weight > 0.5, "fading verdicts move the weight toward 0.5");
    // Ranking reads the same weight through the engine's clock: it multiplies the score by 0.5 + weight.
    const hit = (await cairn.recall("Postgres major version docker-compose")).find((h) => h.entry.id === id);
    const factor = feedbackFactor(now);
    close(hit!.breakdown.feedback!, (hit!.score / factor) * (factor - 1));
    e = await cairn.get(id!);
    assert.equal(e.usage.last_feedback_at, new Date(clock.t).toISOString(), "the injected clock stamps feedback");
  });
});

test("engine: the weight never falls below the 0.1 floor, and no feedback at all is neutral (0.5)", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const { id } = await cairn.add({ lesson: "Run the Flyway repair command only after checking which migration checksum changed.", category: "tooling" });
    close(decayedFeedback(await cairn.get(id!), new Date(clock.t), 90).weight, 0.5);
    await cairn.feedback(id!, "helpful");
    for (let i = 0; i < 30; i++) await cairn.feedback(id!, "harmful");
    const e = await cairn.get(id!);
    const d = decayedFeedback(e, new Date(clock.t), 90);
    assert.ok(d.helpful / (d.helpful + d.harmful) < FEEDBACK_FLOOR, "the raw ratio is below the floor");
    close(d.weight, FEEDBACK_FLOOR);
    assert.ok(hasNegativeFeedback(e, new Date(clock.t), 90));
    // A year later (four half-lives) the verdicts have faded: the lesson is no longer buried at the floor.
    const yearLater = decayedFeedback(e, new Date(clock.t + 365 * DAY), 90).weight;
    assert.ok(yearLater > FEEDBACK_FLOOR && yearLater < 0.5, `a year later ${yearLater}`);
  });
});

test("regression 11.4: three harmful votes weigh less in ranking as they age (today < +90 days < +270 days)", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const lesson = "Pin the Redis client's reconnect backoff to a ceiling so a flapping primary cannot stall the queue workers.";
    const { id } = await cairn.add({ lesson, category: "tooling" });
    for (let i = 0; i < 3; i++) await cairn.feedback(id!, "harmful");
    const scoreAt = async (days: number) => {
      const start = clock.t;
      clock.t = start + days * DAY;
      try {
        return (await cairn.recall("Redis client reconnect backoff queue workers")).find((h) => h.entry.id === id)!.score;
      } finally {
        clock.t = start;
      }
    };
    const [today, d90, d270] = [await scoreAt(0), await scoreAt(90), await scoreAt(270)];
    assert.ok(today < d90 && d90 < d270, `scores ${today} → ${d90} → ${d270}`);
  });
});

test("engine: revalidation (restore) restarts the decay clock without reviving faded verdicts", async () => {
  await withWorld(async ({ cairn, clock }) => {
    const { id } = await cairn.add({ lesson: "Set the Gradle daemon heap to 2 GB on CI runners so Kotlin compilation stops thrashing.", category: "tooling" });
    await cairn.feedback(id!, "helpful");
    await cairn.feedback(id!, "helpful");
    clock.t += 180 * DAY;
    const aged = decayedFeedback(await cairn.get(id!), new Date(clock.t), 90);
    close(aged.helpful, 0.5, "two helpful verdicts, two half-lives old");
    await cairn.archive(id!, "parked while the CI image is rebuilt");
    const restored = await cairn.restore(id!);
    assert.equal(restored.lifecycle.revalidated_at, new Date(clock.t).toISOString());
    // Each verdict decays by its own age (seed 003): a restore is no new verdict, and must not bring
    // back faded ones at full strength — harmful ones least of all.
    close(decayedFeedback(restored, new Date(clock.t), 90).helpful, 0.5, "restored now: the verdicts as faded as before");
    close(decayedFeedback(restored, new Date(clock.t + 90 * DAY), 90).helpful, 0.25, "and they go on fading");
    const harmful = await cairn.add({ lesson: "Bump the Kotlin daemon heap in gradle.properties, not in the CI job's env.", category: "tooling" });
    for (let i = 0; i < 3; i++) await cairn.feedback(harmful.id!, "harmful");
    clock.t += 180 * DAY;
    const faded = decayedFeedback(await cairn.get(harmful.id!), new Date(clock.t), 90).weight;
    await cairn.archive(harmful.id!, "parked");
    close(decayedFeedback(await cairn.restore(harmful.id!), new Date(clock.t), 90).weight, faded, "restoring does not bury it again");
  });
});

test("engine: every third violation raises the directive's priority one level, recorded in history", async () => {
  await withWorld(async ({ cairn }) => {
    const { id } = await cairn.add({
      lesson: "Never force-push to the release branch; open a revert pull request instead.",
      category: "process",
      kind: "commitment",
    });
    const priorities: string[] = [];
    for (let i = 1; i <= 10; i++) {
      const e = await cairn.feedback(id!, "violated", `violation ${i}`, "agent:coder");
      priorities.push(e.directive.priority);
    }
    assert.deepEqual(priorities, ["medium", "medium", "high", "high", "high", "critical", "critical", "critical", "critical", "critical"]);
    const e = await cairn.get(id!);
    assert.equal(e.usage.violated, 10);
    assert.equal(e.lifecycle.flags.filter((f) => f.startsWith("escalated:")).length, 2);
    const history = await cairn.history(id!);
    const escalations = history.filter((h) => h.type === "updated" && h.actor === "cairn:escalation").map((h) => h.data.priority);
    assert.deepEqual(escalations, [{ from: "medium", to: "high" }, { from: "high", to: "critical" }], "one event per escalation, none once critical");
    assert.equal(history.filter((h) => h.type === "feedback" && h.data.verdict === "violated").length, 10);
    // An escalated directive renders as one.
    const block = await cairn.inject({ task: "force-push the release branch after the rebase" });
    assert.match(block.text, /CRITICAL: Never force-push/);
  });
});
