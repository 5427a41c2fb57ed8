// The engine queries behind the web UI: keyset browsing across tiers, indexed filters, the review queue, lesson detail, the dashboard.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema, type Entry, type Tier } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { SqliteDriver } from "../../src/store/driver.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { APPROVAL_ON, openEnv } from "./helpers.js";

function entry(tier: Tier, i: number, extra: Record<string, unknown> = {}): Entry {
  // Few distinct values, so every sort has ties the cursor must break by tier and seq.
  const at = new Date(Date.UTC(2026, 0, 1 + (i % 5))).toISOString();
  return EntrySchema.parse({
    id: newEntryId(), handle: "", tier, lesson: `Lesson number ${i} about the ${i % 2 ? "billing" : "search"} module and its retry budget`,
    category: i % 3 ? "tooling" : "testing", kind: "learning", tags: [i % 2 ? "billing" : "search", `t${i % 4}`],
    lifecycle: { confidence: [0.3, 0.5, 0.7][i % 3] }, usage: { shown: i % 4, applied: i % 2 },
    provenance: { source_project_id: `p_${i % 3}`, source_project_name: `proj-${i % 3}` },
    created_at: at, updated_at: at, ...extra,
  });
}

async function seedTiers(swarmFile: string, hiveFile: string, n: number): Promise<void> {
  for (const [file, tier] of [[swarmFile, "swarm"], [hiveFile, "hive"]] as const) {
    const store = new SqliteStore(file, tier);
    for (let i = 0; i < n; i++) await store.insertEntry(entry(tier, i + (tier === "hive" ? 1000 : 0)), { type: "created", actor: "test" });
    await store.close();
  }
}

