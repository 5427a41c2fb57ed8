// The hive's full-text indexes answer from the index alone: no pending list that every search would scan.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

test("GIN indexes are created without fastupdate, so new rows never queue in a pending list searches must scan", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("gin");
  const store = new PostgresStore({ url, schema, poolMax: 2 }, "hive");
  try {
    await store.countEntries();
    const rows = await adminQuery<{ name: string; options: string[] | null }>(
      url,
      `SELECT c.relname AS name, c.reloptions AS options FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND a.amname = 'gin' ORDER BY 1`,
      [schema],
    );
    assert.ok(rows.length >= 2, `expected the search and tag GIN indexes, found ${rows.map((r) => r.name).join(", ")}`);
    for (const r of rows) assert.ok(r.options?.includes("fastupdate=off"), `${r.name} keeps a pending list (${JSON.stringify(r.options)})`);
  } finally {
    await store.close();
    await dropSchema(url, schema);
  }
});
