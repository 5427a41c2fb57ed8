// A small tier's lessons compete fairly with a large tier's: relevance from word statistics pooled across the tiers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pgTestOptions } from "../helpers/pg.js";
import { insertRaw, makeSandbox, withPgHive, withWorld, type RawEntry } from "./helpers.js";

const TOPICS = ["vitest", "prisma", "docker", "redis", "kafka", "eslint", "webpack", "nginx", "postgres", "terraform"];
/** A project's ordinary lessons: none holds a word of the query below. */
function projectLessons(n: number): RawEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const t = TOPICS[i % TOPICS.length]!;
    return { lesson: `Keep the ${t} cache of module ${i} in its own folder so parallel jobs never share incident INC-${1000 + i}.`, category: "tooling" };
  });
}

const QUERY = "billing worker retry backoff";
const HIVE_LESSON = "Retry the billing worker call with exponential backoff before failing the job.";
/** Shares one word with the query, rare in the project. */
const PROJECT_NEIGHBOUR = "Billing exports run nightly; compare the ledger totals with the bank statement afterwards.";

for (const hiveSize of [1, 3, 12]) {
  test(`regression: a hive of ${hiveSize} lesson(s) holding every word of the context outranks a project lesson sharing one rare word`, async () => {
    const sb = makeSandbox();
    const hiveFiller = projectLessons(hiveSize - 1).map((e, i) => ({ ...e, lesson: `Hive: pin the ${TOPICS[i % TOPICS.length]} image of service ${i} by digest, never by tag.`, tier: "hive" as const }));
    await insertRaw(sb, [
      ...projectLessons(300),
      { lesson: PROJECT_NEIGHBOUR, category: "tooling" },
      ...hiveFiller,
      { lesson: HIVE_LESSON, category: "tooling", tier: "hive" },
    ]);
    await withWorld(async ({ cairn }) => {
      const hits = await cairn.recall(QUERY, { limit: 5 });
      const order = hits.map((h) => `${h.entry.tier}: ${h.entry.lesson.slice(0, 40)}`);
      assert.equal(hits[0]?.entry.lesson, HIVE_LESSON, `ranked: ${JSON.stringify(order)}`);
      assert.ok(hits.some((h) => h.entry.lesson === PROJECT_NEIGHBOUR), "the project lesson is still recalled");
    }, {}, sb);
  });
}

test("regression: a new project of one lesson holding every word of the context outranks a large hive's lesson sharing one rare word", async () => {
  const sb = makeSandbox();
  await insertRaw(sb, [
    ...projectLessons(300).map((e) => ({ ...e, tier: "hive" as const })),
    { lesson: PROJECT_NEIGHBOUR, category: "tooling", tier: "hive" },
    { lesson: HIVE_LESSON, category: "tooling" },
  ]);
  await withWorld(async ({ cairn }) => {
    const hits = await cairn.recall(QUERY, { limit: 5 });
    assert.equal(hits[0]?.entry.lesson, HIVE_LESSON, `ranked: ${JSON.stringify(hits.map((h) => `${h.entry.tier}: ${h.entry.lesson.slice(0, 40)}`))}`);
  }, {}, sb);
});

test("regression: a team hive on PostgreSQL of one lesson holding every word of the context outranks a project lesson sharing one rare word", pgTestOptions(), async () => {
  await withPgHive([{ lesson: HIVE_LESSON, category: "tooling" }], [...projectLessons(300), { lesson: PROJECT_NEIGHBOUR, category: "tooling" }], async (cairn) => {
    // The hive's size is known once a search has read it (no round trip of its own).
    await cairn.recall(QUERY, { limit: 5 });
    const hits = await cairn.recall(QUERY, { limit: 5 });
    assert.equal(hits[0]?.entry.lesson, HIVE_LESSON, `ranked: ${JSON.stringify(hits.map((h) => `${h.entry.tier}: ${h.entry.lesson.slice(0, 40)}`))}`);
  });
});

test("pooling leaves a lone tier and two large tiers as they were: the small-tier rule changes nothing else", async () => {
  const sb = makeSandbox();
  await insertRaw(sb, [...projectLessons(300), { lesson: PROJECT_NEIGHBOUR, category: "tooling" }]);
  await withWorld(async ({ cairn }) => {
    // An empty hive is no small tier with hits: the project's own ranking stands.
    const hits = await cairn.recall(QUERY, { limit: 5 });
    assert.equal(hits[0]?.entry.lesson, PROJECT_NEIGHBOUR);
  }, {}, sb);
});
