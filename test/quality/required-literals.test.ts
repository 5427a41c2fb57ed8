// required-literals.ts reads, from a regex's source, literals every match contains; literal-scan.ts finds which of many literals a text holds.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { makeRng, pick } from "../../bench/rng.js";
import { foldForMatching } from "../../src/quality/injection.js";
import { literalScanner } from "../../src/quality/literal-scan.js";
import { allOf, literalsOf, mayMatch, requiredLiterals, withoutShortLiterals } from "../../src/quality/required-literals.js";

// The syntax the injection cues use: alternations in groups, optional and lazy bounded parts, classes,
// look-aheads, word boundaries, escapes, repeated characters and groups.
const PATTERNS = [
  /\byou(?:'re| are) now\b(?! (?:able|ready)\b)|\bnow,? you are\b|\blet'?s play a game\b/,
  /\b(?:your|my|a|the) new task\b[^.!?\n]{0,10}?:|\bnew (?:tasks?|instructions?) (?:follows?|is|-)/,
  /\b(?:hello|hi|hey)\s+(?:gpt|ai|bot)\b|(?:^|\s)\$documents?\s*:|\bstop\s*[:-]\s*(?:write|say)\b/,
  /\bsystem\s+override\b|\bdan\s+mode\b|\b(?:you are|du bist) (?:now |jetzt )?dan\b/u,
  /ab+c|x{2}y|(?:pq)+r|m(?:no)?p/,
  /\b(?:ignor\w*|forget|drop)\b/g,
  /\b(?:previous|prior|above)\s+(?:instructions?|rules?)\b/g,
  /pr[eé]c[eé]dentes?|auftr[aä]ge|h[oö]re nicht auf/,
];

const injections = fs.readFileSync(fileURLToPath(new URL("../../eval/gates/injections.jsonl", import.meta.url)), "utf8")
  .trim().split("\n").map((l) => foldForMatching((JSON.parse(l) as { text: string }).text));
const rng = makeRng(3);
const pieces = ["you", "'re", " are", " now", " ", "able", "let", "s play a game", "new task", ":", "a ", "the", "tasks", "hi", "gpt", "$document", "stop", "-", "say",
  "system", "override", "dan", "mode", "du bist", "ab", "b", "c", "x", "y", "pq", "r", "m", "no", "p", "ignore", "drop", "previous", "rules", "précédente", "auftraege", "höre nicht auf", ".", "\n"];
const generated = Array.from({ length: 6000 }, () => Array.from({ length: Math.floor(rng() * 12) }, () => pick(rng, pieces)).join(pick(rng, ["", " "])));

test("every text a pattern matches holds the literals its test requires", () => {
  for (const re of PATTERNS) {
    const literalTest = requiredLiterals(re);
    assert.ok(literalTest, `read ${re.source}`);
    const plain = new RegExp(re.source, re.flags.replace("g", ""));
    let matched = 0;
    for (const t of [...injections, ...generated]) {
      if (!plain.test(t)) continue;
      matched++;
      const present = new Set(literalsOf(literalTest).filter((l) => t.includes(l)));
      assert.ok(mayMatch(literalTest, present), `${re.source} matches ${JSON.stringify(t)} but its test says it cannot`);
    }
    assert.ok(matched > 0, `some text matches ${re.source}`);
  }
});

test("the test reads runs, groups and branches as the source says, and gives up on what it does not read", () => {
  assert.deepEqual(requiredLiterals(/\bdan\s+mode\b|x/), [[["dan"], ["mode"]], [["x"]]]);
  assert.deepEqual(requiredLiterals(/ab+c/), [[["ab"], ["bc"]]]);
  assert.deepEqual(requiredLiterals(/x(?!y)z/), [[["xz"]]]);
  assert.deepEqual(requiredLiterals(/a(?:b|cd)?e/), [[["a"], ["e"]]]);
  assert.deepEqual(requiredLiterals(/q(?:ab|c(?:de|fg))/), [[["q"], ["ab", "de", "fg"]]]);
  assert.equal(requiredLiterals(/(a)\1/), undefined);
  assert.equal(requiredLiterals(/abc/i), undefined);
  assert.equal(requiredLiterals(/a|b?/), undefined);
  assert.deepEqual(allOf([requiredLiterals(/\b(?:aa|bbb)\b/g), requiredLiterals(/xx|yyy/)]), [[["aa", "bbb"], ["xx", "yyy"]]]);
  assert.equal(allOf([requiredLiterals(/aa/), undefined]), undefined);
  assert.deepEqual(withoutShortLiterals([[["ab", "cde"], ["fgh"]]], 3), [[["fgh"]]]);
  assert.equal(withoutShortLiterals([[["ab"]], [["cde"]]], 3), undefined);
});

test("the scanner finds exactly the literals a text contains, overlapping and nested ones included", () => {
  const literals = ["ignore", "ignored", "gnor", "now", "no", "ow", "you are", "are now", "$document", "ey", "key", "s.", "q~"];
  const scan = literalScanner(literals);
  for (const t of [...injections, ...generated, "keyey", "ignored now", "you are now", "s.q~s."]) {
    assert.deepEqual([...scan(t)].sort(), literals.filter((l) => t.includes(l)).sort(), JSON.stringify(t));
  }
});
