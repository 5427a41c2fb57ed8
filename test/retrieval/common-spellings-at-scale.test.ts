// Issue 16's rule where both spellings of a compound are common: "setup" and "set up" each in ~300 of 1,500 lessons, a query writing one finds the lesson writing the other.
import { test } from "node:test";
import assert from "node:assert/strict";
import { makeRng, pick } from "../../bench/rng.js";
import type { Cairn } from "../../src/index.js";
import { pgTestOptions } from "../helpers/pg.js";
import { insertRaw, makeSandbox, withPgHive, withWorld, type RawEntry } from "./helpers.js";

/** 1,500 lessons where "gateway", "billing" and "worker" are common, and "setup", "set up", "lockfile", "lock file", "shutdown" and "shut down" each stand in about a sixth (~250 each). */
function crowd(n: number): string[] {
  const rng = makeRng(1602);
  const subjects = ["gateway", "billing", "worker", "gateway billing", "billing worker", "gateway worker"];
  const spellings = ["setup", "set up", "lockfile", "lock file", "shutdown", "shut down"];
  const verbs = ["retries", "logs", "caches", "signs", "queues", "drops", "pages", "batches", "throttles", "renders"];
  const out = new Set<string>();
  for (let i = 0; out.size < n; i++) {
    out.add(`The ${pick(rng, subjects)} ${pick(rng, verbs)} the ${pick(rng, spellings)} step ${i} of the ${pick(rng, ["tenant", "region", "shard", "batch"])}.`);
  }
  return [...out];
}

interface Case {
  lesson: string;
  query: string;
}

/** Each query writes one spelling of a common compound, its lesson the other; every word of the query is common. */
const CASES: Case[] = [
  { lesson: "Set up the gateway billing worker with its own database role before the first deploy.", query: "gateway billing worker setup" },
  { lesson: "The gateway billing worker setup reads its secrets from the vault, never from env files.", query: "set up the gateway billing worker" },
  { lesson: "Delete the gateway billing worker lock file after a crash, or the next run waits forever.", query: "gateway billing worker lockfile" },
  { lesson: "The gateway billing worker shutdown drains its queue before it exits on SIGTERM.", query: "shut down the gateway billing worker" },
];

async function missed(cairn: Cairn): Promise<string[]> {
  const out: string[] = [];
  for (const c of CASES) {
    const hits = await cairn.recall({ task: c.query }, { limit: 10 });
    if (!hits.some((h) => h.entry.lesson === c.lesson)) out.push(`"${c.query}" missed its lesson; first: ${hits[0]?.entry.lesson.slice(0, 60) ?? "none"}`);
  }
  return out;
}

const SIZE = 1500;

test("both spellings of a compound common (~300 of 1,500 each): 'gateway billing worker setup' finds 'Set up the gateway billing worker…' in the top 10", { timeout: 300_000 }, async () => {
  const sb = makeSandbox();
  const lessons = [...crowd(SIZE), ...CASES.map((c) => c.lesson)];
  const setup = lessons.filter((l) => /\bsetup\b/.test(l)).length;
  const setUp = lessons.filter((l) => /\bset up\b/i.test(l)).length;
  assert.ok(setup > 200 && setUp > 200, `setup in ${setup}, set up in ${setUp}`);
  await insertRaw(sb, lessons.map((lesson): RawEntry => ({ lesson })));
  await withWorld(async ({ cairn }) => assert.deepEqual(await missed(cairn), []), {}, sb);
});

test("both spellings of a compound common on a PostgreSQL team hive of 1,500: the lesson writing the other spelling is in the top 10", pgTestOptions(), async () => {
  await withPgHive([...crowd(SIZE), ...CASES.map((c) => c.lesson)].map((lesson) => ({ lesson })), [], async (cairn) => assert.deepEqual(await missed(cairn), []));
});
