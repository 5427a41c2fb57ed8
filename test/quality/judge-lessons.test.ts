// The write path's verdict without reasons (judgeLessons) decides every pair as compareLessons does, and sameAdvice's size bound answers as counting the shared words would.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { compareLessons, judgeLessons, lessonKey, profileLesson, sameAdvice } from "../../src/quality/similarity.js";
import { generatedLesson } from "../../bench/corpus.js";
import { makeRng } from "../../bench/rng.js";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const PAIRS = fs.readFileSync(path.join(ROOT, "eval/dedup-pairs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { a: string; b: string });

/** The eval's labelled pairs, every lesson of them against a few others, and generated lessons against their neighbours in a run. */
function corpus(): Array<[string, string]> {
  const pairs: Array<[string, string]> = PAIRS.map((p) => [p.a, p.b]);
  const all = PAIRS.flatMap((p) => [p.a, p.b]);
  all.forEach((a, i) => pairs.push([a, all[(i * 7 + 3) % all.length]!], [a, all[(i + 1) % all.length]!]));
  const rng = makeRng(3);
  const generated = Array.from({ length: 600 }, (_, i) => generatedLesson(rng, i % 5 ? undefined : i).lesson);
  generated.forEach((a, i) => {
    for (let j = 1; j <= 6 && j <= i; j++) pairs.push([a, generated[i - j]!]);
  });
  return pairs;
}

test("judgeLessons gives compareLessons' similarity, duplicate, contradiction and its kind on every pair", () => {
  let duplicates = 0;
  let contradictions = 0;
  for (const [a, b] of corpus()) {
    for (const threshold of [0.6, 0.45]) {
      const full = compareLessons(a, b, threshold);
      const verdict = judgeLessons(profileLesson(a), profileLesson(b), threshold);
      const keyed = judgeLessons(lessonKey(a), lessonKey(b), threshold);
      for (const v of [verdict, keyed]) {
        assert.equal(v.similarity, full.similarity, `${a} | ${b}`);
        assert.equal(v.duplicate, full.duplicate, `${a} | ${b}`);
        assert.equal(v.contradiction, full.contradiction, `${a} | ${b}`);
        assert.equal(v.contradiction_kind, full.contradiction_kind, `${a} | ${b}`);
      }
      if (full.duplicate) duplicates++;
      if (full.contradiction) contradictions++;
    }
  }
  assert.ok(duplicates > 100 && contradictions > 20, `${duplicates} duplicates, ${contradictions} contradictions`);
});

test("sameAdvice's bound on the smaller head answers as counting the shared words", () => {
  let same = 0;
  for (const [a, b] of corpus()) {
    const ka = lessonKey(a);
    const kb = lessonKey(b);
    const x = ka.adviceHead!;
    const y = kb.adviceHead!;
    let inter = 0;
    for (const t of x) if (y.has(t)) inter++;
    const counted = x.size >= 3 && y.size >= 3 && inter / (x.size + y.size - inter) >= 0.75;
    assert.equal(sameAdvice(ka, kb), counted, `${a} | ${b}`);
    if (counted) same++;
  }
  assert.ok(same > 50, `${same} pairs share their advice`);
});
