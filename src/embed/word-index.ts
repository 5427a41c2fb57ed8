// Term → row lookup over the word-vector table's own UTF-8 word list, without a JS string per word.
/**
 * A Map of the ~38k tokens and aliases cost ~9 MB of heap and allocator slack in every process that
 * deduplicates (and pushed the 100k bench past its 200 MB budget); this open-addressing table over
 * the file's bytes costs ~0.7 MB. Lines are the table's: `count` tokens (row = line number), then
 * aliases "word\trow". A word listed twice keeps its first row, so a token wins over an alias.
 */
export class WordIndex {
  readonly #words: Uint8Array;
  /** Per line: where its word starts and ends in `words`, and its row. */
  readonly #start: Int32Array;
  readonly #end: Int32Array;
  readonly #row: Int32Array;
  /** Line number + 1 per slot; 0 is empty. */
  readonly #slots: Int32Array;
  readonly #mask: number;
  #scratch = new Uint8Array(128);
  readonly #encoder = new TextEncoder();

  constructor(words: Uint8Array, tokenCount: number, aliasCount: number) {
    const lines = tokenCount + aliasCount;
    this.#words = words;
    this.#start = new Int32Array(lines);
    this.#end = new Int32Array(lines);
    this.#row = new Int32Array(lines);
    let size = 1;
    while (size < lines * 2) size <<= 1;
    this.#slots = new Int32Array(size);
    this.#mask = size - 1;
    let pos = 0;
    for (let line = 0; line < lines; line++) {
      if (pos > words.length) throw new Error(`word-vector table lists ${line} lines, header says ${tokenCount} tokens and ${aliasCount} aliases`);
      let nl = words.indexOf(0x0a, pos);
      if (nl < 0) nl = words.length;
      let end = nl;
      let row = line;
      if (line >= tokenCount) {
        end = words.indexOf(0x09, pos);
        if (end < 0 || end > nl) throw new Error(`word-vector table: alias line ${line - tokenCount + 1} has no row`);
        row = 0;
        for (let i = end + 1; i < nl; i++) row = row * 10 + (words[i]! - 0x30);
        if (!(row >= 0 && row < tokenCount)) throw new Error(`word-vector table: alias line ${line - tokenCount + 1} points outside the table`);
      }
      this.#start[line] = pos;
      this.#end[line] = end;
      this.#row[line] = row;
      this.#insert(line);
      pos = nl + 1;
    }
    if (pos <= words.length) throw new Error(`word-vector table lists more lines than its header's ${tokenCount} tokens and ${aliasCount} aliases`);
  }

  /** The row of `term`, or undefined when the table does not know it. */
  get(term: string): number | undefined {
    if (this.#scratch.length < term.length * 3) this.#scratch = new Uint8Array(term.length * 3);
    const n = this.#encoder.encodeInto(term, this.#scratch).written;
    const bytes = this.#scratch;
    for (let slot = hashBytes(bytes, 0, n) & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const at = this.#slots[slot]!;
      if (at === 0) return undefined;
      if (this.#sameWord(at - 1, bytes, n)) return this.#row[at - 1];
    }
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }

  #insert(line: number): void {
    const words = this.#words;
    const start = this.#start[line]!;
    const len = this.#end[line]! - start;
    for (let slot = hashBytes(words, start, start + len) & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const at = this.#slots[slot]!;
      if (at === 0) {
        this.#slots[slot] = line + 1;
        return;
      }
      if (this.#sameWord(at - 1, words.subarray(start), len)) return;
    }
  }

  #sameWord(line: number, bytes: Uint8Array, n: number): boolean {
    const start = this.#start[line]!;
    if (this.#end[line]! - start !== n) return false;
    const words = this.#words;
    for (let i = 0; i < n; i++) if (words[start + i] !== bytes[i]) return false;
    return true;
  }
}

/** FNV-1a over bytes [from, to). */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}
