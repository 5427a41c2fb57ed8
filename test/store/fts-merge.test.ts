// Merging the full-text index's segments between calls: fewer segments, and every search answers exactly as before.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { mergeSearchSegments } from "../../src/store/fts-merge.js";
import { EntrySchema, LIVE_STATUSES } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import type { SearchHit } from "../../src/store/store.js";

const WORDS = [
  "cache", "token", "retry", "webhook", "schema", "migration", "timeout", "pool", "session", "payment", "invoice", "queue",
  "worker", "lock", "index", "deploy", "config", "parser", "router", "handler", "batch", "stream", "socket", "tenant",
];

/** A deterministic generator, so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function segments(store: SqliteStore): number {
  return store.driver.get<{ n: number }>("SELECT count(DISTINCT segid) AS n FROM entries_fts_idx")!.n;
}

/** A store written one lesson per commit, as agents write: each commit leaves a segment of its own. */
async function storeOfSingleWrites(dir: string, n: number): Promise<SqliteStore> {
  const store = new SqliteStore(path.join(dir, "t.db"), "swarm");
  const r = rng(7);
  const at = new Date().toISOString();
  const statuses = ["candidate", "established", "archived"] as const;
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 6 + Math.floor(r() * 10) }, () => WORDS[Math.floor(r() * WORDS.length)]!);
    const lesson = `Lesson ${i}: the ${words.join(" ")} path needs a check before it runs.`;
    const status = statuses[Math.floor(r() * statuses.length)]!;
    await store.insertEntry(
      EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson, category: "other", kind: "learning", status, created_at: at, updated_at: at }),
      { type: "created", actor: "human:test" },
    );
  }
  return store;
}

async function answers(store: SqliteStore): Promise<Array<Array<[string, number]>>> {
  const r = rng(11);
  const out: Array<Array<[string, number]>> = [];
  for (let q = 0; q < 40; q++) {
    const terms = Array.from({ length: 1 + Math.floor(r() * 5) }, () => WORDS[Math.floor(r() * WORDS.length)]!);
    const hits: SearchHit[] = await store.searchEntries([...terms, "nowhere"], { statuses: LIVE_STATUSES }, 25);
    out.push(hits.map((h) => [h.entry.id, h.relevance]));
  }
  return out;
}

test("merged segments answer every search with the same entries, order and relevance", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-fts-merge-"));
  const store = await storeOfSingleWrites(dir, 700);
  try {
    // Merged by hand here, so the comparison does not depend on when the idle steps run.
    store.searchSegments.close();
    const before = segments(store);
    assert.ok(before >= 3, `single writes leave several segments (${before})`);
    const plain = await answers(store);
    let steps = 0;
    while (store.driver.transaction(() => mergeSearchSegments(store.driver, "entries_fts", 4))) steps++;
    const after = segments(store);
    assert.ok(after < before, `merging leaves fewer segments (${before} -> ${after})`);
    assert.ok(steps > 1, "a step merges a bounded number of pages");
    assert.deepEqual(await answers(store), plain);
    assert.equal(store.driver.transaction(() => mergeSearchSegments(store.driver, "entries_fts")), false, "nothing left to merge");
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("an open store merges its segments between calls, and a write that adds one asks again", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-fts-merge-"));
  const built = await storeOfSingleWrites(dir, 300);
  built.searchSegments.close();
  const before = segments(built);
  await built.close();
  const store = new SqliteStore(path.join(dir, "t.db"), "swarm");
  const settle = async () => {
    // A no-progress watchdog rather than a time limit: the steps are timers, on a busy machine late ones.
    for (let last = -1, idle = 0; idle < 30; ) {
      await new Promise((r) => setTimeout(r, 100));
      const steps = store.searchSegments.steps;
      idle = steps === last ? idle + 1 : 0;
      last = steps;
    }
  };
  try {
    // Counted before the idle steps run: upkeep between calls is no call's reads (a page's read count
    // included a merge step's three when its timer fired during the call, on a busy machine).
    const rowsBefore = store.driver.rowsRead;
    const statementsBefore = store.driver.statementsRun;
    await settle();
    assert.ok(store.searchSegments.steps > 0, "idle steps ran");
    assert.equal(store.driver.rowsRead, rowsBefore, "the idle merge steps count no rows read");
    assert.equal(store.driver.statementsRun, statementsBefore, "nor statements run");
    const merged = segments(store);
    assert.ok(merged < before, `merged between calls (${before} -> ${merged})`);
    const steps = store.searchSegments.steps;
    const at = new Date().toISOString();
    await store.insertEntry(
      EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson: "The webhook retry queue needs a lock.", category: "other", kind: "learning", created_at: at, updated_at: at }),
      { type: "created", actor: "human:test" },
    );
    await settle();
    assert.ok(store.searchSegments.steps > steps, "the write scheduled another step");
    assert.equal((await store.searchEntries(["webhook", "lock"], {}, 5))[0]?.entry.lesson, "The webhook retry queue needs a lock.");
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
