// Query-term choice from FTS5 document frequencies: rare terms kept, common ones dropped, absent ones never displacing them, all-common queries ANDed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { chooseQueryTerms, CREATE_VOCAB_SQL, sqliteFrequencies, TermStatsCache } from "../../src/store/term-stats.js";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";

test("common terms are pruned, rare ones kept rarest first, unknown ones never dropped, all-common queries require both", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-terms-"));
  const store = new SqliteStore(path.join(dir, "t.db"), "swarm");
  try {
    const at = new Date().toISOString();
    // 3,000 entries: "service" and "timeout" everywhere, "webhook" in 1 of 10, "kafka" in one.
    store.driver.transaction(() => {
      for (let i = 0; i < 3000; i++) {
        const lesson = `The service timeout ${i} needs care${i % 10 === 0 ? " in the webhook handler" : ""}${i === 7 ? " with kafka" : ""}.`;
        void store.insertEntry(
          EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson, category: "other", kind: "learning", created_at: at, updated_at: at }),
          { type: "created", actor: "human:test" },
        );
      }
    });
    store.driver.exec(CREATE_VOCAB_SQL);
    const total = await store.totalEntries();
    assert.equal(total, 3000);
    const pick = (terms: string[]) => chooseQueryTerms(sqliteFrequencies(store.driver), terms, total, new TermStatsCache());

    const mixed = pick(["service", "webhook", "kafka", "zebrafish"]);
    assert.deepEqual(mixed.keep, ["kafka", "webhook", "zebrafish"], "rarest indexed terms first; unknown (df 0) appended to the OR; 'service' is in every entry");
    assert.deepEqual(mixed.dropped, ["service"]);
    assert.equal(mixed.mode, "any");

    // Issue 16: words in no entry never displace the common words that do match something.
    const absentAndCommon = pick(["fix", "service", "timeout", "flakiness"]);
    assert.deepEqual(absentAndCommon.keep, ["service", "timeout"]);
    assert.equal(absentAndCommon.mode, "all", "absent words never join an AND (it would match nothing)");
    assert.deepEqual(absentAndCommon.dropped.sort(), ["fix", "flakiness"]);
    assert.equal((await store.searchEntries(["fix", "service", "timeout", "flakiness"], {}, 5)).length, 5);
    const onlyAbsent = pick(["zebrafish", "quokka"]);
    assert.deepEqual(onlyAbsent, { keep: ["zebrafish", "quokka"], dropped: [], mode: "any" });

    const common = pick(["service", "timeout"]);
    assert.equal(common.keep.length, 2);
    assert.equal(common.mode, "all", "two terms in every row: rank their intersection, not the union");
    const hits = await store.searchEntries(["service", "timeout"], {}, 5);
    assert.equal(hits.length, 5);

    // Two common words that never meet in one entry: the AND is empty, so their union answers.
    store.driver.transaction(() => {
      for (let i = 0; i < 400; i++) {
        const lesson = `Gateway latency ${i} spikes${i % 2 ? " near midnight" : " after deploys"}.`;
        void store.insertEntry(
          EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson, category: "other", kind: "learning", created_at: at, updated_at: at }),
          { type: "created", actor: "human:test" },
        );
      }
    });
    const apart = chooseQueryTerms(sqliteFrequencies(store.driver), ["service", "gateway"], await store.totalEntries(), new TermStatsCache());
    assert.equal(apart.mode, "all");
    assert.equal((await store.searchEntries(["service", "gateway"], {}, 5)).length, 5, "an empty AND falls back to the OR");
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
