// Recall never comes back empty because of a word that matches nothing: issue 16, item 1, through the real engine.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { makeRng, type Rng } from "../../bench/rng.js";
import { rawEntry, withWorld } from "./helpers.js";

/** A pronounceable made-up word: no English stem, so it is in the index only where we put it. */
function pseudoWord(rng: Rng, syllables = 3): string {
  const c = "bdfgklmnprstvz";
  const v = "aeiou";
  let w = "";
  for (let i = 0; i < syllables; i++) w += c[Math.floor(rng() * c.length)]! + v[Math.floor(rng() * v.length)]!;
  return w;
}

/** Writes a lossless (cairn format) export of the lessons, for a trusted bulk import. */
function writeExportFile(dir: string, lessons: string[]): string {
  const file = path.join(dir, "lessons.cairn.jsonl");
  fs.writeFileSync(file, lessons.map((lesson) => JSON.stringify(rawEntry({ lesson }))).join("\n") + "\n");
  return file;
}

test("an extra word in no lesson, or many common ones, never empties recall (1,000 near-identical lessons)", { timeout: 300_000 }, async () => {
  const rng = makeRng(16);
  const names = new Set<string>();
  while (names.size < 1000) names.add(pseudoWord(rng));
  const lessons = [...names].map((n) => `Retry the billing worker call to the ${n} endpoint with backoff before failing the job`);
  await withWorld(async ({ cairn, sb }) => {
    const report = await cairn.importFile(writeExportFile(sb.root, lessons), { format: "cairn", trusted: true });
    assert.equal(report.imported, 1000, JSON.stringify(report.rejections.slice(0, 3)));

    const plain = await cairn.recall("billing worker retry");
    assert.equal(plain.length, 10, "the common words alone rank their intersection");
    // "fix" and "flakiness" are in no lesson: they used to be kept first and the common words dropped.
    for (const q of ["fix the billing worker retry", "billing worker retry flakiness", "fix billing worker retry flakiness zorblat"]) {
      const hits = await cairn.recall(q);
      console.log(`recall(${JSON.stringify(q)}) → ${hits.length} hits`);
      assert.equal(hits.length, 10, `recall(${JSON.stringify(q)}) must still find the billing worker lessons`);
      assert.ok(hits.every((h) => h.entry.lesson.includes("billing worker")));
    }
    // A unique name among absent words still finds its one lesson first.
    const target = lessons[123]!;
    const name = [...names][123]!;
    const hits = await cairn.recall(`fix flakiness ${name} retry`);
    assert.equal(hits[0]?.entry.lesson, target);
  });
});
