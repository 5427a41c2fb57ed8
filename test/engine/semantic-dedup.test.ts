// Semantic dedup through the real engine (issue 13 item 4): a paraphrase reinforces; lessons about other things never merge.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Cairn } from "../../src/index.js";
import { similarity } from "../../src/quality/similarity.js";
import { withCairn } from "../helpers/engine.js";

/** Adds `a` then `b` in two phases; returns both results and every stored entry, retired ones included. */
async function addBoth(c: Cairn, a: string, b: string) {
  const first = await c.add({ lesson: a, category: "tooling", phase: "phase-1" });
  const second = await c.add({ lesson: b, category: "tooling", phase: "phase-2" });
  const entries = await c.list({ tier: "swarm", statuses: ["candidate", "established", "superseded", "promoted"] });
  return { first, second, entries };
}

test("a paraphrase that shares too few words for lexical dedup reinforces the lesson it restates", async () => {
  const pairs: Array<[string, string]> = [
    ["Compare webhook signatures with crypto.timingSafeEqual, not ===.", "Use a constant-time comparison (crypto.timingSafeEqual) for HMAC webhook signatures; === leaks timing."],
    ["Always defer cancel() right after context.WithTimeout; a forgotten cancel leaks goroutines.", "Call defer cancel() immediately after creating a context with WithTimeout, otherwise goroutines leak."],
  ];
  for (const [a, b] of pairs) {
    assert.ok(similarity(a, b) < 0.6, `the words alone (${similarity(a, b).toFixed(2)}) must fall short, or this tests nothing new`);
    await withCairn(async (c) => {
      const { first, second, entries } = await addBoth(c, a, b);
      assert.equal(first.action, "added");
      assert.equal(second.action, "reinforced", `${b}: ${second.reason}`);
      assert.equal(second.id, first.id);
      assert.equal(entries.length, 1, "one entry, not two");
      const stored = await c.get(first.id!);
      assert.equal(stored.lesson, a, "the stored wording is kept");
      assert.deepEqual(stored.lifecycle.confirmations.map((x) => x.phase), ["phase-1", "phase-2"], "the paraphrase is a confirmation");
    });
  }
});

// Each class merged before issue 13's guards, except polarity, which only meaning (not words) brought close enough.
const NEVER_MERGED: Array<[string, string, string]> = [
  ["a file", "Add .env to .gitignore.", "Add .env.example to .gitignore."],
  ["an identifier", "Run migrations through client.executeMultiple().", "Run migrations through client.execute()."],
  ["a tool", "Use bun pm pack and then npm publish for OIDC trusted publishing.", "Use bun publish for OIDC trusted publishing."],
  ["a value", "Validate embeddings before inserting them into pgvector: reject empty vectors.", "Validate embeddings before inserting them into pgvector: reject vectors containing NaN."],
  ["swapped values", "Run npm ci in CI and Docker builds, never npm install.", "Run npm install in CI and Docker builds, never npm ci."],
  ["polarity", "Put side effects in post_save signals so every save triggers them.", "Keep side effects out of post_save signals; call services explicitly."],
];

for (const [kind, a, b] of NEVER_MERGED) {
  test(`lessons that differ in ${kind} are never merged`, async () => {
    await withCairn(async (c) => {
      const { first, second, entries } = await addBoth(c, a, b);
      assert.equal(first.action, "added");
      assert.equal(second.action, "added", `"${b}" must not merge into "${a}" (${second.reason ?? ""})`);
      assert.notEqual(second.id, first.id);
      assert.equal(entries.length, 2, "both lessons are kept");
      assert.deepEqual((await c.get(first.id!)).lifecycle.confirmations.map((x) => x.phase), ["phase-1"], "no confirmation borrowed");
    });
  });
}
