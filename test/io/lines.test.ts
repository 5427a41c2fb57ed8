// readLines: numbering, CRLF, blank lines, BOM and chunk boundaries.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFirstLines, readLines } from "../../src/io/lines.js";
import { writeTmp } from "./helpers.js";

async function all(file: string) {
  const out: { line: number; text: string }[] = [];
  for await (const l of readLines(file)) out.push(l);
  return out;
}

test("yields blank lines, strips CRLF and a BOM, keeps the last unterminated line", async () => {
  const file = writeTmp("a.txt", "\uFEFFone\r\n\r\nthree\nfour");
  assert.deepEqual(await all(file), [
    { line: 1, text: "one" },
    { line: 2, text: "" },
    { line: 3, text: "three" },
    { line: 4, text: "four" },
  ]);
});

test("a lone \\r inside a line does not split it (unlike node:readline)", async () => {
  const file = writeTmp("b.txt", '{"a":"x\ry"}\nnext\n');
  assert.deepEqual(await all(file), [
    { line: 1, text: '{"a":"x\ry"}' },
    { line: 2, text: "next" },
  ]);
});

test("lines spanning chunk boundaries and multi-byte characters survive intact", async () => {
  const long = "é".repeat(100_000);
  const file = writeTmp("c.txt", `${long}\r\n${long}\n`);
  const lines = await all(file);
  assert.equal(lines.length, 2);
  assert.ok(lines.every((l) => l.text === long));
});

test("readFirstLines stops early", async () => {
  const file = writeTmp("d.txt", "1\n2\n3\n4\n");
  assert.deepEqual(await readFirstLines(file, 2), ["1", "2"]);
});

/** A file as Windows PowerShell 5's `>` writes it: UTF-16 with a byte-order mark. */
function utf16(text: string, endian: "le" | "be"): Buffer {
  const le = Buffer.from(`\uFEFF${text}`, "utf16le");
  return endian === "le" ? le : le.swap16();
}

test("UTF-16 files (little- and big-endian, with a BOM) read as text, not as one garbled line", async () => {
  const text = 'café → "x"\r\n\r\nsecond 🙂 line\nlast';
  for (const endian of ["le", "be"] as const) {
    const file = writeTmp(`u16${endian}.jsonl`, utf16(text, endian));
    assert.deepEqual(await all(file), [
      { line: 1, text: 'café → "x"' },
      { line: 2, text: "" },
      { line: 3, text: "second 🙂 line" },
      { line: 4, text: "last" },
    ], endian);
  }
  // Characters cut across the stream's chunks come out whole.
  const long = "é🙂".repeat(60_000);
  const file = writeTmp("u16long.jsonl", utf16(`${long}\n${long}`, "be"));
  assert.deepEqual((await all(file)).map((l) => l.text === long), [true, true]);
});
