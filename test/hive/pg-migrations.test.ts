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

/** The table's update counters once every backend that wrote has exited (its statistics are flushed at exit). */
async function updateCounts(url: string, schema: string, atLeast: number): Promise<{ upd: number; hot: number }> {
  for (let i = 0; ; i++) {
    const [r] = await adminQuery<{ upd: string; hot: string }>(
      url,
      "SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'entries'",
      [schema],
    );
    const counts = { upd: Number(r?.upd ?? 0), hot: Number(r?.hot ?? 0) };
    // A watchdog for the statistics to arrive, not a time budget.
    if (counts.upd >= atLeast || i >= 200) return counts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("a usage bump is a HOT update: no index of the entries table (GIN included) gets a new entry for it", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("hot");
  const at = new Date().toISOString();
  const { EntrySchema } = await import("../../src/core/entry.js");
  const { newEntryId } = await import("../../src/core/ids.js");
  const ids: string[] = [];
  try {
    const writer = new PostgresStore({ url, schema, poolMax: 2 }, "hive");
    try {
      for (let i = 0; i < 20; i++) {
        const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson: `Pin the protobuf compiler to version 3.${i} in the build image of service ${i}.`, category: "tooling", kind: "learning", status: "established", created_at: at, updated_at: at });
        ids.push((await writer.insertEntry(e, { type: "created", actor: "test" })).id);
      }
    } finally {
      await writer.close();
    }
    // One entry per heap page, bumped once, as an injection turn does: the page's fillfactor room then
    // always holds the new version, so no pruning is needed (a long transaction of another client on a
    // shared server holds pruning off, and two bumps on one page could overflow it: seen 4 of 8 HOT).
    const pages = await adminQuery<{ id: string; page: string }>(url, `SELECT id, (ctid::text::point)[0]::text AS page FROM "${schema}".entries ORDER BY seq`, []);
    const onePerPage = [...new Map(pages.map((r) => [r.page, r.id])).values()];
    const before = await updateCounts(url, schema, 0);
    const user = new PostgresStore({ url, schema, poolMax: 2 }, "hive");
    try {
      await user.recordUsage(onePerPage, "shown", "agent:test");
    } finally {
      await user.close();
    }
    const bumps = onePerPage.length;
    assert.ok(bumps >= 2, `20 entries lie on ${bumps} page(s)`);
    const after = await updateCounts(url, schema, before.upd + bumps);
    assert.equal(after.upd - before.upd, bumps, `one bump for each of ${bumps} entries`);
    assert.equal(after.hot - before.hot, bumps, `only ${after.hot - before.hot} of ${bumps} bumps were HOT updates`);
  } finally {
    await dropSchema(url, schema);
  }
});

test("a hive indexed by the old lexeme rules is re-derived by migration 12 (once: a second run rewrites no row), and then finds what SQLite finds", pgTestOptions(), async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("relex");
  const S = `"${schema}"`;
  const { EntrySchema } = await import("../../src/core/entry.js");
  const { newEntryId } = await import("../../src/core/ids.js");
  const { stemOf } = await import("../../src/store/term-stats.js");
  const { PG_LATEST_SCHEMA_VERSION } = await import("../../src/store/pg/migrations.js");
  const at = "2026-01-05T10:00:00.000Z";
  const lesson = "Decomposed nai\u0308ve names break the Istanbul servers; Σίσυφος knows.";
  const stores: PostgresStore[] = [];
  const open = () => {
    const s = new PostgresStore({ url, schema, poolMax: 2 }, "hive");
    stores.push(s);
    return s;
  };
  try {
    const first = open();
    await first.insertEntry(EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at }), { type: "created", actor: "t" });
    // The lexemes version 10 wrote: JS lowercase, every mark dropped after decomposition, words split before it.
    const old = (lesson.match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []).map((w) => stemOf(w.toLowerCase().normalize("NFD").replace(/\p{M}+/gu, ""))).filter(Boolean);
    const literal = [...new Set(old)].map((l) => `'${l}':${old.indexOf(l) + 1}`).join(" ");
    await adminQuery(url, `UPDATE ${S}.entries SET search_vec = $1::tsvector, search_len = $2`, [literal, old.length]);
    await adminQuery(url, `DELETE FROM ${S}.schema_migrations WHERE version >= 12`);

    const second = open();
    assert.equal(await second.schemaVersion(), PG_LATEST_SCHEMA_VERSION);
    assert.equal((await second.searchEntries(["naïve"], {}, 5)).length, 1, "the decomposed word is one word again");
    assert.equal((await second.searchEntries(["σίσυφος"], {}, 5)).length, 1, "Greek accents are kept, as SQLite keeps them");
    assert.equal((await second.searchEntries(["σισυφος"], {}, 5)).length, 0);
    assert.equal(await second.integrityCheck(), "ok");
    const [tokens] = await adminQuery<{ counted: number; rows: number }>(
      url,
      `SELECT (SELECT sum(value) FROM ${S}.counters WHERE name = 'tokens')::int AS counted, (SELECT sum(search_len) FROM ${S}.entries)::int AS rows`,
    );
    assert.equal(tokens!.counted, tokens!.rows, "the token counter follows the new lengths");

    const [before] = await adminQuery<{ x: string }>(url, `SELECT xmin::text AS x FROM ${S}.entries`);
    await adminQuery(url, `DELETE FROM ${S}.schema_migrations WHERE version >= 12`);
    const third = open();
    assert.equal(await third.schemaVersion(), PG_LATEST_SCHEMA_VERSION, "run twice, it migrates again without an error");
    const [afterRun] = await adminQuery<{ x: string }>(url, `SELECT xmin::text AS x FROM ${S}.entries`);
    assert.equal(afterRun!.x, before!.x, "a row already right is not rewritten");
  } finally {
    for (const s of stores) await s.close();
    await dropSchema(url, schema);
  }
});
