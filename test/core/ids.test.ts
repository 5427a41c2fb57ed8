// Entry ids: version-7 UUIDs, unique, and in the order they were made even many to a millisecond (the random bytes come from a pool); fingerprints keep their values.
import assert from "node:assert/strict";
import { test } from "node:test";
import { validate, version } from "uuid";
import { createHash } from "node:crypto";
import { fingerprintLesson, newEntryId } from "../../src/core/ids.js";

test("ids made in a burst are distinct v7 UUIDs that sort in the order they were made", () => {
  // More ids than one fill of the pool holds, most of them within a millisecond of the one before.
  const ids = Array.from({ length: 5000 }, () => newEntryId());
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert.ok(validate(id), id);
    assert.equal(version(id), 7);
  }
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `${ids[i - 1]} then ${ids[i]}`);
});

test("an id's first 48 bits are the millisecond it was made in", () => {
  const before = Date.now();
  const id = newEntryId();
  const ms = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
  // The counter may have carried into the next millisecond after a burst: never more than a little ahead.
  assert.ok(ms >= before && ms <= Date.now() + 5, `${ms} vs ${before}`);
});

test("a lesson's fingerprint keeps its value (stored rows are matched by it): the first 32 hex digits of the SHA-256 of its canonical text", () => {
  assert.equal(fingerprintLesson("Use  pnpm, not npm!"), "3e5ca08a08fd9d7b2336bfea51e41930");
  assert.equal(fingerprintLesson("Café ﬁle ÀB"), "ab5835777ad4d3b5ef33dd531afe71aa");
  assert.equal(fingerprintLesson(""), "e3b0c44298fc1c149afbf4c8996fb924");
  for (const [lesson, canonical] of [["  Tabs\tand -- dashes, x ", "tabs and dashes x"], ["a  b", "a b"], ["Ünïcode — ﬁne", "ünïcode fine"]]) {
    assert.equal(fingerprintLesson(lesson!), createHash("sha256").update(canonical!).digest("hex").slice(0, 32), lesson);
  }
});
