// A shortlist ordered only as far as it is read gives, place by place, exactly the stable descending sort of all of it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RankedShortlist } from "../../src/store/ranked-shortlist.js";
import { makeRng } from "../../bench/rng.js";

function comparatorOrder(values: Float64Array): number[] {
  return Array.from(values.keys()).sort((a, b) => values[b]! - values[a]!);
}

function cases(): Float64Array[] {
  const rng = makeRng(31);
  return [
    new Float64Array(0),
    Float64Array.of(0.5),
    Float64Array.of(0, -0, 0, -0, 1e-300, -1e-300, 0),
    Float64Array.from({ length: 63 }, () => rng()),
    Float64Array.from({ length: 640 }, () => rng() * 2 - 1),
    // Quantized similarities tie often, also across the head's last place: 21 and 3 distinct values.
    Float64Array.from({ length: 640 }, () => Math.round(rng() * 20) / 20 - 0.5),
    Float64Array.from({ length: 640 }, () => Math.round(rng() * 2) / 2),
    Float64Array.from({ length: 640 }, () => 0.25),
    Float64Array.from({ length: 2000 }, (_, i) => (i % 3 ? rng() : -rng()) * 1e-3),
    // Already sorted, and reversed: the selection's worst orders.
    Float64Array.from({ length: 700 }, (_, i) => i / 700),
    Float64Array.from({ length: 700 }, (_, i) => -i / 700),
  ];
}

test("a ranked shortlist read place by place is the stable descending sort: the head alone, and past it", () => {
  for (const sims of cases()) {
    const seqs = Int32Array.from(sims, (_, i) => 1000 + i);
    const want = comparatorOrder(sims);
    // Read as a search reads it: the first places, then on past the head.
    const ranked = RankedShortlist.of(seqs, sims);
    assert.equal(ranked.length, sims.length);
    const head = Math.min(sims.length, 70);
    for (let i = 0; i < head; i++) {
      assert.equal(ranked.seq(i), 1000 + want[i]!, `${sims.length} values, place ${i}`);
      assert.equal(ranked.similarity(i), sims[want[i]!]);
    }
    assert.deepEqual(ranked.toArray(), want.map((i) => ({ seq: 1000 + i, similarity: sims[i]! })), `${sims.length} values, all places`);
  }
});

test("a shortlist given best first keeps its order", () => {
  const ranked = RankedShortlist.ordered(Int32Array.of(7, 3, 9), Float64Array.of(0.9, 0.95, 0.1));
  assert.deepEqual(ranked.toArray(), [{ seq: 7, similarity: 0.9 }, { seq: 3, similarity: 0.95 }, { seq: 9, similarity: 0.1 }]);
});
