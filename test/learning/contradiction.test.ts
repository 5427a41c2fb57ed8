// Acceptance: "use X" after "avoid X" on the same subject supersedes — both kept and linked, both histories visible, only the new one served.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Cairn, RetrievalContext } from "../../src/index.js";
import { GOOD_RUN, withWorld } from "./helpers.js";

interface Pair {
  old: string;
  replacement: string;
  context: RetrievalContext;
}

const PAIRS: readonly Pair[] = [
  {
    old: "Avoid snapshot tests for React components in the design system; assert on roles and text instead.",
    replacement: "Use snapshot tests for React components in the design system.",
    context: { task: "add tests for the design system Button component", files: ["packages/design-system/src/Button.test.tsx"] },
  },
  {
    old: "Never run database migrations automatically when the app starts; run them as a separate deploy step.",
    replacement: "Run database migrations automatically when the app starts.",
    context: { task: "run the database migrations when the app starts", files: ["src/server/start.ts"] },
  },
  {
    // Written the way people write it: the reason for the reversal rides along.
    old: "Avoid mocking the database in integration tests; use a real Postgres in Docker.",
    replacement: "Mock the database in integration tests; a real Postgres in Docker is too slow.",
    context: { task: "write integration tests against the database", files: ["test/integration/orders.test.ts"] },
  },
];

/** Some filler on other subjects, so the lessons compete in a store rather than stand alone. */
async function fill(cairn: Cairn): Promise<void> {
  for (const lesson of [
    "Pin the Node version with an .nvmrc file so local and CI builds use the same runtime.",
    "Retry S3 uploads with exponential backoff capped at 30 seconds to ride out throttling.",
    "Keep integration test fixtures in a factory module so schema changes touch one file.",
    "Run the linter with --max-warnings 0 in CI so warnings cannot pile up unnoticed.",
  ]) {
    assert.equal((await cairn.add({ lesson, category: "tooling" })).action, "added");
  }
}

async function assertSuperseded(cairn: Cairn, oldId: string, newId: string, p: Pair): Promise<void> {
  const [oldE, newE] = [await cairn.get(oldId), await cairn.get(newId)];
  assert.equal(oldE.lifecycle.status, "superseded");
  assert.equal(oldE.lifecycle.superseded_by, newId);
  assert.equal(newE.lifecycle.supersedes, oldId);
  assert.equal(oldE.lesson, p.old, "the old lesson is kept as it was");
  const oldHistory = await cairn.history(oldId);
  const newHistory = await cairn.history(newId);
  assert.deepEqual(oldHistory.map((h) => h.type), ["created", "superseded"]);
  assert.equal(oldHistory[1]!.data.by, newId);
  assert.deepEqual(newHistory.map((h) => h.type), ["created", "updated"]);
  assert.equal(newHistory[1]!.data.supersedes, oldId);
  const injected = await cairn.inject(p.context);
  assert.ok(injected.entries.some((e) => e.id === newId), "the new lesson is injected");
  assert.ok(!injected.entries.some((e) => e.id === oldId), "the old one is not");
  const recalled = (await cairn.recall(p.context, { limit: 20 })).map((h) => h.entry.id);
  assert.ok(recalled.includes(newId) && !recalled.includes(oldId), "recall serves only the new one");
  const retired = (await cairn.recall(p.context, { limit: 20, statuses: ["superseded"] })).map((h) => h.entry.id);
  assert.deepEqual(retired, [oldId], "the old one is still there for whoever asks for superseded entries");
}

for (const [i, p] of PAIRS.entries()) {
  test(`contradiction ${i + 1}: "${p.replacement.slice(0, 50)}…" supersedes its opposite`, async () => {
    await withWorld(async ({ cairn }) => {
      await fill(cairn);
      const old = await cairn.add({ lesson: p.old, category: "testing" });
      assert.equal(old.action, "added");
      const r = await cairn.add({ lesson: p.replacement, category: "testing" });
      assert.equal(r.action, "added", `rules said ${r.action}: ${r.reason ?? ""}`);
      assert.equal(r.superseded, old.id);
      assert.ok(r.issues.some((x) => x.code === "superseded"), "the writer is told");
      await assertSuperseded(cairn, old.id!, r.id!, p);
      // The retired text cannot sneak back in as a new entry.
      const back = await cairn.add({ lesson: p.old, category: "testing" });
      assert.equal(back.action, "rejected");
      assert.match(back.reason ?? "", /superseded/);
      assert.equal((await cairn.list({ limit: 100 })).length, 6);
    });
  });
}

test("contradiction learned from an outcome: reflect() supersedes through the same write path", async () => {
  await withWorld(async ({ cairn }) => {
    await fill(cairn);
    const p = PAIRS[1]!;
    const old = await cairn.add({ lesson: "Always run database migrations automatically when the app starts.", category: "tooling" });
    await cairn.recordOutcome({
      id: "o-migrations",
      task: "Roll out the invoices table",
      ...GOOD_RUN,
      files_touched: ["src/server/start.ts"],
      evaluation: p.old,
    });
    const report = await cairn.reflect();
    assert.equal(report.lessons_added, 1);
    const [learned] = await cairn.list({ limit: 1 });
    assert.equal(learned!.lesson, p.old);
    assert.equal(learned!.kind, "commitment");
    assert.equal(learned!.lifecycle.supersedes, old.id);
    assert.equal((await cairn.get(old.id!)).lifecycle.status, "superseded");
    const history = await cairn.history(old.id!);
    assert.equal(history.at(-1)!.type, "superseded");
    assert.equal(history.at(-1)!.actor, "agent:reflect");
  });
});

test("contradiction with a lesson people vouched for flags the new one instead of retiring the old", async () => {
  await withWorld(async ({ cairn }) => {
    const p = PAIRS[0]!;
    const oldId = (await cairn.add({ lesson: p.old, category: "testing" })).id!;
    assert.equal((await cairn.promote({ id: oldId })).action, "added");
    assert.equal((await cairn.get(oldId)).lifecycle.status, "promoted");
    const r = await cairn.add({ lesson: p.replacement, category: "testing" });
    assert.equal(r.action, "added");
    assert.equal(r.superseded, undefined, "a machine-made contradiction never retires a promoted lesson");
    assert.deepEqual(r.flags?.filter((f) => f.startsWith("contradicts:")), [`contradicts:${oldId}`]);
    assert.ok(r.issues.some((x) => x.code === "contradiction"));
    assert.equal((await cairn.get(oldId)).lifecycle.status, "promoted");
  });
});

// The pair as most people would write it: the reversal is said with "instead of", which the
// rules read as positive advice for the first option.
test(
  'contradiction: "Mock X instead of Y" after "Avoid mocking X; use Y" supersedes',
  async () => {
    await withWorld(async ({ cairn }) => {
      await fill(cairn);
      const p: Pair = {
        old: "Avoid mocking the database in integration tests; use a real Postgres in Docker.",
        replacement: "Mock the database in integration tests instead of running a real Postgres in Docker.",
        context: PAIRS[2]!.context,
      };
      const old = await cairn.add({ lesson: p.old, category: "testing" });
      const r = await cairn.add({ lesson: p.replacement, category: "testing" });
      assert.equal(r.action, "added", `rules said ${r.action}: ${r.reason ?? ""}`);
      await assertSuperseded(cairn, old.id!, r.id!, p);
    });
  },
);
