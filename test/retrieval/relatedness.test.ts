// Regression 10.16: a lesson sharing only a generic verb with the task is not injected; an empty block beats an unrelated lesson.
import { test } from "node:test";
import assert from "node:assert/strict";
import { insertRaw, makeSandbox, withWorld } from "./helpers.js";

const PRISMA = "Run prisma generate after editing schema.prisma or the client is stale";
const TLS = "Add the corporate CA bundle to NODE_EXTRA_CA_CERTS so TLS to the internal npm registry verifies";
// The README's own inject example.
const README_CTX = { phase: "Phase 2: data layer", task: "add the orders table", files: ["prisma/schema.prisma"] };

test("regression 10.16: the README's prisma inject example carries the prisma lesson, not a TLS lesson that shares only 'add'", async () => {
  const sb = makeSandbox();
  const [prisma, tls] = await insertRaw(sb, [
    { lesson: PRISMA, category: "tooling", kind: "correction" },
    { lesson: TLS, category: "tooling", kind: "learning" },
  ]);
  await withWorld(
    async ({ cairn }) => {
      // Precondition: full-text ranking alone does reach the TLS lesson through "add".
      const ranked = await cairn.recall(README_CTX, { limit: 5 });
      assert.ok(ranked.some((h) => h.entry.id === tls!.id), "precondition: recall ranks the TLS lesson for this context");

      const block = await cairn.inject(README_CTX, { recordShown: false });
      assert.deepEqual(block.entries.map((e) => e.id), [prisma!.id]);
      assert.doesNotMatch(block.text, /CA bundle/);

      // A context about the TLS work still gets it, and a context sharing nothing gets an empty block.
      const tlsBlock = await cairn.inject({ task: "add the internal registry's CA bundle for npm TLS" }, { recordShown: false });
      assert.deepEqual(tlsBlock.entries.map((e) => e.id), [tls!.id]);
      const unrelated = await cairn.inject({ task: "add a new step and fix the issue" }, { recordShown: false });
      assert.equal(unrelated.text, "");
      assert.deepEqual(unrelated.entries, []);
    },
    {},
    sb,
  );
});

test("regression 10.16: a declared signal (file glob) makes a lesson related even when no content word is shared", async () => {
  const sb = makeSandbox();
  const [rule] = await insertRaw(sb, [{ lesson: "Never edit a migration that already ran in production; add a new one.", category: "process", globs: ["db/migrations/**"] }]);
  await withWorld(
    async ({ cairn }) => {
      const block = await cairn.inject({ task: "add the column", files: ["db/migrations/007_orders.sql"] }, { recordShown: false });
      assert.deepEqual(block.entries.map((e) => e.id), [rule!.id]);
    },
    {},
    sb,
  );
});
