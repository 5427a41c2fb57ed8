// The PostgreSQL ranking statement is planned the same for any words, so a connection keeps one plan for it instead of planning every search.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

function entry(lesson: string): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
}

const TOPICS = ["cache", "queue", "schema", "socket", "token", "logger", "router", "worker"];

describe("PostgreSQL ranking statement plan", pgTestOptions(), () => {
  const url = pgTestUrl() ?? "";
  const schema = uniqueSchema("plan");
  let store: PostgresStore;
  /** The ranking statements the store sent, with their bound values. */
  const sent: Array<{ sql: string; params: readonly unknown[] }> = [];

  before(async () => {
    store = new PostgresStore({ url, schema, poolMax: 4 }, "hive");
    const lessons = Array.from({ length: 240 }, (_, i) => `Lesson ${i}: when deploying the service, check the ${TOPICS[i % TOPICS.length]} settings before the release`);
    lessons.push("A quokka in the service mesh drops idle connections", "The quokka sidecar needs its cache warmed");
    for (let i = 0; i < lessons.length; i += 8) await Promise.all(lessons.slice(i, i + 8).map((l) => store.insertEntry(entry(l), { type: "created", actor: "test" })));
    await store.db.exec(`ANALYZE "${schema}".entries`);
    const query = store.db.query.bind(store.db);
    store.db.query = ((sql: string, params: readonly unknown[] = [], ...rest: unknown[]) => {
      if (sql.includes("LIMIT") && sql.includes("search_vec @@")) sent.push({ sql, params });
      return (query as (...a: unknown[]) => Promise<unknown[]>)(sql, params, ...rest);
    }) as typeof store.db.query;
  });

  after(async () => {
    await store?.close();
    if (url) await dropSchema(url, schema);
  });

  test("a search of rare words and one of common words are estimated at the same cost", async () => {
    // Same shape (two one-lexeme words, one counted in the statement or not): only the words differ.
    await store.searchEntries(["quokka", "sidecar"], {}, 10);
    await store.searchEntries(["deploying", "release"], {}, 10);
    assert.equal(sent.length, 2);
    assert.equal(sent[0]!.sql, sent[1]!.sql, "one statement text for both");
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      // An unnamed statement is planned with its bound values, as the first five calls of a prepared one are.
      const costs = [];
      for (const s of sent) {
        const r = await c.query<{ "QUERY PLAN": Array<{ Plan: { "Total Cost": number } }> }>({ text: `EXPLAIN (FORMAT JSON) ${s.sql}`, values: [...s.params] });
        costs.push(r.rows[0]!["QUERY PLAN"][0]!.Plan["Total Cost"]);
      }
      // Unequal estimates are what let the first five plans look cheaper than the one plan for any words.
      assert.equal(costs[0], costs[1]);
    } finally {
      await c.end();
    }
  });
});
