// Entry ids: version-7 UUIDs, unique, and in the order they were made even many to a millisecond (the random bytes come from a pool).
import assert from "node:assert/strict";
import { test } from "node:test";
import { validate, version } from "uuid";
import { newEntryId } from "../../src/core/ids.js";

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
