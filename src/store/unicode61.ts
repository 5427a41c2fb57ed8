// FTS5's `unicode61` tokenizer (remove_diacritics 1) in JS, from a table generated off the SQLite Cairn ships: text split and folded exactly as the SQLite index splits and folds it.
import { UNICODE61_RANGES } from "./unicode61-table.js";

/** Kinds beside a fold offset: a separator, or a token character that is dropped (a diacritic). */
const SEPARATOR = 0x7fffffff;
const DROPPED = 0x7ffffffe;

interface Table {
  starts: Uint32Array;
  kinds: Int32Array;
  /** Code points below 128, looked up directly (most text). */
  ascii: Int32Array;
}

let table: Table | undefined;

function load(): Table {
  const parts = UNICODE61_RANGES.split(",");
  const starts = new Uint32Array(parts.length);
  const kinds = new Int32Array(parts.length);
  parts.forEach((p, i) => {
    const [start, kind] = p.split(":") as [string, string];
    starts[i] = parseInt(start, 36);
    kinds[i] = kind === "s" ? SEPARATOR : kind === "d" ? DROPPED : Number(kind);
  });
  const t: Table = { starts, kinds, ascii: new Int32Array(128) };
  for (let cp = 0; cp < 128; cp++) t.ascii[cp] = kindAt(t, cp);
  return t;
}

function kindAt(t: Table, cp: number): number {
  let lo = 0;
  let hi = t.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.starts[mid]! <= cp) lo = mid;
    else hi = mid - 1;
  }
  return t.kinds[lo]!;
}

/**
 * The tokens unicode61 makes of `text`, in order: case folded, Latin diacritics removed (not those of a
 * letter carrying two, nor Greek or Cyrillic ones), split on what is not a letter, number or private-use
 * character in SQLite's Unicode tables. A lone surrogate separates, as the U+FFFD SQLite would be given does.
 */
export function unicode61Tokens(text: string): string[] {
  const t = (table ??= load());
  const out: string[] = [];
  let token = "";
  let open = false;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    const kind = cp < 128 ? t.ascii[cp]! : cp >= 0xd800 && cp <= 0xdfff ? SEPARATOR : kindAt(t, cp);
    if (kind === SEPARATOR) {
      if (open && token) out.push(token);
      token = "";
      open = false;
    } else {
      open = true;
      if (kind !== DROPPED) token += String.fromCodePoint(cp + kind);
    }
  }
  if (open && token) out.push(token);
  return out;
}
