// Query-term choice from FTS5 document frequencies: rare terms kept, common ones dropped, all-common queries ANDed.
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
    assert.deepEqual(mixed.keep, ["zebrafish", "kafka", "webhook"], "unknown (df 0) first, then rarest; 'service' is in every entry");
    assert.deepEqual(mixed.dropped, ["service"]);
    assert.equal(mixed.mode, "any");

    const common = pick(["service", "timeout"]);
    assert.equal(common.keep.length, 2);
    assert.equal(common.mode, "all", "two terms in every row: rank their intersection, not the union");
    const hits = await store.searchEntries(["service", "timeout"], {}, 5);
    assert.equal(hits.length, 5);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
