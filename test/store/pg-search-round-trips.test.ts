// A PostgreSQL search waits on one statement: rare words not counted yet are counted by the statement that ranks, with the same result as counting first.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import type { SearchHit } from "../../src/store/store.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

function entry(lesson: string): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
}

const created = { type: "created" as const, actor: "test" };
const MEDIUM = ["cache", "queue", "schema", "socket", "token", "logger", "router", "worker"];

/**
 * The waits of a search on statements over the full-text index, counted as the driver sends them: a statement sent while
 * another is on the wire rides the same wait (an every-word step and the step after it go out together).
 */
function countIndexStatements(store: PostgresStore): () => number {
  let n = 0;
  let inFlight = 0;
  const query = store.db.query.bind(store.db);
  store.db.query = ((sql: string, params?: readonly unknown[]) => {
    if (!sql.includes("search_vec @@")) return query(sql, params);
    if (inFlight++ === 0) n++;
    const answer = query(sql, params);
    void answer.then(() => inFlight--, () => inFlight--);
    return answer;
  }) as typeof store.db.query;
  return () => {
    const seen = n;
    n = 0;
    return seen;
  };
}

function summary(hits: readonly SearchHit[]): Array<[string, number]> {
  return hits.map((h) => [h.entry.id, Math.round(h.relevance * 1e9) / 1e9]);
}

describe("PostgreSQL search round trips", pgTestOptions(), () => {
  const url = pgTestUrl() ?? "";
  const schema = uniqueSchema("rt");
  let store: PostgresStore;
  let statements: () => number;

  before(async () => {
    store = new PostgresStore({ url, schema, poolMax: 4 }, "hive");
    // Past the size where common words are pruned (500), with statistics from ANALYZE as a served hive has.
    const lessons = Array.from({ length: 520 }, (_, i) =>
      `Lesson ${i}: when deploying the service, check the ${MEDIUM[i % MEDIUM.length]} settings before the release`);
    for (let i = 0; i < lessons.length; i += 8) await Promise.all(lessons.slice(i, i + 8).map((l) => store.insertEntry(entry(l), created)));
    await store.db.exec(`ANALYZE "${schema}".entries`);
    // Written after ANALYZE: its statistics do not list this word, so its frequency must be counted.
    for (const l of ["A quokka in the service mesh drops idle connections", "The quokka proxy needs its cache warmed", "Restart the quokka sidecar after a schema change"]) {
      await store.insertEntry(entry(l), created);
    }
    statements = countIndexStatements(store);
    // Tier figures and ANALYZE's word list are read once; they are not what this test counts.
    await store.searchEntries(["deploying"], {}, 10);
    statements();
  });

  after(async () => {
    await store?.close();
    if (url) await dropSchema(url, schema);
  });

  test("a search with a word not counted yet waits on one statement, and ranks as a search with every count known", async () => {
    const first = await store.searchEntries(["quokka", "cache"], {}, 10);
    assert.equal(statements(), 1, "the word's count rides in the ranking statement");
    assert.ok(first.length >= 3);
    assert.match(first[0]!.entry.lesson, /quokka/);
    const again = await store.searchEntries(["quokka", "cache"], {}, 10);
    assert.equal(statements(), 1, "counted once, then cached");
    assert.deepEqual(summary(first), summary(again));
  });

  test("when the count changes the choice of words (a word in no entry), the search runs as chosen by the counts", async () => {
    // As provisionally chosen, "wombat" would be the one rare word; counted, it is in no entry, so both
    // common words are required together instead.
    const first = await store.searchEntries(["wombat", "deploying", "release"], {}, 10);
    assert.equal(statements(), 2, "at most the provisional statement and the one chosen by the counts");
    const again = await store.searchEntries(["wombat", "deploying", "release"], {}, 10);
    assert.equal(statements(), 1);
    assert.equal(first.length, 10);
    assert.deepEqual(summary(first), summary(again));
  });
});
