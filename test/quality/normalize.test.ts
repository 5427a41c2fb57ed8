// Normalisation: one spelling of whitespace and Unicode, nothing of meaning removed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { normalizeLessonText } from "../../src/quality/normalize.js";
import { growth } from "../helpers/cost.js";

test("CRLF and lone CR become LF, line breaks are kept", () => {
  assert.equal(normalizeLessonText("one\r\ntwo\rthree\nfour"), "one\ntwo\nthree\nfour");
});

test("composed and decomposed accents compare equal after normalising (NFC)", () => {
  assert.equal(normalizeLessonText("cafe\u0301 config"), "caf\u00e9 config");
});

test("runs of spaces, tabs and Unicode spaces collapse to one space; ends are trimmed", () => {
  assert.equal(normalizeLessonText("  run\t\t npm\u00a0\u00a0ci   now \n"), "run npm ci now");
  assert.equal(normalizeLessonText("a  \n   b"), "a\nb");
  assert.equal(normalizeLessonText("a\n\n\n\n\nb"), "a\n\nb");
});

test("Unicode line separators are line breaks", () => {
  assert.equal(normalizeLessonText("a\u2028b\u2029c"), "a\nb\nc");
});

test("hidden characters survive normalising, so the safety gate can still see them", () => {
  const text = "ig\u200bnore \u202eabc \u0000";
  assert.equal(normalizeLessonText(text), text.trim());
});

test("normalising is idempotent and keeps words, punctuation and code", () => {
  const t = "Use `git clean -n` first; then `rm -rf dist/` (never /).";
  assert.equal(normalizeLessonText(t), t);
  assert.equal(normalizeLessonText(normalizeLessonText(" x \r\n y ")), normalizeLessonText(" x \r\n y "));
});

test("normalising a pasted megabyte of words costs linear time: single spaces are left, not replaced by themselves", () => {
  // Replacing each of a paste's spaces by one space cost V8 more than linear time: 1 MB 9 ms, 4 MB 152 ms.
  const para = "Cache the token lookups in redis and retry on 429 with backoff; ignore stale entries; api_key=abc ";
  const small = para.repeat(10_000);
  const large = para.repeat(40_000);
  assert.equal(normalizeLessonText(small), small.trim());
  const ratio = growth(() => normalizeLessonText(small), () => normalizeLessonText(large), { calls: 1, batches: 3 });
  assert.ok(ratio < 10, `4× the paste cost ${ratio.toFixed(1)}× as much`);
});
