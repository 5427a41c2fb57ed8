// PostgreSQL migrations: they finish on large hives, and leave indexes that answer searches from the index alone.
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
    await dropSchema(url, schema);
  }
});

test("migrations are not cut off by the short per-query timeout ordinary queries keep", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("migtimeout");
  try {
    const { migratePg, PG_LATEST_SCHEMA_VERSION } = await import("../../src/store/pg/migrations.js");
    const { PgClient } = await import("../../src/store/pg/client.js");
    // 5 ms is far shorter than the first migration (a dozen tables, indexes and functions): only a
    // migration-scoped timeout lets it finish; the few plain queries around it take well under 1 ms.
    const client = new PgClient({ url, statementTimeoutMs: 5, poolMax: 1 });
    try {
      assert.equal(await migratePg(client, schema), PG_LATEST_SCHEMA_VERSION);
    } finally {
      await client.close();
    }
  } finally {
    await dropSchema(url, schema);
  }
});

test("the entries table is vacuumed early, indexes included: usage counters leave dead row versions on every turn", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("vacuum");
  const store = new PostgresStore({ url, schema, poolMax: 2 }, "hive");
  try {
    await store.countEntries();
    const rows = await adminQuery<{ options: string[] | null }>(
      url,
      `SELECT c.reloptions AS options FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = 'entries'`,
      [schema],
    );
    const options = rows[0]?.options ?? [];
    for (const want of ["vacuum_index_cleanup=on", "autovacuum_vacuum_scale_factor=0.01", "autovacuum_vacuum_threshold=200"]) {
      assert.ok(options.includes(want), `entries lacks ${want} (has ${JSON.stringify(options)})`);
    }
  } finally {
    await store.close();
    await dropSchema(url, schema);
  }
});
