// Property over a generated 1,000-lesson store: a lesson's own words find it, whatever unknown words come along.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { DOMAINS, MODULE_KINDS, NOUNS, VERBS } from "../../bench/vocab.js";
import { makeRng, pick, pickSkewed, int, type Rng } from "../../bench/rng.js";
import { queryTerms } from "../../src/core/text.js";
import { rawEntry, withWorld } from "./helpers.js";

const STORE_CONSONANTS = "bdfgklmnprstvz";
/** Letters the store never uses: a word made of them is in no lesson, under any stem. */
const ABSENT_CONSONANTS = "cjhqwxy";
const ABSENT_ENGLISH = ["fix", "flakiness", "broken", "weird", "urgent", "again", "investigate", "somehow"];

function pseudoWord(rng: Rng, consonants: string, syllables: number): string {
  let w = "";
  for (let i = 0; i < syllables; i++) w += consonants[Math.floor(rng() * consonants.length)]! + "aeiou"[Math.floor(rng() * 5)]!;
  return w;
}

/**
 * Three vocabularies of very different shape: a dozen words in most lessons (all far above the
 * pruning limit), ~90 English words on a Zipf curve, and 3,000 made-up words that are each rare.
 * Two lessons in three also carry a name of their own.
 */
function generateLessons(rng: Rng, n: number): string[] {
  const tiny = ["service", "timeout", "retry", "worker", "cache", "queue", "deploy", "config", "error", "request", "token", "schema"];
  const english = [...DOMAINS, ...MODULE_KINDS, ...VERBS, ...NOUNS.map((w) => w.toLowerCase())].filter((w) => /^[a-z]+$/.test(w));
  const pseudo = Array.from({ length: 3000 }, () => pseudoWord(rng, STORE_CONSONANTS, 2));
  // Keyed by word set: two lessons of the same words are restatements, which recall rightly shows once.
  const out = new Map<string, string>();
  while (out.size < n) {
    // One lesson in three is made of the common words alone: only their combination tells it apart.
    const onlyCommon = rng() < 0.33;
    const words = Array.from({ length: int(rng, 3, onlyCommon ? 7 : 9) }, () => {
      const r = onlyCommon ? 0 : rng();
      return r < 0.4 ? pickSkewed(rng, tiny) : r < 0.8 ? pickSkewed(rng, english) : pick(rng, pseudo);
    });
    if (!onlyCommon && rng() < 0.67) words.splice(int(rng, 0, words.length), 0, pseudoWord(rng, STORE_CONSONANTS, 4));
    const key = [...new Set(words)].sort().join(" ");
    if (!out.has(key)) out.set(key, `The ${words.join(" ")} lesson.`);
  }
  return [...out.values()];
}

function shuffle<T>(rng: Rng, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

function absentWords(rng: Rng): string[] {
  return Array.from({ length: int(rng, 0, 3) }, () => (rng() < 0.5 ? pick(rng, ABSENT_ENGLISH) : pseudoWord(rng, ABSENT_CONSONANTS, 3)));
}

test("property (1,000 generated lessons): content words + up to 3 unknown words, or one rare word, find the lesson in the top 10", { timeout: 300_000 }, async () => {
  const rng = makeRng(1601);
  const lessons = generateLessons(rng, 1000);
  const terms = lessons.map((l) => queryTerms(l));
  const df = new Map<string, number>();
  for (const ts of terms) for (const t of new Set(ts)) df.set(t, (df.get(t) ?? 0) + 1);
  // Lessons whose words all appear in more than ten lessons cannot be told apart in a top 10 by a single word.
  const holders = (ts: string[]) => terms.filter((other) => ts.every((t) => other.includes(t))).length;

  await withWorld(async ({ cairn, sb }) => {
    const file = path.join(sb.root, "lessons.cairn.jsonl");
    fs.writeFileSync(file, lessons.map((lesson) => JSON.stringify(rawEntry({ lesson }))).join("\n") + "\n");
    const report = await cairn.importFile(file, { format: "cairn", trusted: true });
    assert.equal(report.imported, lessons.length);

    // The raw ranking: diversity rightly folds a lesson into a near-restatement ranked above it (a
    // superset of its words), which says nothing about whether retrieval found it.
    const found = async (q: string, lesson: string) => (await cairn.recall(q, { limit: 10, diverse: false })).some((h) => h.entry.lesson === lesson);
    const failures: string[] = [];
    let whole = 0;
    let rare = 0;
    let allCommon = 0;
    for (let k = 0; k < 200; k++) {
      const i = Math.floor(rng() * lessons.length);
      const lesson = lessons[i]!;
      const own = terms[i]!;
      // 1. All its content words, shuffled, with up to three words found in no lesson.
      if (holders(own) <= 10) {
        whole++;
        if (own.every((t) => df.get(t)! > 100)) allCommon++;
        const q = shuffle(rng, [...own, ...absentWords(rng)]).join(" ");
        if (!(await found(q, lesson))) failures.push(`content words: ${q} ↛ ${lesson} (df ${own.map((t) => `${t}:${df.get(t)}`).join(", ")})`);
      }
      // 2. Its rarest word (in at most ten lessons), a common word of it, and unknown words.
      const rarest = [...own].sort((a, b) => df.get(a)! - df.get(b)!)[0]!;
      if (df.get(rarest)! <= 10) {
        rare++;
        const common = own.filter((t) => t !== rarest);
        const q = shuffle(rng, [rarest, ...(common.length ? [pick(rng, common)] : []), ...absentWords(rng)]).join(" ");
        if (!(await found(q, lesson))) failures.push(`rare word: ${q} ↛ ${lesson}`);
      }
    }
    console.log(`checked ${whole} content-word queries (${allCommon} of lessons whose every word is in > 10% of them) and ${rare} rare-word queries; ${failures.length} missed`);
    assert.ok(whole >= 100 && rare >= 100, `the generator must exercise both properties (${whole}, ${rare})`);
    assert.deepEqual(failures, []);
  });
});
