// The Store contract: one suite, run against the SQLite store and the PostgreSQL store, so no behaviour exists on one only.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema, type Entry, type Tier } from "../../src/core/entry.js";
import { fingerprintLesson, newEntryId } from "../../src/core/ids.js";
import { queryTerms } from "../../src/core/text.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { PG_LATEST_SCHEMA_VERSION } from "../../src/store/pg/migrations.js";
import { LATEST_SCHEMA_VERSION } from "../../src/store/migrations.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { DuplicateEntryError, type SearchHit, type Store, type StoreChange } from "../../src/store/store.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

/** What a test may do to a store beneath the interface: raw SQL on a table (named unqualified) and a real row count. */
interface Opened {
  store: Store;
  reopen(): Promise<Store>;
  /** Runs SQL built with `t(name)`, the store's own qualified table name. */
  raw(sql: (t: (table: string) => string) => string): Promise<void>;
  rows(table: string): Promise<number>;
  /** Puts the schema back to before the tallies existed, as a database made by an older Cairn. */
  undoTallies(): Promise<void>;
  latest: number;
  close(): Promise<void>;
}

interface Implementation {
  name: string;
  options: { skip?: string };
  open(tier: Tier): Promise<Opened>;
}

const sqlite: Implementation = {
  name: "SQLite",
  options: {},
  async open(tier) {
    const sb = makeSandbox();
    const file = path.join(sb.root, "s.db");
    const stores: SqliteStore[] = [new SqliteStore(file, tier)];
    const store = stores[0]!;
    return {
      store,
      latest: LATEST_SCHEMA_VERSION,
      async reopen() {
        const s = new SqliteStore(file, tier);
        stores.push(s);
        return s;
      },
      async raw(sql) {
        store.driver.run(sql((t) => t));
      },
      async rows(table) {
        return store.driver.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)?.n ?? -1;
      },
      async undoTallies() {
        store.driver.exec("DROP TABLE entry_tallies; DROP TRIGGER entry_tallies_ai; DROP TRIGGER entry_tallies_ad; DROP TRIGGER entry_tallies_au; DROP INDEX entries_low_utility; ALTER TABLE reflection_queue DROP COLUMN shares; PRAGMA user_version = 8");
      },
      async close() {
        for (const s of stores) await s.close();
        removeSandbox(sb);
      },
    };
  },
};

