// A word's other spelling written as a phrase ("setup" → "set up", "lockfile" → "lock file") still meets its lesson in a tier of 1,500 lessons, where every other word of the query is common.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { makeRng, pick, type Rng } from "../../bench/rng.js";
import type { Cairn } from "../../src/index.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { maxUsefulDocFrequency } from "../../src/store/term-stats.js";
import { pgTestOptions } from "../helpers/pg.js";
import { insertRaw, makeSandbox, withPgHive, withWorld, type RawEntry } from "./helpers.js";

/** A pronounceable made-up word: no English stem, so each crowd lesson has a word of its own. */
function pseudoWord(rng: Rng): string {
  const c = "bdfgklmnprstvz";
  const v = "aeiou";
  let w = "";
  for (let i = 0; i < 3; i++) w += pick(rng, [...c]) + pick(rng, [...v]);
  return w;
}

/** Lessons in which "gateway", "billing" and "worker" are each common (in far more than a tenth of the tier), as are "set", "lock", "file", "shut" and "down". */
function crowd(n: number): string[] {
  const rng = makeRng(1601);
  const subjects = ["gateway", "billing", "worker", "gateway billing", "billing worker", "gateway worker", "gateway billing worker"];
  const verbs = ["retries", "logs", "caches", "signs", "queues", "drops", "pages", "batches", "throttles", "renders"];
  const objects = ["the request", "each invoice", "the token", "every event", "the upload", "the report", "the session", "stale rows"];
  const tails = [
    "before the lock is taken", "after the file is written", "once the limit is set", "when the node shuts", "unless the host is down",
    "while the config file is read", "if the lock expires", "after a set of retries", "when traffic goes down", "before the file rotates",
  ];
  const out = new Set<string>();
  while (out.size < n) out.add(`The ${pick(rng, subjects)} ${pseudoWord(rng)} ${pick(rng, verbs)} ${pick(rng, objects)} ${pick(rng, tails)}.`);
  return [...out];
}

interface Case {
  lesson: string;
  query: string;
}

/**
 * Each lesson writes a word apart that its query writes joined, or joined where the query writes it apart; no other
 * lesson writes either spelling, and every other word of each query is in more than a tenth of the tier.
 */
const CASES: Case[] = [
  { lesson: "Set up the gateway lock file for the billing worker before the first deploy.", query: "setup the gateway lockfile for the billing worker" },
  { lesson: "Shut down the gateway billing worker gracefully on SIGTERM; drain its queue first.", query: "gateway billing worker shutdown" },
  { lesson: "Gateway billing worker time stamps are written in UTC, never in local time.", query: "gateway billing worker timestamps" },
  { lesson: "The gateway billing worker username is case sensitive; compare it folded.", query: "gateway billing worker user name" },
  { lesson: "Each gateway billing worker logs its cleanup of the scratch directory.", query: "clean up after the gateway billing worker" },
];

/** The cases whose lesson is not the first answer. */
async function missed(cairn: Cairn): Promise<string[]> {
  const out: string[] = [];
  for (const c of CASES) {
    const hits = await cairn.recall({ task: c.query }, { limit: 10 });
    const at = hits.findIndex((h) => h.entry.lesson === c.lesson);
    if (at !== 0) out.push(`"${c.query}" ranked its lesson ${at < 0 ? "nowhere" : at + 1}; first: ${hits[0]?.entry.lesson.slice(0, 50) ?? "none"}`);
  }
  return out;
}

const SIZE = 1500;

test("a phrase variant meets its lesson in a tier of 1,500 where every other query word is common: 'setup' finds 'Set up', 'lockfile' finds 'lock file'", { timeout: 300_000 }, async () => {
  const sb = makeSandbox();
  const lessons = [...crowd(SIZE), ...CASES.map((c) => c.lesson)];
  await insertRaw(sb, lessons.map((lesson): RawEntry => ({ lesson })));
  // The case under test: each query's own words are common in the tier, so the search requires them all unless a rarer word is counted.
  const store = new SqliteStore(path.join(sb.projectDir, ".swarm", "cairn.db"), "swarm");
  try {
    const { docs } = await store.termFrequencies(["gateway", "billing", "worker"]);
    for (const [stem, n] of docs) assert.ok(n > maxUsefulDocFrequency(lessons.length), `${stem} is in ${n} lessons`);
    // A phrase is counted as the index matches it: in the one lesson that writes it, not in none.
    assert.deepEqual([...(await store.termFrequencies(["shut down", "lock file", "down shut"])).docs], [["shut down", 1], ["lock file", 1], ["down shut", 0]]);
  } finally {
    await store.close();
  }
  await withWorld(async ({ cairn }) => assert.deepEqual(await missed(cairn), []), {}, sb);
});

test("a phrase variant meets its lesson on a PostgreSQL team hive of 1,500 where every other query word is common", pgTestOptions(), async () => {
  await withPgHive([...crowd(SIZE), ...CASES.map((c) => c.lesson)].map((lesson) => ({ lesson })), [], async (cairn) => assert.deepEqual(await missed(cairn), []));
});
