// The lessons page (browse) and `cairn list` (one line per lesson) pair a promoted original with its hive copy by the original's promoted_to column, read by key: what they read does not grow with unrelated promotions.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Cairn } from "../../src/index.js";
import type { Services } from "../../src/services.js";
import type { SqliteStore } from "../../src/store/sqlite-store.js";
import { vettedOriginalsWithCopies } from "../../src/governance/metrics.js";
import { distinctLesson } from "../fixtures/workers/lessons.js";
import { withCairn } from "../helpers/engine.js";

const swarmOf = (c: Cairn) => (c as unknown as { services: Services }).services.swarm as SqliteStore;

/** Rows and statements the project tier answered for one listing of security lessons across both tiers. */
async function securityListing(cairn: Cairn): Promise<{ rows: number; statements: number; handles: string[]; from: string[] }> {
  const d = swarmOf(cairn).driver;
  const [rows, statements] = [d.rowsRead, d.statementsRun];
  const page = await cairn.browse({ categories: ["security"], limit: 20 });
  const listed = await cairn.listLessons({ categories: ["security"], limit: 20 });
  assert.deepEqual(listed.map((l) => l.entry.id), page.entries.map((e) => e.id), "the one-per-lesson list and the lessons page list the same lessons");
  return { rows: d.rowsRead - rows, statements: d.statementsRun - statements, handles: page.entries.map((e) => e.handle), from: Object.values(page.promoted_from ?? {}).map((o) => o.handle) };
}

test("regression: a listing's reads do not grow with promotions the listing does not show", async () => {
  await withCairn(async (cairn) => {
    const sec = await cairn.add({ lesson: "Rotate the signing keys of the session service every 90 days and keep the previous key for verification only.", category: "security" });
    const up = await cairn.promote({ id: sec.id! }, "human:lead");
    assert.ok(up.id, JSON.stringify(up));
    const small = await securityListing(cairn);
    assert.equal(small.handles.length, 1, `the promoted lesson is listed once, as its hive copy: ${small.handles.join(", ")}`);
    assert.deepEqual(small.from, [sec.handle], "the copy names the original it stands for");

    // Thirty promotions of tooling lessons: none of them is in a listing of security lessons.
    for (let i = 0; i < 30; i++) {
      const r = await cairn.add({ lesson: distinctLesson(i % 7, i), category: "tooling" });
      assert.equal(r.action, "added", r.reason);
      await cairn.promote({ id: r.id! }, "human:lead");
    }
    const big = await securityListing(cairn);
    assert.deepEqual(big.handles, small.handles);
    assert.deepEqual(big.from, small.from);
    assert.ok(big.rows <= small.rows, `rows read by the listing grew with unrelated promotions: ${small.rows} → ${big.rows}`);
    assert.ok(big.statements <= small.statements, `statements run grew: ${small.statements} → ${big.statements}`);
  });
});

test("regression: pairing promoted originals with their hive copies parses none of the originals (a listing, the metrics)", async () => {
  await withCairn(async (cairn) => {
    const originals: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await cairn.add({ lesson: distinctLesson(i % 7, i), category: "tooling" });
      assert.equal(r.action, "added", r.reason);
      assert.ok((await cairn.promote({ id: r.id! }, "human:lead")).id);
      originals.push(r.id!);
    }
    const d = swarmOf(cairn).driver;
    const parsed = async (read: () => Promise<unknown>) => {
      const before = d.jsonRowsRead;
      await read();
      return d.jsonRowsRead - before;
    };
    // Every lesson is a hive copy standing for its original: nothing of the project tier is shown.
    let listed: Awaited<ReturnType<Cairn["listLessons"]>> = [];
    assert.equal(await parsed(async () => (listed = await cairn.listLessons({ limit: 50 }))), 0, "a listing parsed project originals it does not show");
    assert.equal(listed.length, originals.length);
    assert.deepEqual(listed.map((l) => l.promoted_from?.id).sort(), [...originals].sort(), "each copy names the original it stands for");
    assert.equal(await parsed(() => cairn.browse({ limit: 50 })), 0, "the lessons page parsed project originals it does not show");
    assert.equal(await parsed(() => cairn.governanceStats()), 0, "the metrics parsed project originals to count them");
  });
});

test("regression: the advisory rule cache and the metrics' vetted count read no more for promotions of lessons since retired", async () => {
  await withCairn(async (cairn) => {
    const services = (cairn as unknown as { services: Services }).services;
    const rule = await cairn.add({
      lesson: "Files under src/auth/ must log the session id, never the raw token, when a login fails.",
      category: "security",
      prevention: { rule: "Log the session id, never the token, on a failed login." },
      applicability: { file_globs: ["src/auth/**"] },
    });
    assert.ok((await cairn.promote({ id: rule.id! }, "human:lead")).id);
    const d = swarmOf(cairn).driver;
    const rowsOf = async (read: () => Promise<unknown>) => {
      const before = d.rowsRead;
      await read();
      return d.rowsRead - before;
    };
    // Each call after a rule-bearing change reloads the rule cache.
    const check = () => cairn.checkAdvisories({ tool: "edit", files: ["src/auth/login.ts"], record: false });
    const small = { rules: await rowsOf(check), vetted: await rowsOf(() => vettedOriginalsWithCopies(services)) };
    // Thirty lessons went up and were archived since (their hive copies with them): no vetted lesson, no rule, is left of them.
    for (let i = 0; i < 30; i++) {
      const r = await cairn.add({ lesson: distinctLesson(i % 7, i), category: "tooling" });
      assert.ok((await cairn.promote({ id: r.id! }, "human:lead")).id);
      assert.equal((await cairn.archive(r.id!, "outdated", "human:lead")).lifecycle.status, "archived");
    }
    await cairn.edit(rule.id!, { enforcement: "enforce" });
    const big = { rules: await rowsOf(check), vetted: await rowsOf(() => vettedOriginalsWithCopies(services)) };
    assert.ok(big.rules <= small.rules, `rows read loading the rule cache grew with retired promotions: ${small.rules} → ${big.rules}`);
    assert.ok(big.vetted <= small.vetted, `rows read counting vetted originals grew with retired promotions: ${small.vetted} → ${big.vetted}`);
  });
});
