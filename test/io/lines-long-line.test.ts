// readLines on a line of megabytes (a pasted log in one JSON field): reading it costs in proportion to its length.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readLines } from "../../src/io/lines.js";
import { costRatioAsync } from "../helpers/cost.js";
import { writeTmp } from "./helpers.js";

async function lengths(file: string): Promise<number[]> {
  const out: number[] = [];
  for await (const l of readLines(file)) out.push(l.text.length);
  return out;
}

test("a line four times longer costs about four times as much to read, not sixteen (each 64 KB chunk copied the whole line so far)", async () => {
  const line = (mb: number) => `{"lesson":"${"x".repeat(mb * 1024 * 1024)}"}`;
  const small = writeTmp("long-4.jsonl", `${line(4)}\nafter\n`);
  const large = writeTmp("long-16.jsonl", `${line(16)}\nafter\n`);
  // Whole and in order, the line after it too.
  assert.deepEqual(await lengths(large), [16 * 1024 * 1024 + 13, 5]);
  const ratio = await costRatioAsync(() => lengths(large), () => lengths(small), { calls: 1, batches: 3, recheckAbove: 8 });
  assert.ok(ratio < 9, `reading a 16 MB line cost ${ratio.toFixed(1)}× a 4 MB one (linear ≈ 4, quadratic ≈ 16)`);
});

test("the same for a UTF-16 file (PowerShell's `>`): a long line is searched once, not again at every chunk", async () => {
  const utf16 = (mb: number) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{"lesson":"${"x".repeat(mb * 1024 * 1024)}"}\nafter\n`, "utf16le")]);
  const small = writeTmp("long16-2.jsonl", utf16(2));
  const large = writeTmp("long16-8.jsonl", utf16(8));
  assert.deepEqual(await lengths(large), [8 * 1024 * 1024 + 13, 5]);
  const ratio = await costRatioAsync(() => lengths(large), () => lengths(small), { calls: 1, batches: 3, recheckAbove: 8 });
  assert.ok(ratio < 9, `reading an 8 MB UTF-16 line cost ${ratio.toFixed(1)}× a 2 MB one (linear ≈ 4, quadratic ≈ 16)`);
});
