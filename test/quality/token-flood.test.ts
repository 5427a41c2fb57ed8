// tokenFlood and hasLongWordRun (injection.ts): the flood checks' cheap first readings give the same answers as the patterns they replaced or guard.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { makeRng, pick } from "../../bench/rng.js";
import { findInjectionMarkers, foldForMatching, hasLongWordRun, tokenFlood } from "../../src/quality/injection.js";

/** The pattern tokenFlood guards, as the marker ran it before. */
const PATTERN = /(?<!\S)((?:(?=\S*[^\s\d,.;:])\S{1,8}[ \t\r\n]{1,4}){1,4}?)\1{29,}/;

const injections = fs.readFileSync(fileURLToPath(new URL("../../eval/gates/injections.jsonl", import.meta.url)), "utf8")
  .trim().split("\n").map((l) => (JSON.parse(l) as { text: string }).text);

const rng = makeRng(7);
// Short tokens (digits and separators among them), one over eight characters, and every kind of blank the pattern and \s tell apart.
const tokens = ["ö", "a", "ab", ")", "]", "}", "0,", "12", "x.y", "word", "12345678", "abcdefghi", "deploy"];
const blanks = [" ", " ", "  ", "\t", "\n", "\r\n", "    ", "     ", "\u00a0", "\u2003", ""];
function generated(): string {
  // A cycle of one to four tokens repeated near the threshold, between ordinary words.
  const unit = Array.from({ length: 1 + Math.floor(rng() * 4) }, () => pick(rng, tokens) + pick(rng, blanks));
  const copies = 25 + Math.floor(rng() * 10);
  const noise = () => Array.from({ length: Math.floor(rng() * 12) }, () => pick(rng, tokens) + pick(rng, blanks)).join("");
  let flood = "";
  for (let i = 0; i < copies; i++) flood += rng() < 0.03 ? pick(rng, tokens) + " " : unit.join("");
  return noise() + flood + noise();
}

test("tokenFlood answers as the pattern alone on injections, their floods and generated runs near thirty copies", () => {
  const texts = [
    ...injections,
    ...Array.from({ length: 6000 }, generated),
    "ö ".repeat(30), "ö ".repeat(29) + "ö", "ö ".repeat(29), ") ] } ".repeat(30), "0, ".repeat(40), "abcdefghi ".repeat(40),
    "x\u00a0" + "ab ".repeat(30), "ab\u00a0" + "ab ".repeat(29), "a b c d ".repeat(30), "a b c d e ".repeat(30),
  ];
  let floods = 0;
  for (const t of texts) {
    const expected = PATTERN.test(t);
    assert.equal(tokenFlood(t), expected, JSON.stringify(t.slice(0, 200)));
    if (expected) floods++;
  }
  assert.ok(floods > 100 && floods < texts.length - 100, `both answers are tried (${floods} floods of ${texts.length})`);
});

test("a token flood is still refused, a list of numbers and a short lesson are not", () => {
  assert.equal(findInjectionMarkers(`Summary: ${"ö ".repeat(40)}now do as told`).length, 1);
  assert.match(findInjectionMarkers(") ] } ".repeat(35))[0]!.message, /flood of repeated tokens/);
  assert.equal(findInjectionMarkers(`Fixture values: ${"0, ".repeat(40)}done`).length, 0);
  assert.equal(findInjectionMarkers("Run the migrations before each deploy; a fresh database needs them too.").length, 0);
});

test("hasLongWordRun answers as /[a-z0-9_]{40}/ on injections and generated runs near forty characters", () => {
  const pieces = ["a", "z", "0", "9", "_", "-", " ", "A", "é", "ab12_", "xyz".repeat(5)];
  const texts = [
    ...injections.map(foldForMatching),
    ...Array.from({ length: 4000 }, () => Array.from({ length: Math.floor(rng() * 40) }, () => pick(rng, pieces)).join("")),
    "a".repeat(39), "a".repeat(40), `${"a".repeat(39)}-${"b".repeat(39)}`, `x ${"_0z".repeat(14)}`,
  ];
  let long = 0;
  for (const t of texts) {
    const expected = /[a-z0-9_]{40}/.test(t);
    assert.equal(hasLongWordRun(t), expected, JSON.stringify(t.slice(0, 200)));
    if (expected) long++;
  }
  assert.ok(long > 100 && long < texts.length - 100, `both answers are tried (${long} of ${texts.length})`);
});
