// Names of widely used packages (assets/quality/tool-names.txt), short English words (short-words.txt) and a language's trade words (trade-words.txt), looked up in the files' own sorted lines.
import fs from "node:fs";
import path from "node:path";
import { packageRoot } from "../core/package-info.js";

/**
 * A sorted, space-separated word list answered by binary search over word offsets (~15 comparisons
 * a lookup). The first lookup of a process used to build two Sets of the ~29,000 names: 21–26 ms
 * with the file's read, and 1 MB of heap kept; word offsets instead take it to 10–14 ms, and keep
 * 0.1 MB beside the file's text. The CLI pays that first lookup in every add and in a recall that
 * merges a lesson held by both tiers.
 */
export class SortedWords {
  readonly #text: string;
  /** Where each word starts in `text`; it ends one character before the next start (or at the end). */
  readonly #starts: Int32Array;

  /** `line`: words in ascending code-unit order (as scripts/gen-tool-names.py writes them), one space apart. */
  constructor(line: string) {
    this.#text = line;
    const starts: number[] = line ? [0] : [];
    for (let i = line.indexOf(" "); i >= 0; i = line.indexOf(" ", i + 1)) starts.push(i + 1);
    this.#starts = Int32Array.from(starts);
  }

  get size(): number {
    return this.#starts.length;
  }

  has(word: string): boolean {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.#compare(word, mid);
      if (c === 0) return true;
      if (c < 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return false;
  }

  /** `word` against the i-th word of the list, by code units: negative when it sorts before. */
  #compare(word: string, i: number): number {
    const start = this.#starts[i]!;
    const end = i + 1 < this.#starts.length ? this.#starts[i + 1]! - 1 : this.#text.length;
    const n = Math.min(word.length, end - start);
    for (let k = 0; k < n; k++) {
      const d = word.charCodeAt(k) - this.#text.charCodeAt(start + k);
      if (d !== 0) return d;
    }
    return word.length - (end - start);
  }
}

export interface ToolNames {
  /** Names that are not English words: a match anywhere names a tool. */
  names: SortedWords;
  /** Names that are English words ("express", "black"): a tool only when capitalised mid-sentence. */
  wordlike: SortedWords;
}

let tools: ToolNames | undefined;

/**
 * Read on first use from the data file shipped with the package (~29,000 names, 420 KB): needed only
 * when nothing cheaper shows a lesson is concrete, or to compare what two lessons name.
 */
export function toolNames(): ToolNames {
  if (!tools) {
    const lines = fs.readFileSync(path.join(packageRoot(), "assets", "quality", "tool-names.txt"), "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
    tools = { names: new SortedWords(lines[0] ?? ""), wordlike: new SortedWords(lines[1] ?? "") };
  }
  return tools;
}

let short: SortedWords | undefined;

/**
 * English words of 3 to 5 letters ("never", "clean"; assets/quality/short-words.txt, 43 KB): written in
 * capitals they are shouted, not an acronym. Read on first use, apart from the names, as only a lesson
 * holding an acronym no list knows needs them.
 */
export function shortWords(): SortedWords {
  short ??= new SortedWords(
    fs.readFileSync(path.join(packageRoot(), "assets", "quality", "short-words.txt"), "utf8").split("\n").find((l) => l && !l.startsWith("#")) ?? "",
  );
  return short;
}

let trade: SortedWords | undefined;

/**
 * Terms of one language's trade that are no English word ("goroutine", "cmdlet", "readonly", "groupby";
 * assets/quality/trade-words.txt, 57 KB, from cspell's language dictionaries). Read on first use: only a
 * lesson that nothing else shows to be concrete needs them.
 */
export function tradeWords(): SortedWords {
  trade ??= new SortedWords(
    fs.readFileSync(path.join(packageRoot(), "assets", "quality", "trade-words.txt"), "utf8").split("\n").find((l) => l && !l.startsWith("#")) ?? "",
  );
  return trade;
}
