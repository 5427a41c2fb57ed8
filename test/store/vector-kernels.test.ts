// The vector kernels' two paths (WebAssembly SIMD, plain JS) give identical Hamming distances and int8 and 4-bit dot products, and the checked-in wasm is what its WAT source assembles to.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import { dotInt8, dotNibbles, packNibbles, QuantizedRows } from "../../src/store/quantized-rows.js";
import { SignCodes } from "../../src/store/sign-codes.js";
import { simdAvailable } from "../../src/store/wasm-kernels.js";
import { makeRng } from "../../bench/rng.js";
import { assembleVectorKernels } from "../../scripts/build-wasm.js";

function randomRow(rng: () => number, d: number, kind: number): Int8Array {
  // Extremes on purpose: -128 × -128 is the one product that needs 15 bits plus sign; all -128 the largest sum.
  if (kind === 0) return new Int8Array(d).fill(-128);
  if (kind === 1) return Int8Array.from({ length: d }, (_, j) => (j % 2 ? 127 : -128));
  if (kind === 2) return new Int8Array(d).fill(127);
  return Int8Array.from({ length: d }, () => Math.floor(rng() * 256) - 128);
}

/**
 * Puts `rows` into both matrices (SIMD, plain JS), then checks five random queries against both: each
 * gives, row for row, the dot product of the row's values as given (int8, or 4-bit values -8..7).
 */
function assertSameDots(rng: () => number, simd: QuantizedRows, js: QuantizedRows, rows: Int8Array[], d: number, label: string): void {
  simd.reserve(rows.length);
  js.reserve(rows.length);
  rows.forEach((row, i) => {
    simd.set(i, row);
    js.set(i, row);
  });
  for (let k = 0; k < 5; k++) {
    const query = randomRow(rng, d, k);
    const order = Int32Array.from({ length: 60 }, () => Math.floor(rng() * rows.length));
    const expected = Array.from(order, (i) => dotInt8(rows[i]!, 0, query, d));
    assert.deepEqual(Array.from(simd.dots(order, query)), expected, `SIMD, ${label}`);
    assert.deepEqual(Array.from(js.dots(order, query)), expected, `plain JS, ${label}`);
  }
}

test("Node runs the SIMD kernels (the plain-JS ones are the fallback, not the default)", () => {
  assert.equal(simdAvailable(), true);
  assert.equal(new QuantizedRows(256).simd, true);
  assert.equal(new QuantizedRows(256, 8, false).simd, false);
  assert.equal(new SignCodes(8).simd, true);
  assert.equal(new SignCodes(8, false).simd, false);
  // Codes under 128 bits have no whole 16-byte chunk: the JS scan takes them.
  assert.equal(new SignCodes(2).simd, false);
});

test("SIMD and plain-JS Hamming scans give identical distances and histograms, all bits equal or all differing included", () => {
  const rng = makeRng(5);
  const word = () => Math.floor(rng() * 2 ** 32) >>> 0;
  for (const words of [1, 4, 8, 16, 32]) {
    const simd = new SignCodes(words);
    const js = new SignCodes(words, false);
    const n = 700;
    simd.reserve(n);
    js.reserve(n);
    const query = Uint32Array.from({ length: words }, word);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < words; j++) {
        // Equal to the query, its complement, all zeros, all ones, random.
        const w = [query[j]!, ~query[j]! >>> 0, 0, 0xffffffff][i % 6] ?? word();
        simd.codes[i * words + j] = w;
        js.codes[i * words + j] = w;
      }
    }
    const a = simd.scan(query, n);
    const b = js.scan(query, n);
    assert.deepEqual(Array.from(a.dist.subarray(0, n)), Array.from(b.dist.subarray(0, n)), `${words} words`);
    assert.deepEqual(Array.from(a.hist), Array.from(b.hist), `${words} words`);
    assert.equal(a.dist[1], words * 32, "the complement differs in every bit");
    assert.equal(a.dist[0], 0);
    // A second scan starts from an empty histogram.
    assert.deepEqual(Array.from(simd.scan(query, n).hist), Array.from(b.hist));
  }
});

test("SIMD and plain-JS dot products are identical on random int8 rows, extremes (-128, 127) and odd dimensions", () => {
  const rng = makeRng(11);
  for (const d of [1, 3, 15, 16, 17, 31, 32, 33, 48, 255, 256, 257, 384, 768, 1023]) {
    const rows = Array.from({ length: 40 }, (_, i) => randomRow(rng, d, i % 5));
    assertSameDots(rng, new QuantizedRows(d), new QuantizedRows(d, 8, false), rows, d, `${d} dimensions`);
  }
});

test("SIMD and plain-JS 4-bit dot products are identical, and equal the dot product of the unpacked values (extremes -8, 7 against -128, 127 included)", () => {
  const rng = makeRng(19);
  for (const c of [32, 64, 96, 256, 1024]) {
    const simd = new QuantizedRows(c, 4);
    const js = new QuantizedRows(c, 4, false);
    assert.equal(simd.simd, true);
    assert.equal(simd.rowBytes, c / 2);
    const rows = Array.from({ length: 40 }, (_, i) =>
      Int8Array.from({ length: c }, (_, j) => (i % 4 === 0 ? -8 : i % 4 === 1 ? 7 : i % 4 === 2 ? (j % 2 ? 7 : -8) : Math.floor(rng() * 16) - 8)),
    );
    assertSameDots(rng, simd, js, rows, c, `${c} components`);
  }
  // A 4-bit row takes half an int8 row's bytes; a dimension that is no multiple of 32 is refused, not misread.
  assert.equal(new QuantizedRows(256, 4, false).rowBytes, 128);
  assert.throws(() => new QuantizedRows(48, 4), RangeError);
  // The packing round-trips: a query that is 1 at one component reads that component back.
  const values = Int8Array.from({ length: 64 }, (_, j) => (j % 16) - 8);
  const packed = new Int8Array(32);
  packNibbles(values, packed, 0);
  for (let j = 0; j < 64; j++) assert.equal(dotNibbles(packed, 0, Int8Array.from({ length: 64 }, (_, i) => (i === j ? 1 : 0)), 32), values[j], `component ${j}`);
});

test("rows keep their values as the matrix grows (growing the wasm memory must not lose or shift a row)", () => {
  const rng = makeRng(3);
  const d = 257;
  const rows = new QuantizedRows(d);
  const kept: Int8Array[] = [];
  for (let i = 0; i < 2000; i++) {
    if (i >= rows.capacity) rows.reserve(Math.ceil(Math.max(16, rows.capacity * 1.25)));
    const row = randomRow(rng, d, 3);
    kept.push(row);
    rows.set(i, row);
  }
  const query = randomRow(rng, d, 3);
  const all = Int32Array.from({ length: kept.length }, (_, i) => i);
  assert.deepEqual(Array.from(rows.dots(all, query)), kept.map((r) => dotInt8(r, 0, query, d)));
});

test("the checked-in wasm module is what src/store/vector-kernels.wat assembles to, byte for byte", async () => {
  const checkedIn = fs.readFileSync(new URL("../../src/store/vector-kernels-wasm.ts", import.meta.url), "utf8");
  assert.equal(await assembleVectorKernels(), checkedIn);
});