test("browse: keyset pages over both tiers return every entry once, in order, for every sort and direction", async () => {
  const sb = makeSandbox();
  await seedTiers(path.join(sb.projectDir, ".swarm", "cairn.db"), sb.hivePath, 37);
  const env = await openEnv();
  // openEnv makes its own sandbox; read this one with a person's engine.
  await env.close();
  const { openCairn } = await import("../../src/index.js");
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:alice" });
  try {
    const all = (await cairn.list({ limit: 1000 })).length;
    assert.equal(all, 74);
    for (const sort of ["created", "updated", "confidence", "shown", "applied"] as const) {
      for (const desc of [true, false]) {
        const seen: Entry[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await cairn.browse({ sort, desc, limit: 10, ...(cursor ? { cursor } : {}) });
          assert.equal(page.total, 74);
          seen.push(...page.entries);
          cursor = page.next;
          pages++;
        } while (cursor && pages < 20);
        assert.equal(seen.length, 74, `${sort} ${desc ? "desc" : "asc"}: every entry`);
        assert.equal(new Set(seen.map((e) => e.id)).size, 74, `${sort} ${desc ? "desc" : "asc"}: none twice`);
        const key = (e: Entry) =>
          sort === "created" ? e.created_at : sort === "updated" ? e.updated_at : sort === "confidence" ? e.lifecycle.confidence : sort === "shown" ? e.usage.shown : e.usage.applied;
        for (let i = 1; i < seen.length; i++) {
          const [a, b] = [key(seen[i - 1]!), key(seen[i]!)];
          assert.ok(desc ? a >= b : a <= b, `${sort} ${desc ? "desc" : "asc"} in order at ${i}: ${a} then ${b}`);
        }
      }
    }
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});

test("browse: all words must match, filters combine, tags and projects come from their indexes, bad values are refused", async () => {
  const env = await openEnv();
  try {
    const c = env.human;
    const a = await c.add({ lesson: "The billing worker must read the Stripe webhook tolerance from config, not a hard-coded 300 seconds.", category: "integration", tags: ["billing", "stripe"] });
    const b = await c.add({ lesson: "The search indexer must batch writes to Elasticsearch in groups of 500 or the cluster rejects them.", category: "performance", tags: ["search"] });
    const h = await c.promote({ lesson: { lesson: "Webhook handlers must verify signatures with the raw request body before parsing JSON.", category: "security", tags: ["stripe", "webhooks"] } });
    assert.deepEqual((await c.browse({ text: "stripe tolerance" })).entries.map((e) => e.id), [a.id], "both words");
    assert.deepEqual((await c.browse({ text: "stripe elasticsearch" })).entries, [], "AND, not OR");
    assert.deepEqual((await c.browse({ text: "webh" })).entries.map((e) => e.id).sort(), [a.id, h.id].sort(), "prefix match on a longer word");
    assert.deepEqual((await c.browse({ tags: ["STRIPE"] })).entries.map((e) => e.id).sort(), [a.id, h.id].sort(), "tags, any case");
    assert.deepEqual((await c.browse({ tags: ["stripe"], tier: "hive" })).entries.map((e) => e.id), [h.id]);
    assert.deepEqual((await c.browse({ categories: ["performance"] })).entries.map((e) => e.id), [b.id]);
    assert.deepEqual((await c.browse({ projects: [c.project.id] })).total, 3, "every lesson here came from this project");
    assert.deepEqual((await c.browse({ projects: ["p_elsewhere"] })).total, 0);
    assert.deepEqual(await c.sourceProjects(), [{ project_id: c.project.id, project_name: c.project.name, tiers: ["swarm", "hive"] }], "the filter menu's projects");
    assert.equal((await c.browse({ tags: ["stripe"] })).total, 2, "a tags-only count");
    await assert.rejects(c.browse({ categories: ["nonsense" as never] }), /Unknown category nonsense/);
    await assert.rejects(c.browse({ sort: "lesson" as never }), /Unknown sort/);
    await assert.rejects(c.browse({ cursor: "not-a-cursor" }), /Invalid page cursor/);
    const stop = await c.browse({ text: "must" });
    assert.deepEqual([stop.total, stop.entries.length], [0, 0], "a stop word alone matches nothing (not everything)");
  } finally {
    await env.close();
  }
});

test("entry_tags follow every change to an entry's tags, and removals", async () => {
  const env = await openEnv();
  try {
    const c = env.human;
    const r = await c.add({ lesson: "Close the Kafka producer in the SIGTERM handler or in-flight messages are lost on deploy.", tags: ["kafka"] });
    assert.equal((await c.browse({ tags: ["kafka"] })).total, 1);
    await c.edit(r.id!, { tags: ["messaging", "shutdown"] });
    assert.equal((await c.browse({ tags: ["kafka"] })).total, 0, "the old tag no longer finds it");
    assert.equal((await c.browse({ tags: ["shutdown"] })).total, 1, "the new one does");
    await c.remove(r.id!);
    assert.equal((await c.browse({ tags: ["shutdown"] })).total, 0);
  } finally {
    await env.close();
  }
});

test("sorted pages and tag filters walk indexes: no full sort of the table, no JSON scan", async () => {
  const sb = makeSandbox();
  const store = new SqliteStore(path.join(sb.root, "s.db"), "swarm");
  try {
    const plan = (sql: string, params: unknown[] = []) =>
      store.driver.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params as never).map((r) => r.detail).join(" | ");
    for (const col of ["created_at", "updated_at", "confidence", "shown", "applied"]) {
      const p = plan(`SELECT e.seq FROM entries e WHERE (e.${col}, e.seq) < (?, ?) ORDER BY e.${col} DESC, e.seq DESC LIMIT 51`, [1, 1]);
      assert.doesNotMatch(p, /TEMP B-TREE/, `${col}: ${p}`);
      assert.match(p, /USING (COVERING )?INDEX entries_by_/, `${col}: ${p}`);
    }
    const tags = plan("SELECT e.seq FROM entries e WHERE e.seq IN (SELECT seq FROM entry_tags WHERE tag IN (?)) ORDER BY e.created_at DESC, e.seq DESC LIMIT 51", ["x"]);
    assert.match(tags, /entry_tags/, tags);
    assert.doesNotMatch(tags, /json_each/, tags);
    const contradicted = plan(`SELECT e.seq FROM entries e WHERE e.seq IN (SELECT seq FROM entries WHERE instr(json_extract(data, '$.lifecycle.flags'), '"contradicts:') > 0)`);
    assert.match(contradicted, /entries_contradicted/, contradicted);
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

test("migration 6 on a version-5 database fills entry_tags and the daily event counts from what is there", async () => {
  const sb = makeSandbox();
  const file = path.join(sb.root, "old.db");
  const driver = new SqliteDriver(file);
  driver.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  driver.exec("INSERT OR IGNORE INTO meta(key, value) VALUES ('entry_count', 0)");
  for (const m of MIGRATIONS.filter((x) => x.version <= 5)) driver.exec(m.sql);
  driver.exec("PRAGMA user_version = 5");
  const e = entry("swarm", 1);
  driver.run(
    `INSERT INTO entries(id, tier, created_at, lesson, category, kind, status, scope, priority, confidence, fingerprint, updated_at, search_text, data)
     VALUES (?, 'swarm', ?, ?, 'tooling', 'learning', 'candidate', 'global', 'medium', 0.5, 'fp', ?, ?, ?)`,
    [e.id, e.created_at, e.lesson, e.updated_at, e.lesson, JSON.stringify(e)],
  );
  driver.run("INSERT INTO events(entry_id, type, at, actor, data) VALUES (?, 'created', ?, 'test', '{}')", [e.id, "2026-01-02T10:00:00.000Z"]);
  driver.run("INSERT INTO events(entry_id, type, at, actor, data) VALUES (?, 'shown', ?, 'test', '{}')", [e.id, "2026-01-02T11:00:00.000Z"]);
  driver.close();
  const store = new SqliteStore(file, "swarm");
  try {
    assert.equal((await store.listEntries({ anyTags: ["billing"] })).length, 1, "existing tags are indexed");
    assert.deepEqual(
      (await store.eventCountsByDay(["created", "shown"], "2026-01-01")).map((d) => [d.day, d.type, d.n]),
      [["2026-01-02", "created", 1], ["2026-01-02", "shown", 1]],
      "existing events are counted",
    );
  } finally {
    await store.close();
    removeSandbox(sb);
  }
});

test("review queue: drafts oldest first, open contradictions, low utility; a person's decision takes an item off", async () => {
  const env = await openEnv({ ...APPROVAL_ON, knowledge: { low_utility_min_applied: 0 } });
  try {
    const d1 = await env.agent.add({ lesson: "Run prisma generate after editing prisma/schema.prisma or the generated client stays stale in CI." });
    const d2 = await env.agent.add({ lesson: "Restart the staging queue worker on Fridays so retried jobs clear before the weekend." });
    const old = await env.human.add({ lesson: "Set the HTTP client retry count to 3 for the payments gateway calls in src/pay/client.ts." });
    const flagged = await env.human.add({ lesson: "Set the HTTP client retry count to 10 for the payments gateway calls in src/pay/client.ts." });
    assert.ok(flagged.flags?.some((f) => f === `contradicts:${old.id}`), `value conflict flagged: ${JSON.stringify(flagged)}`);
    const low = await env.human.add({ lesson: "Always regenerate the GraphQL schema snapshot before committing resolvers in api/graphql." });
    for (let i = 0; i < 4; i++) await env.human.feedback(low.id!, "ignored");
    const q = await env.human.reviewQueue();
    const ids = q.items.map((i) => i.entry.id);
    assert.deepEqual(ids.slice(0, 2), [d1.id, d2.id], "drafts first, oldest first");
    assert.ok(ids.includes(flagged.id!), "the flagged contradiction waits");
    assert.deepEqual(q.items.find((i) => i.entry.id === flagged.id)!.reasons, [{ kind: "contradiction", with: [old.id] }]);
    assert.ok(ids.includes(low.id!) || q.counts.low_utility === 0, "low utility listed when flagged");
    assert.deepEqual({ drafts: q.counts.drafts, contradictions: q.counts.contradictions }, { drafts: 2, contradictions: 1 });

    const near = await env.human.nearest(flagged.id!);
    assert.equal(near[0]!.entry.id, old.id, "the contradicted lesson is the first neighbour");
    assert.equal(near[0]!.relation, "contradiction");

    await env.human.approve(d1.id!);
    await env.human.reject(d2.id!, "too specific");
    await env.human.approve(flagged.id!);
    const after = (await env.human.reviewQueue()).items.map((i) => i.entry.id);
    for (const id of [d1.id, d2.id, flagged.id]) assert.ok(!after.includes(id!), `${id} decided, off the queue`);
    await assert.rejects(env.agent.reviewQueue(), { code: "FORBIDDEN" }, "the queue is for people");
  } finally {
    await env.close();
  }
});

test("lesson detail: history, lineage both ways, merged sightings, and where it would be injected", async () => {
  const env = await openEnv();
  try {
    const c = env.human;
    const oldR = await c.add({ lesson: "Use the v1 payments API client from src/pay/v1 for refunds and captures." });
    const sw = await c.add({ lesson: "Close the Kafka producer in the SIGTERM handler or in-flight messages are lost on deploy.", tags: ["kafka"] });
    await env.agent.add({ lesson: "Close the Kafka producer in the SIGTERM handler, or in-flight messages are lost on deploy!", phase: "Phase 2" });
    const repl = await c.supersede(oldR.id!, { lesson: "Use the v2 payments API client from src/pay/v2 for refunds and captures; v1 is retired." });
    const promoted = await c.promote({ id: sw.id! });
    const detail = await c.lessonDetail(sw.id!);
    assert.equal(detail.lineage.promoted_to?.id, promoted.id, "promoted to the hive entry");
    assert.equal(detail.lineage.merged.length, 1, "the near-duplicate sighting is listed");
    assert.deepEqual(detail.events.map((e) => e.type), ["created", "reinforced", "promoted"]);
    const hive = await c.lessonDetail(promoted.id!);
    assert.equal(hive.lineage.promoted_from?.id, sw.id, "and back from the hive");
    const oldDetail = await c.lessonDetail(oldR.id!);
    assert.equal(oldDetail.lineage.superseded_by?.id, repl.replacement.id);
    assert.equal(oldDetail.reach.live, false, "superseded: never injected");
    const newDetail = await c.lessonDetail(repl.replacement.id);
    assert.equal(newDetail.lineage.supersedes?.id, oldR.id);
    assert.equal(newDetail.reach.live, true);
    assert.equal(newDetail.reach.scope_default, true);
  } finally {
    await env.close();
  }
});

test("dashboard: weekly counts from the rollup, usage per project, never applied, rejections by reason, contributions, queue", async () => {
  const env = await openEnv({ ...APPROVAL_ON, knowledge: { min_retrievals_for_utility: 1 } });
  try {
    const c = env.human;
    const a = await c.add({ lesson: "Close the Kafka producer in the SIGTERM handler or in-flight messages are lost on deploy.", tags: ["kafka"] });
    const h = await c.promote({ lesson: { lesson: "Set busy_timeout on every SQLite connection; the default of zero fails writes under contention." } });
    const d = await env.agent.add({ lesson: "Restart the staging queue worker on Fridays so retried jobs clear before the weekend." });
    await c.reject(d.id!, "Too specific");
    await c.add({ lesson: "ok" });
    const shown = await env.agent.inject({ task: "deploy the kafka consumer and tune the sqlite busy_timeout under contention" });
    assert.ok(shown.entries.length >= 2, `both injected: ${JSON.stringify(shown.entries)}`);
    await env.agent.feedback(h.id!, "applied");
    const dash = await c.dashboard({ weeks: 4 });
    const week = dash.weeks.at(-1)!;
    assert.equal(dash.weeks.length, 4);
    assert.equal(week.added, 3, "three lessons created this week (the rejected draft included)");
    assert.equal(week.archived, 1);
    assert.equal(week.shown, shown.entries.length);
    assert.equal(week.applied, 1);
    assert.equal(week.rate, 1 / shown.entries.length);
    assert.deepEqual(dash.rejected.review, [{ reason: "too specific", n: 1 }]);
    assert.ok(dash.rejected.gates.length >= 1, "the too-short lesson was refused by a gate");
    assert.deepEqual(dash.never_applied.top.map((r) => r.id), [a.id], "shown, never applied");
    assert.deepEqual(dash.usage.projects.map((p) => [p.project_id, p.shown, p.applied]), [[c.project.id, 1, 1]], "this project used the hive lesson");
    assert.deepEqual(dash.usage.lessons.map((l) => l.entry.id), [h.id]);
    assert.deepEqual(dash.contributions.map((p) => [p.project_id, p.entries, p.current]), [[c.project.id, 1, true]]);
    assert.equal(dash.governance.rejections, 1);
    assert.equal(dash.governance.approval_rate, 0, "one rejected, none approved in the window");
  } finally {
    await env.close();
  }
});

test("browse (the web lessons page's filter) takes status approved: what the Markdown mirror's approved/ folder holds", async () => {
  const env = await openEnv();
  try {
    const a = await env.human.add({ lesson: "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", category: "tooling" });
    await env.human.add({ lesson: "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", category: "tooling" });
    await env.human.approve(a.id!);
    const page = await env.human.browse({ statuses: ["approved"] as never });
    assert.deepEqual(page.entries.map((e) => e.id), [a.id]);
    await assert.rejects(env.human.browse({ statuses: ["aproved"] as never }), /Unknown status aproved.*approved/);
  } finally {
    await env.close();
  }
});

test("lesson detail (the web page) names the entries its events point at by handle: the timeline reads by: S-2, not an id", async () => {
  const env = await openEnv();
  try {
    const a = await env.human.add({ lesson: "Use pnpm install --frozen-lockfile in CI pipelines for reproducible builds", category: "tooling" });
    const b = await env.human.add({ lesson: "Pin Node to 20.x in .nvmrc so CI runners and laptops share one runtime", category: "tooling" });
    await env.human.supersede(a.id!, b.id!);
    const old = await env.human.lessonDetail(a.handle!);
    assert.equal(old.handles[b.id!], b.handle);
    assert.equal(old.lineage.superseded_by?.handle, b.handle);
    const repl = await env.human.lessonDetail(b.handle!);
    assert.equal(repl.handles[a.id!], a.handle);
  } finally {
    await env.close();
  }
});
