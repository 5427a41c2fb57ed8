// Dates on the way in: an import repairs or refuses an unreadable date, and no stored date can make a recall score NaN.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import type { RecallHit } from "../../src/index.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { withCairn } from "../helpers/engine.js";
import { rawEntry } from "../retrieval/helpers.js";

const at = "2026-01-05T10:00:00.000Z";

function exported(lesson: string, patch: (e: Record<string, any>) => void): Record<string, any> {
  const e = JSON.parse(JSON.stringify(rawEntry({ lesson, category: "tooling" }))) as Record<string, any>;
  e.created_at = at;
  e.updated_at = at;
  e.lifecycle.status = "established";
  patch(e);
  return e;
}

function assertFinite(hits: RecallHit[], where: string): void {
  assert.ok(hits.length > 0, `${where}: something was recalled`);
  // Through JSON as `--json` prints it: NaN would come out as null.
  for (const h of JSON.parse(JSON.stringify(hits)) as RecallHit[]) {
    assert.equal(typeof h.score, "number", `${where}: ${h.entry.handle} score ${h.score}`);
    assert.ok(Number.isFinite(h.score), `${where}: ${h.entry.handle} score ${h.score}`);
    for (const [k, v] of Object.entries(h.breakdown)) assert.ok(typeof v === "number" && Number.isFinite(v), `${where}: ${h.entry.handle} breakdown.${k} = ${v}`);
  }
}

test("regression 11.19: an import with unreadable dates repairs or refuses them, reports it, and every recall score is finite", async () => {
  await withCairn(async (c, sb) => {
    const rows = [
      exported("Prisma import batches must stay under five seconds per transaction.", (e) => {
        e.updated_at = "yesterday";
        e.usage.helpful = 2;
        e.usage.last_feedback_at = "yesterday";
      }),
      exported("Prisma import jobs run prisma migrate deploy before the workers start.", (e) => {
        e.lifecycle.revalidated_at = "not a date";
        e.lifecycle.confirmations = [{ at: "soon" }, { at: "2026-01-02 09:00" }];
        e.usage.harmful = 1;
      }),
      exported("Prisma import workers share one client per process.", (e) => {
        e.created_at = "yesterday";
      }),
      exported("Prisma import uses createMany with skipDuplicates for repeated rows.", (e) => {
        e.usage.last_shown_at = "2026-01-03";
      }),
    ];
    const file = path.join(sb.root, "legacy.jsonl");
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const report = await c.importFile(file, { format: "cairn" });

    assert.equal(report.imported, 3, JSON.stringify(report));
    assert.deepEqual(report.skipped_lines.map((b) => b.line), [3], "no created_at can be made up: refused");
    assert.match(report.skipped_lines[0]!.error, /created_at/);
    const warned = report.warnings.map((w) => `${w.line}: ${w.warning}`);
    assert.ok(warned.includes("1: updated_at is not a date-time; created_at used instead"), warned.join("\n"));
    assert.ok(warned.includes("1: usage.last_feedback_at is not a date-time; dropped"), warned.join("\n"));
    assert.ok(warned.includes("2: lifecycle.revalidated_at is not a date-time; dropped"), warned.join("\n"));
    assert.ok(warned.includes("2: 1 confirmation(s) without a readable date dropped"), warned.join("\n"));
    assert.ok(warned.includes("4: usage.last_shown_at normalised to ISO 8601"), warned.join("\n"));
    assert.ok(!warned.some((w) => w.includes("yesterday")), "the report never echoes the value");

    // What was stored holds only readable dates.
    const stored = await c.list({ limit: 10 });
    assert.equal(stored.length, 3);
    for (const e of stored) {
      const dates = [e.created_at, e.updated_at, e.usage.last_feedback_at, e.usage.last_shown_at, e.lifecycle.revalidated_at, ...e.lifecycle.confirmations.map((x) => x.at)];
      for (const d of dates) if (d !== undefined) assert.ok(Number.isFinite(Date.parse(d)), `${e.handle}: ${d}`);
    }
    const first = stored.find((e) => e.id === rows[0]!.id)!;
    assert.equal(first.updated_at, at);
    assert.equal(stored.find((e) => e.id === rows[1]!.id)!.lifecycle.confirmations.length, 1);
    assert.equal(stored.find((e) => e.id === rows[3]!.id)!.usage.last_shown_at, "2026-01-03T00:00:00.000Z");

    assertFinite(await c.recall("Prisma import"), "after import");
    await c.feedback(first.id, "helpful");
    assertFinite(await c.recall("Prisma import"), "after feedback");
  });
});