const postgres: Implementation = {
  name: "PostgreSQL",
  options: pgTestOptions(),
  async open(tier) {
    const url = pgTestUrl()!;
    const schema = uniqueSchema("contract");
    const stores: PostgresStore[] = [new PostgresStore({ url, schema }, tier)];
    const store = stores[0]!;
    const t = (table: string) => `"${schema}".${table}`;
    return {
      store,
      latest: PG_LATEST_SCHEMA_VERSION,
      async reopen() {
        const s = new PostgresStore({ url, schema }, tier);
        stores.push(s);
        return s;
      },
      async raw(sql) {
        await store.db.query(sql(t));
      },
      async rows(table) {
        return (await store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t(table)}`))[0]?.n ?? -1;
      },
      async undoTallies() {
        await store.db.exec(
          `DROP TABLE ${t("entry_tallies")} CASCADE; DROP FUNCTION ${t("entries_tally")}() CASCADE; DROP FUNCTION ${t("tally_move")} CASCADE; DROP INDEX ${t("entries_low_utility")};
           DELETE FROM ${t("schema_migrations")} WHERE version >= 3`,
        );
      },
      async close() {
        for (const s of stores) await s.close();
        await dropSchema(url, schema);
      },
    };
  },
};

function entry(lesson: string, extra: Partial<Entry> = {}, tier: Tier = "swarm"): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({ id: newEntryId(), handle: "", tier, lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at, ...extra });
}

/** What the tallies must say, worked out from every entry (a test may read them all; stats() may not). */
async function talliesFromEntries(store: Store): Promise<string[]> {
  const by = new Map<string, number[]>();
  for await (const e of store.iterateEntries()) {
    const source = e.provenance.created_by.split(":")[0] || "unknown";
    const key = `${e.lifecycle.status} ${source}`;
    const t = by.get(key) ?? [0, 0, 0, 0, 0];
    [1, e.usage.shown, e.usage.applied, e.usage.consulted, e.usage.prevented].forEach((v, i) => (t[i]! += v));
    by.set(key, t);
  }
  return [...by].map(([k, v]) => `${k} ${v.join(",")}`).sort();
}

async function talliesOf(store: Store): Promise<string[]> {
  return (await store.entryTallies()).map((t) => `${t.status} ${t.source} ${[t.entries, t.shown, t.applied, t.consulted, t.prevented].join(",")}`).sort();
}

const created = { type: "created" as const, actor: "test" };

function contract(impl: Implementation): void {
  const it = (name: string, fn: (o: Opened, tier: Tier) => Promise<void>, tier: Tier = "swarm", extra: { todo?: string } = {}) =>
    test(name, { ...impl.options, ...extra }, async () => {
      const o = await impl.open(tier);
      try {
        await fn(o, tier);
      } finally {
        await o.close();
      }
    });

  it("opens at the newest schema version, and a second client finds it current and loses no row", async (o) => {
    assert.equal(await o.store.schemaVersion(), o.latest);
    await o.store.insertEntry(entry("Regenerate the Prisma client after every schema change."), created);
    const again = await o.reopen();
    assert.equal(await again.schemaVersion(), o.latest);
    assert.equal(await again.totalEntries(), 1, "reopening re-ran no migration and lost no row");
  });

  it("the events table is append-only and history outlives the entry", async (o) => {
    const e = await o.store.insertEntry(entry("Close the Kafka producer in the SIGTERM handler."), created);
    assert.ok((await o.store.listEvents(e.id)).length >= 1);
    await assert.rejects(o.raw((t) => `UPDATE ${t("events")} SET actor = 'forged'`), /append-only/);
    await assert.rejects(o.raw((t) => `DELETE FROM ${t("events")}`), /append-only/);
    await o.store.deleteEntry(e.id, { type: "removed", actor: "test" });
    assert.deepEqual((await o.store.listEvents(e.id)).map((x) => x.type).slice(-1), ["removed"]);
  });

  it("promotedTo answers by key what each entry last went up as (its latest promoted event, written directly or copied), promotedOriginals the other way", async (o) => {
    const a = await o.store.insertEntry(entry("Promote the retry budget lesson of the billing worker to the hive."), created);
    const b = await o.store.insertEntry(entry("Never promote a lesson that names a customer's hostname."), created);
    assert.deepEqual([...(await o.store.promotedTo([a.id, b.id]))], [], "never promoted: left out");
    await o.store.updateEntry(a.id, (x) => x, { type: "promoted", actor: "t", data: { route: "manual", hive_id: "hive-1" } });
    await o.store.appendEvent(a.id, { type: "promoted", actor: "t", data: { route: "manual", hive_id: "hive-2" } });
    await o.store.appendEvent(b.id, { type: "promoted", actor: "t", data: { route: "manual" } });
    const copied = entry("A copied lesson keeps the promotion its history records.");
    await o.store.copyEntry(copied, [
      { seq: 1, entry_id: copied.id, type: "created", at: "2026-01-01T00:00:00.000Z", actor: "t", data: {} },
      { seq: 2, entry_id: copied.id, type: "promoted", at: "2026-01-02T00:00:00.000Z", actor: "t", data: { hive_id: "hive-3" } },
    ]);
    assert.deepEqual([...(await o.store.promotedTo([a.id, b.id, copied.id, "no-such-id"]))].sort(), [[a.id, "hive-2"], [copied.id, "hive-3"]].sort());
    assert.deepEqual([...(await o.store.promotedTo([]))], []);
    assert.deepEqual([...(await o.store.promotedOriginals(["hive-2", "hive-3", "hive-1"]))].sort(), [[a.id, "hive-2"], [copied.id, "hive-3"]].sort(), "the other way, by the column's index: only the latest promotion counts");
    assert.deepEqual([...(await o.store.promotedOriginals([]))], []);
  });

  it("listPromotions: the entries matching a filter that went up to the hive, in write order, with their handle and promoted_to only", async (o) => {
    const a = await o.store.insertEntry(entry("Promote the retry budget lesson of the billing worker to the hive."), created);
    const never = await o.store.insertEntry(entry("Never promote a lesson that names a customer's hostname."), created);
    const b = await o.store.insertEntry(entry("Pin the Terraform provider versions in every module.", { category: "security" }), created);
    assert.deepEqual(await o.store.listPromotions({}), [], "nothing went up yet");
    await o.store.updateEntry(b.id, (x) => ({ ...x, lifecycle: { ...x.lifecycle, status: "promoted" } }), { type: "promoted", actor: "t", data: { route: "manual", hive_id: "hive-b" } });
    await o.store.updateEntry(a.id, (x) => ({ ...x, lifecycle: { ...x.lifecycle, status: "promoted" } }), { type: "promoted", actor: "t", data: { route: "manual", hive_id: "hive-1" } });
    await o.store.appendEvent(a.id, { type: "promoted", actor: "t", data: { route: "manual", hive_id: "hive-2" } });
    await o.store.appendEvent(never.id, { type: "promoted", actor: "t", data: { route: "manual" } });
    assert.deepEqual(await o.store.listPromotions({}), [
      { id: a.id, handle: a.handle, promoted_to: "hive-2" },
      { id: b.id, handle: b.handle, promoted_to: "hive-b" },
    ], "write order (a before b), the latest promotion, none without a hive id");
    assert.deepEqual(await o.store.listPromotions({ statuses: ["promoted"], categories: ["security"] }), [{ id: b.id, handle: b.handle, promoted_to: "hive-b" }]);
    assert.deepEqual(await o.store.listPromotions({ statuses: ["promoted"], excludeIds: [b.id] }), [{ id: a.id, handle: a.handle, promoted_to: "hive-2" }]);
    assert.deepEqual(await o.store.listPromotions({ statuses: ["established"] }), []);
  });

  it("the O(1) entry counter always equals count(*) through inserts and deletes", async (o) => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await o.store.insertEntry(entry(`Shard ${i} of the audit table needs its own partial index.`), created)).id);
    for (const id of ids.slice(0, 10)) await o.store.deleteEntry(id, { type: "removed", actor: "test" });
    assert.equal(await o.rows("entries"), 15);
    assert.equal(await o.store.totalEntries(), 15);
    assert.equal(await o.store.countEntries(), 15);
    assert.equal(await o.store.integrityCheck(), "ok");
  });

  it("full-text search finds camelCase, snake_case and path parts, and stems English words", async (o) => {
    const e = await o.store.insertEntry(entry("Call getUserById before session_store.flush() in src/auth/tokenRefresh.ts; retrying hides the race."), created);
    await o.store.insertEntry(entry("Pin the Node major version in CI with an .nvmrc file."), created);
    for (const q of ["user", "session", "store", "flush", "auth", "token", "refresh", "getuserbyid", "retries", "race"]) {
      const hits = await o.store.searchEntries([q], {}, 10);
      assert.deepEqual(hits.map((h) => h.entry.id), [e.id], `query ${q}`);
    }
  });

  it("a word inside a run of CJK characters is found, in Chinese, Japanese and Korean, and beside Latin written with no space", async (o) => {
    const zh = await o.store.insertEntry(entry("Redis连接池的大小要和worker数量一致，否则高峰时会超时。"), created);
    const ja = await o.store.insertEntry(entry("本番環境ではデータベース接続プールの上限を二十にする。"), created);
    const ko = await o.store.insertEntry(entry("결제모듈재시도횟수는세번으로제한한다"), created);
    for (const [q, id] of [["连接池", zh.id], ["redis", zh.id], ["worker", zh.id], ["超时", zh.id], ["接続プール", ja.id], ["データベース", ja.id], ["재시도", ko.id]] as const) {
      const hits = await o.store.searchEntries(queryTerms(q), {}, 10);
      assert.deepEqual(hits.map((h) => h.entry.id), [id], `query ${q}`);
    }
  });

  it("search terms that look like query syntax are data, never operators", async (o) => {
    await o.store.insertEntry(entry("Quote user input before building an FTS MATCH expression."), created);
    for (const q of ['"', "NEAR(a b)", "*", "a OR b", "lesson:x", "^start", "'); DROP TABLE entries;--", "\u0000", "a & !b | c:*", "\\'x", "<->"]) {
      assert.ok(Array.isArray(await o.store.searchEntries([q], {}, 10)), q);
    }
    assert.equal((await o.store.searchEntries(["user input"], {}, 10)).length, 1, "a phrase term matches its words in order");
    assert.equal((await o.store.searchEntries(["input user"], {}, 10)).length, 0, "and only in that order");
    assert.equal(await o.store.totalEntries(), 1);
  });

  it("search ranks by BM25: rarer and repeated terms score higher, filters apply before the limit", async (o) => {
    for (let i = 0; i < 30; i++) await o.store.insertEntry(entry(`Cache the config loader result ${i} between requests of the handler.`), created);
    const rare = await o.store.insertEntry(entry("Invalidate the webhook signature cache when the secret rotates."), created);
    const twice = await o.store.insertEntry(entry("Webhook retries need a webhook idempotency key."), created);
    const hits = await o.store.searchEntries(["webhook", "cache"], {}, 5);
    assert.deepEqual(hits.slice(0, 2).map((h) => h.entry.id).sort(), [rare.id, twice.id].sort());
    assert.equal(hits[0]!.entry.id, twice.id, "two occurrences of the rare term beat one");
    assert.ok(hits[0]!.relevance > hits[2]!.relevance && hits[2]!.relevance > 0);
    const archived = await o.store.searchEntries(["webhook"], { statuses: ["archived"] }, 5);
    assert.deepEqual(archived, []);
  });

  it("a handle of the other tier never resolves here", async (o, tier) => {
    const e = await o.store.insertEntry(entry("Use idempotency keys on every payment provider request.", {}, tier), created);
    assert.equal((await o.store.getEntry(e.handle))?.id, e.id);
    assert.equal(await o.store.getEntry(e.handle.replace(/^[SH]-/, tier === "swarm" ? "H-" : "S-")), undefined);
    assert.equal((await o.store.getEntry(e.id))?.handle, e.handle);
  }, "hive");

  it("handles are never handed out twice, even after the newest entry is deleted", async (o) => {
    const a = await o.store.insertEntry(entry("Run migrations before the app boots in the deploy job."), created);
    await o.store.deleteEntry(a.id, { type: "removed", actor: "test" });
    const b = await o.store.insertEntry(entry("Set a statement timeout on every pooled database connection."), created);
    assert.notEqual(b.handle, a.handle);
  });

  it("with `unique`, a second live entry with the same lesson text is refused inside the write; a retired twin is not", async (o) => {
    const unique = { unique: true };
    const first = await o.store.insertEntry(entry("Always pass --frozen-lockfile to pnpm install in CI."), created, unique);
    await assert.rejects(
      o.store.insertEntry(entry("always pass --frozen-lockfile to pnpm install in CI"), created, unique),
      (e: unknown) => e instanceof DuplicateEntryError && e.existing.id === first.id,
    );
    await o.store.updateEntry(first.id, (e) => ({ ...e, lifecycle: { ...e.lifecycle, status: "archived" } }), { type: "archived", actor: "test" });
    const again = await o.store.insertEntry(entry("Always pass --frozen-lockfile to pnpm install in CI."), created, unique);
    assert.notEqual(again.id, first.id);
    assert.equal((await o.store.findByFingerprint(fingerprintLesson(first.lesson))).length, 2);
    const retired = await o.store.insertEntry(entry("Always pass --frozen-lockfile to pnpm install in CI.", { lifecycle: { ...again.lifecycle, status: "archived" } }), created, unique);
    assert.equal(retired.lifecycle.status, "archived");
    const raw = await o.store.insertEntry(entry("Always pass --frozen-lockfile to pnpm install in CI."), created);
    assert.notEqual(raw.id, again.id, "a raw load (no `unique`) stores what it is given");
  });

  it("updateEntry with `unique`: bringing a lesson live beside a live twin is refused inside the write, also when two such writes race", async (o) => {
    const unique = { unique: true };
    const retired = (lesson: string) => entry(lesson, { lifecycle: { ...entry(lesson).lifecycle, status: "archived" } });
    const live = (e: Entry) => ({ ...e, lifecycle: { ...e.lifecycle, status: "candidate" as const } });
    const restored = { type: "restored" as const, actor: "test" };
    for (let round = 0; round < 5; round++) {
      const text = `Drain the ${round}th queue worker before a deploy restarts its pod.`;
      const a = await o.store.insertEntry(retired(text), created);
      const b = await o.store.insertEntry(retired(text), created);
      // Two connections (PostgreSQL's pool) writing at once: the fingerprint lock makes the second see the first.
      const outcomes = await Promise.allSettled([o.store.updateEntry(a.id, live, restored, unique), o.store.updateEntry(b.id, live, restored, unique)]);
      assert.equal(outcomes.filter((x) => x.status === "fulfilled").length, 1, `round ${round}: exactly one comes back live`);
      const refused = outcomes.find((x) => x.status === "rejected");
      assert.ok(refused?.status === "rejected" && refused.reason instanceof DuplicateEntryError, `round ${round}: the other is refused as a twin: ${String(refused?.status === "rejected" ? refused.reason : "")}`);
      const statuses = [(await o.store.getEntry(a.id))!.lifecycle.status, (await o.store.getEntry(b.id))!.lifecycle.status].sort();
      assert.deepEqual(statuses, ["archived", "candidate"], "nothing of the refused write was kept");
    }
    const own = await o.store.insertEntry(entry("Tag every release image with the commit hash."), created, unique);
    await o.store.updateEntry(own.id, (e) => ({ ...e, title: "tags" }), { type: "updated", actor: "test" }, unique);
    const replacement = await o.store.insertEntry(entry("Set the pool size from the core count."), created, unique);
    const old = await o.store.insertEntry(retired("set the pool size from the core count"), created);
    await o.store.updateEntry(old.id, live, restored, { unique: true, twinAllowed: replacement.id });
    assert.equal((await o.store.getEntry(old.id))!.lifecycle.status, "candidate", "the entry itself and the allowed one are no twin");
  });

  it("insertEntries: one call stores what insertEntry would, in order, and skips stored ids and live twins without an error", async (o) => {
    const unique = { unique: true };
    const held = await o.store.insertEntry(entry("Retry the billing worker call with backoff before failing the job."), created, unique);
    const heard: StoreChange[] = [];
    o.store.subscribe((c) => void heard.push(c));
    const a = entry("Run database migrations before the app container starts.");
    const b = entry("Pin the Node version in .nvmrc and CI alike.");
    const archived = entry("retry the billing worker call with backoff before failing the job", { lifecycle: { ...a.lifecycle, status: "archived" } });
    const outcomes = await o.store.insertEntries([
      a,
      entry("Retry the billing worker call with backoff before failing the job."), // a live twin is stored: duplicate
      { ...held }, // its id is stored: exists
      b,
      entry("pin the node version in .nvmrc and CI alike"), // twin of an earlier entry of this call
      { ...a }, // an earlier entry of this call has its id
      archived, // a retired twin is not a duplicate
    ], { type: "created", actor: "test:bulk", data: { source: "import" } }, unique);
    assert.deepEqual(outcomes.map((x) => x.action), ["inserted", "duplicate", "exists", "inserted", "duplicate", "exists", "inserted"]);
    const stored = outcomes.flatMap((x) => (x.action === "inserted" ? [x.entry] : []));
    assert.deepEqual(stored.map((e) => e.id), [a.id, b.id, archived.id]);
    const seqs = [held, ...stored].map((e) => Number(e.handle.split("-")[1]));
    assert.deepEqual(seqs, [...seqs].sort((x, y) => x - y), "handles are handed out in the order given");
    assert.equal(new Set(seqs).size, 4);
    for (const e of stored) {
      const got = await o.store.getEntry(e.handle);
      assert.equal(got?.id, e.id, `${e.handle} resolves to its entry`);
      assert.deepEqual((await o.store.listEvents(e.id)).map((v) => [v.type, v.actor]), [["created", "test:bulk"]]);
    }
    assert.equal(await o.store.totalEntries(), 4);
    assert.deepEqual((await o.store.searchEntries(["nvmrc"], {}, 5)).map((h) => h.entry.id), [b.id], "full-text indexed");
    assert.deepEqual(heard.map((c) => (c.type === "insert" ? c.entry.id : c.type)), [a.id, b.id, archived.id], "one insert change per stored entry");
    assert.deepEqual(await o.store.insertEntries([], created, unique), []);
    const raw = await o.store.insertEntries([entry("Run database migrations before the app container starts.")], created);
    assert.equal(raw[0]?.action, "inserted", "a raw load (no `unique`) stores what it is given");
    assert.equal(await o.store.integrityCheck(), "ok");
  });

  it("insertEntries: a call of many rows (staged in groups and one by one) stores each in order, with its twins and stored ids among them", async (o) => {
    const unique = { unique: true };
    const held = await o.store.insertEntry(entry("Retry the billing worker call with backoff before failing the job."), created, unique);
    const rows: Entry[] = Array.from({ length: 61 }, (_, i) => entry(`Keep worker ${i} of the ingest pool under its own cgroup memory limit.`));
    rows[3] = entry("retry the billing worker call with backoff before failing the job"); // twin of a stored entry
    rows[30] = { ...held }; // a stored id, inside the second group
    rows[57] = entry("Keep worker 7 of the ingest pool under its own cgroup memory limit."); // twin of an earlier row, among the last ones
    const outcomes = await o.store.insertEntries(rows, { type: "created", actor: "test:bulk", data: {} }, unique);
    const expected = rows.map((_, i) => (i === 3 || i === 57 ? "duplicate" : i === 30 ? "exists" : "inserted"));
    assert.deepEqual(outcomes.map((x) => x.action), expected);
    const stored = outcomes.flatMap((x) => (x.action === "inserted" ? [x.entry] : []));
    assert.deepEqual(stored.map((e) => e.id), rows.filter((_, i) => expected[i] === "inserted").map((e) => e.id), "in the order given");
    const seqs = stored.map((e) => Number(e.handle.split("-")[1]));
    assert.deepEqual(seqs, seqs.map((_, i) => seqs[0]! + i), "consecutive handles after the stored one");
    for (const e of [stored[0]!, stored[30]!, stored.at(-1)!]) assert.deepEqual(await o.store.getEntry(e.handle), e);
    assert.equal(await o.store.totalEntries(), 1 + stored.length);
    assert.equal(await o.store.integrityCheck(), "ok");
  });

  it("termFrequencies: the tier's size as its search read it, and rows per word where the index can tell without a round trip", async (o) => {
    for (const l of ["Pin the Node version in .nvmrc and CI alike.", "Run database migrations before the app container starts.", "Tag images with the commit hash, never latest."]) {
      await o.store.insertEntry(entry(l), created);
    }
    assert.equal((await o.store.searchEntries(["nvmrc"], {}, 5)).length, 1);
    const f = await o.store.termFrequencies?.(["nvmrc", "Containers", "zzzunheard"]);
    assert.ok(f, "known once a search has read the tier");
    assert.equal(f.rows, 3);
    const expected = new Map([["nvmrc", 1], ["contain", 1], ["zzzunheard", 0]]);
    for (const [stem, n] of f.docs) assert.equal(n, expected.get(stem), `rows holding ${stem}`);
    assert.equal((await o.store.termFrequencies?.([]))?.docs.size, 0, "no words asked, none looked up");
  });

  it("entryKeys: every entry's id, external id and fingerprint, in one read (a bulk restore's up-front check)", async (o) => {
    const a = await o.store.insertEntry(entry("Keep the release notes beside the tag, not in the wiki."), created);
    const b = await o.store.insertEntry(entry("Tag images with the commit hash, never latest.", { provenance: { ...a.provenance, external_id: "k-42" } }), created);
    const keys = (await o.store.entryKeys()).sort((x, y) => x.id.localeCompare(y.id));
    assert.deepEqual(keys, [
      { id: a.id, external_id: null, fingerprint: fingerprintLesson(a.lesson) },
      { id: b.id, external_id: "k-42", fingerprint: fingerprintLesson(b.lesson) },
    ].sort((x, y) => x.id.localeCompare(y.id)));
  });

  it("writeBatch: writes inside see each other and the unique check; a failed call inside undoes only itself; an error keeps earlier writes", async (o) => {
    const unique = { unique: true };
    let first: Entry | undefined;
    await assert.rejects(
      o.store.writeBatch(async () => {
        first = await o.store.insertEntry(entry("Pin the Node version in .nvmrc and CI alike."), created, unique);
        assert.equal((await o.store.getEntry(first.id))?.id, first.id, "visible inside the batch");
        await assert.rejects(o.store.insertEntry(entry("pin the node version in .nvmrc and CI alike"), created, unique), DuplicateEntryError);
        await o.store.insertEntry(entry("Run database migrations before the app container starts."), created, unique);
        throw new Error("the caller failed mid-batch");
      }),
      /mid-batch/,
    );
    assert.equal(await o.store.totalEntries(), 2, "both completed inserts stayed; the refused twin left nothing");
    assert.equal(await o.rows("entries"), 2);
    const again = await o.reopen();
    assert.equal((await again.getEntry(first!.id))?.lesson, first!.lesson, "committed: another client reads it");
    assert.equal(await o.store.integrityCheck(), "ok");
  });

  it("updateEntry is a read-modify-write with an event; updateEntryOnce and claimEffect act once per key", async (o) => {
    const e = await o.store.insertEntry(entry("Bump the cache key when the lockfile changes."), created);
    const up = await o.store.updateEntry(e.handle, (x) => ({ ...x, tags: ["ci", "cache"] }), { type: "updated", actor: "human:ann", data: { why: "tags" } });
    assert.deepEqual(up.tags, ["ci", "cache"]);
    assert.equal(up.handle, e.handle);
    assert.deepEqual((await o.store.getEntry(e.id))?.tags, ["ci", "cache"]);
    const ev = (await o.store.listEvents(e.id)).at(-1)!;
    assert.equal(ev.type, "updated");
    assert.equal(ev.actor, "human:ann");
    assert.deepEqual(ev.data, { why: "tags" });
    const bump = (x: Entry) => ({ ...x, lifecycle: { ...x.lifecycle, confidence: x.lifecycle.confidence + 0.1 } });
    assert.ok(await o.store.updateEntryOnce("k1", e.id, bump, { type: "feedback", actor: "t" }));
    assert.equal(await o.store.updateEntryOnce("k1", e.id, bump, { type: "feedback", actor: "t" }), undefined);
    assert.equal((await o.store.getEntry(e.id))!.lifecycle.confidence, 0.6);
    assert.equal(await o.store.claimEffect("k2"), true);
    assert.equal(await o.store.claimEffect("k2"), false);
    await assert.rejects(o.store.updateEntry(newEntryId(), bump, { type: "updated", actor: "t" }), /No entry/);
  });

  it("recordUsage bumps one counter per entry with one event each; unknown ids change nothing", async (o) => {
    const a = await o.store.insertEntry(entry("Lint commit messages in a pre-push hook."), created);
    const b = await o.store.insertEntry(entry("Keep the Docker build context small with a .dockerignore."), created);
    await o.store.recordUsage([a.id, b.id, newEntryId()], "shown", "agent:coder", { agent: "coder" });
    await o.store.recordUsage([a.id], "applied", "agent:coder");
    await o.store.recordUsage([a.id], "consulted", "agent:coder");
    const ra = (await o.store.getEntry(a.id))!;
    assert.equal(ra.usage.shown, 1);
    assert.equal(ra.usage.applied, 1);
    assert.equal(ra.usage.consulted, 1);
    assert.ok(ra.usage.last_shown_at && ra.usage.last_consulted_at);
    assert.equal((await o.store.getEntry(b.id))!.usage.shown, 1);
    const types = (await o.store.listEvents(a.id)).map((x) => x.type);
    assert.deepEqual(types, ["created", "shown", "feedback", "consulted"]);
    const shown = await o.store.listEventsByType("shown", "2000-01-01T00:00:00.000Z");
    assert.equal(shown.length, 2);
    assert.deepEqual(shown[0]!.data, { counter: "shown", agent: "coder" });
    const sum = await o.store.sumUsage();
    assert.deepEqual([sum.entries, sum.shown, sum.applied, sum.consulted, sum.prevented], [2, 2, 1, 1, 0]);
    assert.deepEqual((await o.store.usageBySource()).map((u) => [u.source, u.entries, u.shown, u.applied]), [["human", 2, 2, 1]]);
  });

  it("filters narrow candidates in the database: status, scope, agent, tool, project, tags, advisory, usage", async (o) => {
    const base = { created_by: "agent:coder" };
    const forApi = await o.store.insertEntry(
      entry("Retry the flaky upload once, then fail loudly.", { applicability: { scope: "global", projects: ["api"], agents: ["Coder"], tools: ["bash"], file_globs: [], tech_stack: [], triggers: [] }, tags: ["upload"], provenance: { ...entry("x").provenance, ...base } }),
      created,
    );
    const anyone = await o.store.insertEntry(entry("Never log request bodies of the upload endpoint.", { tags: ["upload", "logs"], prevention: { detection_pattern: "console.log(req.body)" } }), created);
    const stack = await o.store.insertEntry(entry("Use the upload multipart limit of the Node stack.", { applicability: { scope: "stack:node", projects: ["*"], agents: [], tools: [], file_globs: ["src/upload/**"], tech_stack: [], triggers: [] } }), created);
    const ids = async (f: Parameters<Store["listEntries"]>[0]) => (await o.store.listEntries(f, { order: "oldest" })).map((e) => e.id);
    assert.deepEqual(await ids({ agent: "coder" }), [forApi.id, anyone.id, stack.id]);
    assert.deepEqual(await ids({ agent: "reviewer" }), [anyone.id, stack.id]);
    assert.deepEqual(await ids({ tool: "edit" }), [anyone.id, stack.id]);
    assert.deepEqual(await ids({ project: { id: "p-1", name: "web" } }), [anyone.id, stack.id]);
    assert.deepEqual(await ids({ project: { id: "p-2", name: "API" } }), [forApi.id, anyone.id, stack.id]);
    assert.deepEqual(await ids({ scopes: ["stack:node"] }), [stack.id]);
    assert.deepEqual(await ids({ scopes: [] }), []);
    assert.deepEqual(await ids({ anyTags: ["logs"] }), [anyone.id]);
    assert.deepEqual(await ids({ anyTags: [] }), []);
    assert.deepEqual(await ids({ advisory: true }), [anyone.id, stack.id]);
    assert.deepEqual(await ids({ advisory: false }), [forApi.id]);
    await o.store.recordUsage([anyone.id], "shown", "t");
    // The utility column follows the entry on updates (counters alone do not recompute it).
    await o.store.updateEntry(anyone.id, (x) => ({ ...x, usage: { ...x.usage, ignored: 2 } }), { type: "feedback", actor: "t" });
    assert.deepEqual(await ids({ minShown: 1 }), [anyone.id]);
    assert.deepEqual(await ids({ maxUtility: 0.3 }), [anyone.id]);
    assert.deepEqual(await ids({ maxApplied: 0, statuses: ["candidate"] }), [forApi.id, anyone.id, stack.id]);
    assert.deepEqual(await ids({ statuses: [] }), []);
    await o.store.updateEntry(stack.id, (x) => ({ ...x, usage: { ...x.usage, harmful: 2.5 } }), { type: "feedback", actor: "t" });
    assert.deepEqual(await ids({ minHarmful: 2.5 }), [stack.id]);
    assert.deepEqual(await ids({ minHarmful: 2.6 }), []);
    assert.equal(await o.store.countEntries({ advisory: true }), 2);
    assert.deepEqual((await o.store.listEntries({}, { limit: 2 })).map((e) => e.id), [stack.id, anyone.id], "newest first by default");
    assert.deepEqual((await o.store.listEntries({}, { limit: 1, offset: 1, order: "oldest" })).map((e) => e.id), [anyone.id]);
    const hits = await o.store.searchEntries(["upload"], { agent: "reviewer", scopes: ["global"] }, 10);
    assert.deepEqual(hits.map((h) => h.entry.id), [anyone.id]);
  });

  it("iterateEntries streams every entry in insertion order across batches", async (o) => {
    const ids: string[] = [];
    for (let i = 0; i < 520; i++) ids.push((await o.store.insertEntry(entry(`Partition ${i} of the event log rotates hourly.`), created)).id);
    const seen: string[] = [];
    for await (const e of o.store.iterateEntries()) seen.push(e.id);
    assert.deepEqual(seen, ids);
  });

  it("phase ageing, expiry and eviction order", async (o) => {
    const todo = await o.store.insertEntry(entry("Todo: wire the retry budget into the client.", { category: "todo" }), created);
    const keep = await o.store.insertEntry(entry("Measure before you cache the slow query."), created);
    const promoted = await o.store.insertEntry(entry("Pin base images by digest.", { lifecycle: { ...entry("x").lifecycle, status: "promoted" } }), created);
    const archived = await o.store.insertEntry(entry("Old advice on the legacy build.", { lifecycle: { ...entry("x").lifecycle, status: "archived" } }), created);
    for (let i = 0; i < 4; i++) assert.equal(await o.store.incrementPhasesAlive(["candidate"]), 2);
    assert.deepEqual((await o.store.findExpired(["candidate"], 10, 3)).map((e) => e.id), [todo.id]);
    assert.equal((await o.store.getEntry(keep.id))!.lifecycle.phases_alive, 4);
    const order = (await o.store.evictionCandidates(10)).map((e) => e.id);
    assert.equal(order[0], archived.id);
    assert.ok(!order.includes(promoted.id), "promoted entries are never evicted");
  });

  it("the reflection queue: idempotent enqueue, leases, retries and dead letters", async (o) => {
    assert.equal(await o.store.enqueueOutcome("o-1", { success: true }, "2025-01-01T00:00:00.000Z"), true);
    assert.equal(await o.store.enqueueOutcome("o-1", { success: true }, "2025-01-01T00:00:00.000Z"), false);
    await o.store.enqueueOutcome("o-2", { success: false }, "2025-01-01T00:00:01.000Z");
    assert.equal(await o.store.outcomeEnqueuedAt("o-2"), "2025-01-01T00:00:01.000Z");
    assert.equal(await o.store.outcomeEnqueuedAt("o-3"), undefined);
    const now = "2025-01-02T00:00:00.000Z";
    const first = await o.store.claimNextOutcome(now, "2025-01-02T00:01:00.000Z");
    assert.equal(first?.id, "o-1");
    assert.equal(first?.attempts, 1);
    assert.deepEqual(first?.payload, { success: true });
    const second = await o.store.claimNextOutcome(now, "2025-01-02T00:01:00.000Z");
    assert.equal(second?.id, "o-2");
    assert.equal(await o.store.claimNextOutcome(now, "2025-01-02T00:01:00.000Z"), undefined, "both are leased");
    await o.store.completeOutcome("o-1", { ok: 1 }, now);
    assert.equal(await o.store.failOutcome("o-2", "boom", 2, "2025-01-02T00:00:30.000Z"), "pending");
    assert.equal(await o.store.claimNextOutcome(now, "2025-01-02T00:01:00.000Z"), undefined, "not before its retry time");
    const retry = await o.store.claimNextOutcome("2025-01-02T00:00:31.000Z", "2025-01-02T00:02:00.000Z");
    assert.equal(retry?.attempts, 2);
    assert.equal(retry?.shares, undefined, "no shares until an attempt saves them");
    await o.store.saveOutcomeShares("o-2", { "e-1": 1, "e-2": 0.25 });
    assert.equal(await o.store.failOutcome("o-2", "boom", 3, "2025-01-02T00:01:00.000Z"), "pending");
    const third = await o.store.claimNextOutcome("2025-01-02T00:02:01.000Z", "2025-01-02T00:03:00.000Z");
    assert.deepEqual([third?.id, third?.attempts, third?.shares], ["o-2", 3, { "e-1": 1, "e-2": 0.25 }], "a later attempt gets the saved shares back");
    assert.equal(await o.store.failOutcome("o-2", "boom again", 3), "dead");
    assert.deepEqual(await o.store.queueCounts(), { done: 1, dead: 1 });
    assert.deepEqual((await o.store.listQueue("dead")).map((q) => [q.id, q.last_error]), [["o-2", "boom again"]]);
    assert.equal(await o.store.countOutcomes(), 2);
    assert.equal(await o.store.countOutcomes({ success: true }), 1);
  });

  it("regression: two processors never take two outcomes of one task at once: a later report of a task waits until the earlier one is done or dead", async (o) => {
    // A plugin's background pass held the agent's report (failed) while `cairn reflect` took the plan's automatic
    // outcome of the same task and laid its success first: the task's one verdict was the later one (a CI run).
    await o.store.enqueueOutcome("o-report", { task_id: "task-1", success: false }, "2025-01-01T00:00:00.000Z");
    await o.store.enqueueOutcome("task-1", { task_id: "task-1", success: true }, "2025-01-01T00:00:01.000Z");
    await o.store.enqueueOutcome("o-other", { task_id: "task-2", success: true }, "2025-01-01T00:00:02.000Z");
    await o.store.enqueueOutcome("o-plain", { success: true }, "2025-01-01T00:00:03.000Z");
    const now = "2025-01-02T00:00:00.000Z";
    const lease = "2025-01-02T00:01:00.000Z";
    assert.equal((await o.store.claimNextOutcome(now, lease))?.id, "o-report");
    assert.equal((await o.store.claimNextOutcome(now, lease))?.id, "o-other", "the same task's later outcome waits; another task's does not");
    assert.equal((await o.store.claimNextOutcome(now, lease))?.id, "o-plain");
    assert.equal(await o.store.claimNextOutcome(now, lease), undefined, "task-1 waits while its earlier outcome is processed");
    // Waiting on a retry counts too: the earlier outcome keeps its turn.
    assert.equal(await o.store.failOutcome("o-report", "busy", 5, "2025-01-02T00:00:30.000Z"), "pending");
    assert.equal(await o.store.claimNextOutcome(now, lease), undefined, "task-1 waits while its earlier outcome waits for its retry");
    assert.equal((await o.store.claimNextOutcome("2025-01-02T00:00:31.000Z", lease))?.id, "o-report");
    await o.store.completeOutcome("o-report", null, now);
    assert.equal((await o.store.claimNextOutcome(now, lease))?.id, "task-1", "its turn once the earlier one is done");
  });

  it("the outbox keeps items in order, idempotent by id, until completed or parked", async (o) => {
    assert.equal(await o.store.enqueueOutbox("b-1", "usage", { ids: ["x"] }, "2025-01-01T00:00:00.000Z"), true);
    assert.equal(await o.store.enqueueOutbox("b-1", "usage", { ids: ["x"] }, "2025-01-01T00:00:00.000Z"), false);
    await o.store.enqueueOutbox("a-2", "feedback", { ref: "H-1" }, "2025-01-01T00:00:01.000Z");
    assert.deepEqual((await o.store.listOutbox("pending")).map((i) => [i.id, i.op]), [["b-1", "usage"], ["a-2", "feedback"]], "insertion order, not id order");
    await o.store.failOutbox("b-1", "hive down", false);
    const [b] = await o.store.listOutbox("pending", 1);
    assert.equal(b!.attempts, 1);
    assert.equal(b!.last_error, "hive down");
    assert.deepEqual(b!.payload, { ids: ["x"] });
    await o.store.completeOutbox("b-1");
    await o.store.failOutbox("a-2", "no such entry", true);
    assert.deepEqual(await o.store.outboxCounts(), { pending: 0, dead: 1 });
    assert.deepEqual((await o.store.listOutbox("dead")).map((i) => i.id), ["a-2"]);
  });

  it("the rejected list is capped and answers isRejected", async (o) => {
    for (let i = 0; i < 5; i++) await o.store.addRejected({ lesson: `bad ${i}`, reason: "vague", codes: ["vague"], source: "add", at: "2025-01-01T00:00:00.000Z" }, 3);
    const list = await o.store.listRejected();
    assert.deepEqual(list.map((r) => r.lesson), ["bad 4", "bad 3", "bad 2"]);
    assert.deepEqual(list[0]!.codes, ["vague"]);
    assert.equal((await o.store.isRejected("bad 3"))?.reason, "vague");
    assert.equal(await o.store.isRejected("bad 0"), undefined);
    await o.store.addRejected({ lesson: "x".repeat(3000) + "\u00e9", reason: "long", codes: [], source: "add", at: "2025-01-01T00:00:00.000Z" }, 10);
    assert.equal((await o.store.isRejected("x".repeat(3000) + "\u00e9"))?.reason, "long", "long lessons are indexed too");
  });

  it("the rules version moves on rule-bearing changes, not on usage", async (o) => {
    const v0 = await o.store.rulesVersion();
    const plain = await o.store.insertEntry(entry("Read the changelog before a major upgrade."), created);
    assert.equal(await o.store.rulesVersion(), v0, "an entry without globs or a pattern is not a rule");
    const rule = await o.store.insertEntry(entry("Never commit .env files.", { applicability: { ...plain.applicability, file_globs: [".env*"] } }), created);
    const v1 = await o.store.rulesVersion();
    assert.ok(v1 > v0);
    await o.store.recordUsage([rule.id], "consulted", "t");
    assert.equal(await o.store.rulesVersion(), v1, "usage counters do not move it");
    await o.store.updateEntry(rule.id, (x) => ({ ...x, lifecycle: { ...x.lifecycle, status: "established" } }), { type: "approved", actor: "human:x" });
    const v2 = await o.store.rulesVersion();
    assert.ok(v2 > v1);
    await o.store.deleteEntry(rule.id, { type: "removed", actor: "t" });
    assert.ok((await o.store.rulesVersion()) > v2);
    const other = await o.reopen();
    assert.equal(await other.rulesVersion(), await o.store.rulesVersion(), "every client reads the same version");
  });

  it("subscribers hear about each committed change", async (o) => {
    const heard: StoreChange["type"][] = [];
    const off = o.store.subscribe((c) => {
      heard.push(c.type);
    });
    const e = await o.store.insertEntry(entry("Rotate the signing key with an overlap window."), created);
    await o.store.updateEntry(e.id, (x) => x, { type: "updated", actor: "t" });
    await o.store.recordUsage([e.id], "shown", "t");
    await o.store.incrementPhasesAlive(["candidate"]);
    await o.store.deleteEntry(e.id, { type: "removed", actor: "t" });
    off();
    await o.store.insertEntry(entry("Unheard after unsubscribing."), created);
    assert.deepEqual(heard, ["insert", "update", "usage", "bulk", "delete"]);
  });

  it("browsing: keyset pages by a sort column, all-words search, capped counts, day counts, usage per project, source projects", async (o) => {
    const lessons = [
      "Run prisma generate after every change to schema.prisma.",
      "Pin the Node version in .nvmrc so CI and laptops agree.",
      "Close the Kafka producer in the SIGTERM handler before exit.",
      "Run prisma migrate deploy before the api container starts.",
      "Keep the Renovate schedule to weekends so deploys stay quiet.",
    ];
    const added: Entry[] = [];
    for (const [i, l] of lessons.entries()) {
      const prov = { created_by: "human:ann", source_project_id: i % 2 ? "proj-b" : "proj-a", source_project_name: i % 2 ? "billing" : "checkout" };
      added.push(await o.store.insertEntry(entry(l, { provenance: prov as Entry["provenance"], tags: i < 2 ? ["orm"] : [] }), created));
    }
    await o.store.recordUsage([added[0]!.id, added[3]!.id], "shown", "agent:coder", { project_id: "proj-a" });
    await o.store.recordUsage([added[0]!.id], "shown", "agent:coder", { project_id: "proj-b" });
    // An applied verdict is an `applied` event (what feedback logs), carrying the project that applied it.
    await o.store.appendEvent(added[0]!.id, { type: "applied", actor: "agent:coder", data: { verdict: "applied", project_id: "proj-b" } });

    // Pages of two in creation order, each after the last row of the one before: every entry once, in order.
    const seen: string[] = [];
    let after: { key: string | number; seq: number } | undefined;
    for (;;) {
      const page = await o.store.pageEntries({ filter: {}, sort: "created", desc: false, limit: 2, ...(after ? { after } : {}) });
      if (page.length === 0) break;
      seen.push(...page.map((r) => r.entry.id));
      after = { key: page.at(-1)!.key, seq: page.at(-1)!.seq };
    }
    assert.deepEqual(seen, added.map((e) => e.id));
    const byShown = await o.store.pageEntries({ filter: {}, sort: "shown", desc: true, limit: 1 });
    assert.equal(byShown[0]!.entry.id, added[0]!.id, "the most shown first");

    const prisma = await o.store.pageEntries({ filter: {}, text: "prisma run", sort: "relevance", desc: false, limit: 10 });
    assert.deepEqual(new Set(prisma.map((r) => r.entry.id)), new Set([added[0]!.id, added[3]!.id]), "every word must occur");
    assert.deepEqual(await o.store.pageEntries({ filter: {}, text: "prisma kafka", sort: "created", desc: false, limit: 10 }), []);
    assert.equal(await o.store.countEntriesCapped({}, "prisma", 100), 2);
    assert.equal(await o.store.countEntriesCapped({}, undefined, 3), 3, "the count stops at its cap");
    assert.equal(await o.store.countEntriesCapped({ anyTags: ["orm"] }, undefined, 100), 2);
    assert.equal(await o.store.countEntriesCapped({ sourceProjects: ["proj-b"] }, undefined, 100), 2);
    // By id, in and out: a listing that shows a promoted lesson once leaves its project original out of the count and the page.
    const two = [added[0]!.id, added[3]!.id];
    assert.equal(await o.store.countEntriesCapped({ excludeIds: two }, undefined, 100), 3);
    assert.equal(await o.store.countEntriesCapped({ excludeIds: two }, "prisma", 100), 0);
    assert.deepEqual((await o.store.listEntries({ ids: two }, { order: "oldest" })).map((e) => e.id), two);
    assert.deepEqual(
      (await o.store.pageEntries({ filter: { excludeIds: two }, sort: "created", desc: false, limit: 10 })).map((r) => r.entry.id),
      added.map((e) => e.id).filter((id) => !two.includes(id)),
    );
    assert.deepEqual((await o.store.pageEntries({ filter: { ids: two }, text: "prisma", sort: "created", desc: false, limit: 10 })).length, 2);

    const days = await o.store.eventCountsByDay(["created", "shown"], "2000-01-01");
    const total = (type: string) => days.filter((d) => d.type === type).reduce((n, d) => n + Number(d.n), 0);
    assert.equal(total("created"), 5);
    assert.equal(total("shown"), 3);

    const usage = await o.store.projectUsage(10);
    assert.deepEqual(
      usage.projects.map((p) => [p.project_id, Number(p.entries), Number(p.shown), Number(p.applied)]),
      [["proj-a", 2, 2, 0], ["proj-b", 1, 1, 1]],
      "busiest first (shown + applied), ties by project id",
    );
    assert.equal(usage.entries[0]!.entry_id, added[0]!.id, "the entry used by the most projects leads");

    const sources = await o.store.sourceProjects(10);
    assert.deepEqual(sources.map((p) => [p.project_id, Number(p.entries), p.project_name]), [["proj-a", 3, "checkout"], ["proj-b", 2, "billing"]]);
    assert.deepEqual(await o.store.sourceProjectIds(10), [{ project_id: "proj-a", project_name: "checkout" }, { project_id: "proj-b", project_name: "billing" }]);
  });

  it("the tallies per status and creator kind stay exact through add, usage, update, status change, remove and copy", async (o, tier) => {
    const check = async (step: string) => {
      assert.deepEqual(await talliesOf(o.store), await talliesFromEntries(o.store), `after ${step}`);
      const truth = await o.rows("entries");
      assert.equal((await o.store.entryTallies()).reduce((a, t) => a + t.entries, 0), truth, `entries after ${step}`);
      assert.equal(await o.store.countEntries(), truth);
    };
    const by = (created_by: string) => ({ provenance: { ...entry("x").provenance, created_by } });
    const a = await o.store.insertEntry(entry("Pin the base image digest in every Dockerfile.", by("agent:coder"), tier), created);
    const b = await o.store.insertEntry(entry("Run the schema diff before merging a migration.", by("human:ann"), tier), created);
    const c = await o.store.insertEntry(entry("Vendor the protobuf definitions with their generated code.", by("import:file"), tier), created);
    await o.store.insertEntry(entry("Keep feature flags out of the hot path.", { ...by("agent:reviewer"), lifecycle: { ...entry("x").lifecycle, status: "draft" } }, tier), created);
    await check("inserts");
    await o.store.recordUsage([a.id, b.id], "shown", "agent:coder");
    await o.store.recordUsage([a.id], "applied", "agent:coder");
    await o.store.recordUsage([b.id], "consulted", "agent:coder");
    await o.store.recordUsage([c.id], "prevented", "agent:coder");
    await o.store.recordUsage([c.id], "ignored", "agent:coder");
    await check("usage");
    await o.store.updateEntry(a.id, (x) => ({ ...x, tags: ["docker"] }), { type: "updated", actor: "t" });
    await o.store.updateEntry(a.id, (x) => ({ ...x, lifecycle: { ...x.lifecycle, status: "established" } }), { type: "approved", actor: "t" });
    await o.store.updateEntry(b.id, (x) => ({ ...x, lifecycle: { ...x.lifecycle, status: "archived" }, usage: { ...x.usage, shown: x.usage.shown + 3 } }), { type: "archived", actor: "t" });
    await o.store.updateEntry(c.id, (x) => ({ ...x, provenance: { ...x.provenance, created_by: "curator:merge" } }), { type: "updated", actor: "t" });
    await o.store.incrementPhasesAlive(["candidate", "established"]);
    await check("updates and status changes");
    await o.store.deleteEntry(b.id, { type: "removed", actor: "t" });
    await check("remove");
    const copied = entry("Set fetch timeouts explicitly; the default waits forever.", by("agent:elsewhere"), tier);
    copied.usage.shown = 4;
    copied.usage.applied = 2;
    assert.equal((await o.store.copyEntry(copied, [])).action, "inserted");
    const twin = entry("set fetch timeouts explicitly, the default waits forever", by("agent:other"), tier);
    twin.usage.shown = 1;
    assert.equal((await o.store.copyEntry(twin, [])).action, "merged");
    await check("copies");
    assert.deepEqual(
      (await o.store.usageBySource()).map((u) => [u.source, u.entries, u.shown, u.applied]),
      [["agent", 3, 6, 3], ["curator", 1, 0, 0]],
    );
    assert.deepEqual(await o.store.sumUsage({ statuses: ["established"] }), { entries: 1, shown: 1, applied: 1, consulted: 0, prevented: 0 });
    assert.equal(await o.store.countEntries({ statuses: ["draft", "candidate"] }), 3);
  });

  it("a database made before the tallies gets them filled in by the migration", async (o) => {
    const by = (created_by: string) => ({ provenance: { ...entry("x").provenance, created_by } });
    const a = await o.store.insertEntry(entry("Cap the retry budget per request, not per call.", by("agent:coder")), created);
    await o.store.insertEntry(entry("Document every environment variable in .env.example.", by("human:ann")), created);
    await o.store.recordUsage([a.id], "shown", "agent:coder");
    await o.undoTallies();
    const again = await o.reopen();
    assert.equal(await again.schemaVersion(), o.latest);
    assert.deepEqual(await talliesOf(again), ["candidate agent 1,1,0,0,0", "candidate human 1,0,0,0,0"]);
    await again.insertEntry(entry("Pin the toolchain version in rust-toolchain.toml.", by("agent:coder")), created);
    assert.deepEqual(await talliesOf(again), await talliesFromEntries(again));
  });

  it("countRejected counts the kept rejections up to its cap", async (o) => {
    assert.equal(await o.store.countRejected(10), 0);
    for (let i = 0; i < 5; i++) await o.store.addRejected({ lesson: `Too vague ${i}.`, reason: "vague", codes: ["vague"], source: "test", at: new Date().toISOString() }, 4);
    assert.equal(await o.store.countRejected(10), 4, "the list keeps its cap");
    assert.equal(await o.store.countRejected(3), 3);
  });

  it("copyEntry keeps ids, never-used handles and history; re-running changes nothing; a twin absorbs the copy once", async (o, tier) => {
    const src = entry("Set fetch timeouts explicitly; the default waits forever.", { handle: tier === "hive" ? "H-40" : "S-40", tier }, tier);
    src.lifecycle.confirmations = [{ at: src.created_at, project_id: "p-a", by: "agent:a" }];
    src.usage.shown = 4;
    src.usage.consulted = 2;
    const history = [
      { seq: 1, entry_id: src.id, type: "created" as const, at: "2025-01-01T00:00:00.000Z", actor: "agent:a", data: { source: "add" } },
      { seq: 2, entry_id: src.id, type: "shown" as const, at: "2025-01-02T00:00:00.000Z", actor: "cairn:inject", data: { counter: "shown" } },
    ];
    const first = await o.store.copyEntry(src, history);
    assert.equal(first.action, "inserted");
    assert.equal(first.entry.handle, src.handle, "a handle never handed out here is kept");
    const stored = (await o.store.getEntry(src.id))!;
    assert.equal(stored.usage.shown, 4);
    assert.equal(stored.usage.consulted, 2);
    assert.deepEqual(stored.lifecycle.confirmations, src.lifecycle.confirmations);
    assert.deepEqual((await o.store.listEvents(src.id)).map((e) => [e.type, e.at, e.actor]), history.map((e) => [e.type, e.at, e.actor]));
    assert.equal((await o.store.copyEntry(src, history)).action, "exists");
    assert.equal((await o.store.listEvents(src.id)).length, 2, "a second run copies nothing");

    const low = { ...entry("Prefer structured logging over string concatenation.", { handle: tier === "hive" ? "H-3" : "S-3", tier }, tier) };
    assert.notEqual((await o.store.copyEntry(low, [])).entry.handle, low.handle, "a number below the sequence may have been used: a new handle");

    const twin = { ...entry("set fetch timeouts explicitly, the default waits forever", {}, tier) };
    twin.lifecycle.confirmations = [{ at: twin.created_at, project_id: "p-b", by: "agent:b" }, { at: twin.created_at, project_id: "p-a", by: "agent:a" }];
    twin.usage.shown = 1;
    const merged = await o.store.copyEntry(twin, [{ seq: 9, entry_id: twin.id, type: "created", at: "2025-02-01T00:00:00.000Z", actor: "agent:b", data: {} }]);
    assert.equal(merged.action, "merged");
    assert.equal(merged.entry.id, src.id);
    const after = (await o.store.getEntry(src.id))!;
    assert.deepEqual(after.lifecycle.confirmations.map((c) => c.project_id).sort(), ["p-a", "p-b"], "one confirmation per project");
    assert.equal(after.usage.shown, 5);
    assert.equal((await o.store.copyEntry(twin, [])).action, "exists", "the twin is absorbed once");
    assert.equal((await o.store.getEntry(src.id))!.usage.shown, 5);
    assert.equal(await o.store.totalEntries(), 2);
    const events = await o.store.listEvents(src.id);
    assert.ok(events.some((e) => e.data.copied_from === twin.id && e.actor === "agent:b"), "the twin's history is kept, marked");
  }, "hive");
}

for (const impl of [sqlite, postgres]) describe(`Store contract: ${impl.name}`, () => contract(impl));

describe("PostgreSQL only", () => {
  test("every write event records the database role beside the actor", pgTestOptions(), async () => {
    const o = await postgres.open("hive");
    try {
      const e = await o.store.insertEntry(entry("Name every migration after the change it makes.", {}, "hive"), { type: "created", actor: "agent:coder" });
      await o.store.recordUsage([e.id], "shown", "cairn:inject");
      const events = await o.store.listEvents(e.id);
      const user = (await (o.store as PostgresStore).db.query<{ user: string }>("SELECT current_user AS user"))[0]!.user;
      assert.deepEqual(events.map((x) => [x.actor, x.db_role]), [["agent:coder", user], ["cairn:inject", user]]);
    } finally {
      await o.close();
    }
  });

  test("relevance means what the SQLite store's BM25 means: same order, same scale", pgTestOptions(), async () => {
    const o = await postgres.open("hive");
    const local = await sqlite.open("hive");
    try {
      const lessons = [
        "Cache the parsed config; parsing the YAML config on every request costs 4 ms.",
        "The webhook handler must verify the signature before parsing the body.",
        "Use a connection pool for Postgres; a new connection per request exhausts max_connections.",
        "Retry webhook deliveries with exponential backoff and a dead-letter queue.",
        "Parse dates with an explicit timezone; the server runs in UTC.",
        "Close the Postgres pool on SIGTERM so deploys drain cleanly.",
        "Signature checks compare in constant time to avoid timing attacks.",
        "Config reloads must not drop in-flight requests.",
      ];
      for (let i = 0; i < 40; i++) lessons.push(`Filler lesson ${i} about formatting the changelog for release ${i}.`);
      for (const l of lessons) {
        await o.store.insertEntry(entry(l, {}, "hive"), created);
        await local.store.insertEntry(entry(l, {}, "hive"), created);
      }
      for (const terms of [["webhook", "signature"], ["postgres", "pool", "request"], ["config", "parse"], ["timezone"]]) {
        const pgHits = await o.store.searchEntries(terms, {}, 10);
        const liteHits = await local.store.searchEntries(terms, {}, 10);
        assert.deepEqual(pgHits.map((h) => h.entry.lesson), liteHits.map((h) => h.entry.lesson), `same ranking for ${terms.join(" ")}`);
        pgHits.forEach((h, i) => {
          const ratio = h.relevance / liteHits[i]!.relevance;
          assert.ok(ratio > 0.8 && ratio < 1.25, `relevance ${h.relevance} vs SQLite ${liteHits[i]!.relevance} for ${terms.join(" ")}`);
        });
      }
    } finally {
      await o.close();
      await local.close();
    }
  });

  test("a search of one or two words scores each entry as the same words do beside words no entry holds", pgTestOptions(), async () => {
    // One or two lexemes are scored by their own statement form (each count read in one call); every entry's
    // relevance must be the one the general form (three lexemes or more) gives, whatever the counts and lengths.
    const o = await postgres.open("hive");
    try {
      const lessons = [
        "Cache the parsed config.",
        "Cache keys must include the tenant; a cache shared across tenants leaks data.",
        "Cache, cache, cache: warm the cache before the release, since a cold cache stalls the first requests for seconds.",
        "The deploy script clears the cache and then restarts every worker of the pool one at a time, waiting for health checks between them.",
        "Warm the CDN cache after a purge; warm it again after a warm restart.",
        "Warm up the JIT with a few requests before measuring.",
      ];
      for (const l of lessons) await o.store.insertEntry(entry(l, {}, "hive"), created);
      const scored = (hits: SearchHit[]) => hits.map((h) => [h.entry.lesson, h.relevance] as const);
      const unheardOf = ["qzxvwunheardof", "wvqzxneverseen"];
      for (const words of [["cache"], ["cache", "warm"]]) {
        const alone = scored(await o.store.searchEntries(words, {}, 10));
        const beside = scored(await o.store.searchEntries([...words, ...unheardOf], {}, 10));
        assert.ok(alone.length >= 5, words.join(" "));
        assert.deepEqual(alone, beside, words.join(" "));
      }
      const [first] = await o.store.searchEntries(["cache"], {}, 1);
      assert.match(first!.entry.lesson, /^Cache, cache, cache/, "the entry saying it most often ranks first");
    } finally {
      await o.close();
    }
  });

  test("two clients opening a new schema at once migrate it once", pgTestOptions(), async () => {
    const url = pgTestUrl()!;
    const schema = uniqueSchema("migrate");
    const stores = Array.from({ length: 6 }, () => new PostgresStore({ url, schema }, "hive"));
    try {
      const versions = await Promise.all(stores.map((s) => s.schemaVersion()));
      assert.deepEqual(versions, versions.map(() => PG_LATEST_SCHEMA_VERSION));
      const rows = await stores[0]!.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".schema_migrations`);
      assert.equal(rows[0]!.n, PG_LATEST_SCHEMA_VERSION, "each migration recorded exactly once");
    } finally {
      for (const s of stores) await s.close();
      await dropSchema(url, schema);
    }
  });

  test("the password never appears in an error, the location or a failed connection", async () => {
    const store = new PostgresStore({ url: "postgres://cairn_nobody:s3cr3t-Pa55@127.0.0.1:1/none", schema: "cairn_t_never", connectTimeoutMs: 500 }, "hive");
    try {
      assert.doesNotMatch(store.location, /s3cr3t/);
      const err = await store.totalEntries().then(() => undefined, (e: unknown) => e as Error & { code?: string });
      assert.ok(err, "an unreachable server is an error");
      assert.equal(err.code, "UNAVAILABLE");
      assert.doesNotMatch(`${err.message} ${err.stack} ${JSON.stringify(err)}`, /s3cr3t/);
      assert.match(err.message, /\*\*\*/);
    } finally {
      await store.close();
    }
  });
});
