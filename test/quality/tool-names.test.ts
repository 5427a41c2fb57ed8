// The tool-name list is looked up by binary search in its own lines: it must be sorted, and a lookup must agree with a plain Set.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { SortedWords, shortWords, toolNames, tradeWords } from "../../src/quality/tool-names.js";

const FILE = path.join(import.meta.dirname, "..", "..", "assets", "quality", "tool-names.txt");
const SHORT_FILE = path.join(import.meta.dirname, "..", "..", "assets", "quality", "short-words.txt");
const TRADE_FILE = path.join(import.meta.dirname, "..", "..", "assets", "quality", "trade-words.txt");

test("the shipped tool-name, short-word and trade-word lines are sorted by code unit and hold no word twice (binary search relies on it)", () => {
  const lines = fs.readFileSync(FILE, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
  assert.equal(lines.length, 2);
  const short = fs.readFileSync(SHORT_FILE, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
  assert.equal(short.length, 1);
  const trade = fs.readFileSync(TRADE_FILE, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
  assert.equal(trade.length, 1);
  for (const line of [...lines, ...short, ...trade]) {
    const words = line.split(" ");
    for (let i = 1; i < words.length; i++) assert.ok(words[i - 1]! < words[i]!, `${words[i - 1]} before ${words[i]}`);
  }
});

test("a sorted word list answers as a Set of its words does, for every word, its neighbours in order, and prefixes", () => {
  const { names, wordlike } = toolNames();
  const lines = fs.readFileSync(FILE, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
  const short = fs.readFileSync(SHORT_FILE, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
  const trade = fs.readFileSync(TRADE_FILE, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
  for (const [list, line] of [[names, lines[0]!], [wordlike, lines[1]!], [shortWords(), short[0]!], [tradeWords(), trade[0]!]] as const) {
    const words = line.split(" ");
    const set = new Set(words);
    assert.equal(list.size, set.size);
    for (const w of words) assert.ok(list.has(w), w);
    // Near misses: a prefix, an extension and a changed last letter of every 50th word.
    for (let i = 0; i < words.length; i += 50) {
      const w = words[i]!;
      for (const probe of [w.slice(0, -1), `${w}x`, `${w.slice(0, -1)}${w.endsWith("z") ? "a" : "z"}`, ""]) {
        assert.equal(list.has(probe), set.has(probe), JSON.stringify(probe));
      }
    }
  }
  const small = new SortedWords("alpha beta gamma");
  assert.deepEqual(["alpha", "beta", "gamma", "alph", "betas", "delta", "", "a", "zeta"].map((w) => small.has(w)), [true, true, true, false, false, false, false, false, false]);
  assert.equal(new SortedWords("").has(""), false);
});