test("regression 11.19: a row stored with a bad date before validation scores finitely, and heals on its next update", async () => {
  await withCairn(async (c, sb) => {
    // Written with the store itself, past the schema: how a row from an older Cairn sits in the file.
    const legacy = rawEntry({ lesson: "Prisma import retries must back off exponentially after a deadlock.", category: "tooling" }) as Entry;
    legacy.usage.helpful = 3;
    legacy.usage.last_feedback_at = "yesterday";
    legacy.lifecycle.revalidated_at = "last week";
    const store = new SqliteStore(path.join(sb.projectDir, ".swarm", "cairn.db"), "swarm");
    try {
      await store.insertEntry(legacy, { type: "created", actor: "human:test" });
    } finally {
      await store.close();
    }
    const hits = await c.recall("Prisma import retries");
    assertFinite(hits, "legacy row");
    const hit = hits.find((h) => h.entry.id === legacy.id)!;
    assert.ok(hit.breakdown.feedback !== undefined && hit.breakdown.feedback > 0, "three helpful votes still lift it (no decay from an unreadable date)");

    const after = await c.feedback(legacy.id, "applied");
    assert.equal(after.usage.last_feedback_at, undefined, "the unreadable date is dropped on update, not a failure");
    assert.equal(after.lifecycle.revalidated_at, undefined);
    assertFinite(await c.recall("Prisma import retries"), "after the healing update");
  });
});

test("regression 11.19: the entry schema refuses an unreadable date on every write path", () => {
  const good = rawEntry({ lesson: "Prisma import batches stay small." });
  for (const [field, patch] of [
    ["updated_at", { updated_at: "yesterday" }],
    ["created_at", { created_at: "" }],
    ["usage.last_feedback_at", { usage: { ...good.usage, last_feedback_at: "yesterday" } }],
    ["lifecycle.confirmations.at", { lifecycle: { ...good.lifecycle, confirmations: [{ at: "soon" }] } }],
  ] as const) {
    assert.equal(EntrySchema.safeParse({ ...good, ...patch }).success, false, field);
  }
  assert.equal(EntrySchema.safeParse(good).success, true);
});

test("verdicts with no clock (a hand-made or older export row) count from the lesson's creation and fade as any others: two-year-old harmful votes silence nothing, recent ones do", async () => {
  await withCairn(async (c, sb) => {
    const recent = new Date(Date.now() - 86_400_000).toISOString();
    const rows = [
      exported("Prisma import workers must close the client before the process exits.", (e) => {
        e.created_at = e.updated_at = "2024-01-05T10:00:00.000Z";
        e.usage.harmful = 6;
      }),
      exported("Prisma import jobs must set a statement timeout on the batch connection.", (e) => {
        e.created_at = e.updated_at = "2024-01-05T10:00:00.000Z";
        e.usage.harmful = 6;
        e.usage.last_feedback_at = recent;
      }),
    ];
    const file = path.join(sb.root, "old.jsonl");
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const report = await c.importFile(file, { format: "cairn" });
    assert.equal(report.imported, 2, JSON.stringify(report));
    const shown = (await c.inject({ task: "prisma import workers client statement timeout batch connection" }, { recordShown: false })).entries.map((e) => e.id);
    assert.ok(shown.includes(rows[0]!.id), "two-year-old verdicts have faded: the lesson is injected again");
    assert.ok(!shown.includes(rows[1]!.id), "recent harmful verdicts still silence the other");
    // A new verdict decays the old sum from the creation date, not from no date at all.
    const after = await c.feedback(rows[0]!.id, "harmful");
    assert.ok(after.usage.harmful < 1.1, `the six old votes are near nothing beside the new one: ${after.usage.harmful}`);
  });
});
