// assertStorable: which strings it refuses and the field it names, for values clean and broken at every kind of place.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertStorable } from "../../src/store/storable.js";

/** The field the refusal names, or undefined when the value is stored. */
function refusedField(value: unknown): string | undefined {
  try {
    assertStorable(value, "lesson");
    return undefined;
  } catch (e) {
    assert.equal((e as { code?: string }).code, "INVALID_INPUT");
    return (e as { details?: { field?: string } }).details?.field;
  }
}

test("a clean entry, emoji pairs and nested values included, is stored", () => {
  assert.equal(refusedField({ lesson: "Ship it 🚀", tags: ["a", "b"], data: { note: "fine", n: 3, deep: [[{ x: "ok" }]] }, none: null }), undefined);
  assert.equal(refusedField("plain"), undefined);
  assert.equal(refusedField(42), undefined);
});

test("the first unstorable string is named by its path: a value, an array item, a key, a bare string", () => {
  assert.equal(refusedField({ lesson: "x\u0000y" }), "lesson");
  assert.equal(refusedField({ lesson: "ok", tags: ["a", "b\ud83d", "c\u0000"] }), "tags[1]");
  assert.equal(refusedField({ data: { note: "ok", more: { half: "\ude80" } } }), "data.more.half");
  assert.equal(refusedField({ data: { "k\u0000": "v" } }), "data.k\u0000");
  assert.equal(refusedField([{ a: "ok" }, { b: "\u0000" }]), "[1].b");
  assert.equal(refusedField("\u0000"), "text");
  // In text order: the earlier field is named when two are broken.
  assert.equal(refusedField({ why: "\u0000", lesson: "\u0000" }), "why");
});

test("past 32 levels nothing is read, as before", () => {
  let deep: unknown = "\u0000";
  for (let i = 0; i < 40; i++) deep = { d: deep };
  assert.equal(refusedField(deep), undefined);
  let shallow: unknown = "\u0000";
  for (let i = 0; i < 10; i++) shallow = { d: shallow };
  assert.equal(refusedField(shallow), "d.d.d.d.d.d.d.d.d.d");
});
