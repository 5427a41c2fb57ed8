// The shortlist's best-first order (a radix sort) is exactly a stable comparator sort's: ties in input order, -0 equal to 0.
import assert from "node:assert/strict";
import { test } from "node:test";
import { descendingOrder } from "../../src/store/rank-order.js";
import { makeRng } from "../../bench/rng.js";

function comparatorOrder(values: Float64Array): number[] {
  return Array.from(values.keys()).sort((a, b) => values[b]! - values[a]!);
}

test("descendingOrder is a stable descending sort: random values, many ties, -0 beside 0, negatives, extremes", () => {
  const rng = makeRng(21);
  const cases: Float64Array[] = [
    new Float64Array(0),
    Float64Array.of(0.5),
    Float64Array.of(0, -0, 0, -0, 1e-300, -1e-300, 0),
    // Neighbours one unit in the last place apart: only the lowest byte orders them.
    Float64Array.of(0.3, 0.1 + 0.2, -(0.1 + 0.2), -0.3, 0.7, 0.7 + 2 ** -53, 0.7 - 2 ** -53),
    Float64Array.of(Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 1, -1, 0.1 + 0.2, 0.3),
    Float64Array.from({ length: 640 }, () => rng() * 2 - 1),
    // Quantized similarities tie often: 21 distinct values over 640 positions.
    Float64Array.from({ length: 640 }, () => Math.round(rng() * 20) / 20 - 0.5),
    Float64Array.from({ length: 2000 }, (_, i) => (i % 3 ? rng() : -rng()) * 1e-3),
  ];
  for (const values of cases) {
    assert.deepEqual(Array.from(descendingOrder(values)), comparatorOrder(values), `${values.length} values`);
  }
  // A shorter call after a longer one uses only its own values.
  assert.deepEqual(Array.from(descendingOrder(Float64Array.of(-2, 3, 3))), [1, 2, 0]);
});
