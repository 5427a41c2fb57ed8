// inOrder (in-order.ts): words in order within gaps, in one sentence, read by exec and one sentence-end search per step; the same answers as reading each step's window by slices.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { makeRng, pick } from "../../bench/rng.js";
import { foldForMatching } from "../../src/quality/injection.js";
import { inOrder } from "../../src/quality/in-order.js";

/** The reading inOrder replaced: matchAll for the first word, then each window's prefix sliced and searched for a sentence end. */
function bySlices(parts: readonly RegExp[], gaps: readonly number[]): (t: string) => boolean {
  const follows = (t: string, from: number, k: number): boolean => {
    if (k === parts.length) return true;
    const window = t.slice(from, from + gaps[k - 1]! + 60);
    const re = new RegExp(parts[k]!.source, "g");
    for (let m = re.exec(window); m && m.index <= gaps[k - 1]!; m = re.exec(window)) {
      if (/[.!?\n]/.test(window.slice(0, m.index))) return false;
      if (follows(t, from + m.index + m[0].length, k + 1)) return true;
    }
    return false;
  };
  return (t) => {
    for (const m of t.matchAll(new RegExp(parts[0]!.source, "g"))) if (follows(t, m.index! + m[0].length, 1)) return true;
    return false;
  };
}

const words = (alternatives: string) => new RegExp(`\\b(?:${alternatives})\\b`, "g");
const CASES: Array<[RegExp[], number[]]> = [
  [[words("ignor\\w*|forget|drop|skip"), words("previous|prior|above|system"), words("instructions?|rules?|tasks?")], [40, 30]],
  [[words("no|not|ne"), words("follow|seguir"), words("system")], [30, 30]],
  [[words("ignor\\w*|change|drop"), words("all|the|your"), words("rules?|orders?")], [1, 14]],
  [[words("a"), words("a")], [1]],
];

const injections = fs.readFileSync(fileURLToPath(new URL("../../eval/gates/injections.jsonl", import.meta.url)), "utf8")
  .trim().split("\n").map((l) => foldForMatching((JSON.parse(l) as { text: string }).text));
const rng = makeRng(5);
// Joined without spaces too, so a sentence end sits right against a word.
const vocabulary = ["ignore", "forget", "drop", "skip", "previous", "system", "all", "the", "your", "rules", "instructions", "no", "not", "follow", "a", ".", "\n", "x", "!", "ignored"];
const generated = Array.from({ length: 4000 }, () => Array.from({ length: Math.floor(rng() * 30) }, () => pick(rng, vocabulary)).join(rng() < 0.5 ? " " : pick(rng, [" ", " ", "  ", "", "."])));

test("inOrder answers as the slice-by-slice reading on injections and generated word sequences", () => {
  for (const [parts, gaps] of CASES) {
    const fast = inOrder(parts, gaps);
    const reference = bySlices(parts, gaps);
    let hits = 0;
    for (const t of [...injections, ...generated]) {
      const expected = reference(t);
      assert.equal(fast(t), expected, JSON.stringify(t));
      if (expected) hits++;
    }
    assert.ok(hits > 50, `the case matches some texts (${hits})`);
  }
});
