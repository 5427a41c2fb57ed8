// A string drawn from a regular expression (for corpora that give patterns but no examples): which part each capture group drew.

/**
 * A seeded draw, so the same pattern gives the same value on every run (figures can be compared before and after a change).
 * mulberry32 over a 32-bit FNV-1a hash of the seed text.
 */
export function seeded(seedText: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seedText.length; i++) h = Math.imul(h ^ seedText.charCodeAt(i), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Node =
  | { t: "chars"; set: string; dot?: true }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; options: Node[] }
  | { t: "group"; name?: string; index?: number; body: Node }
  | { t: "repeat"; body: Node; min: number; max: number };

const DIGITS = "0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();
const WORD = `${UPPER}${LOWER}${DIGITS}_`;
// `.` and negated classes draw from letters and digits: what a key's body is made of, and never a line break or a quote.
const ANY = `${UPPER}${LOWER}${DIGITS}`;
const SPACE = " ";
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

function escapeSet(c: string): string | undefined {
  return { d: DIGITS, w: WORD, s: SPACE, D: `${UPPER}${LOWER}`, W: "-", S: ANY, n: "\n", r: "\r", t: "\t" }[c];
}

/** Parses the common subset of Go, Python, .NET and PCRE syntax corpora use; look-arounds and back-references are not read (throws). */
class Parser {
  private at = 0;
  private groups = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const n = this.alt();
    if (this.at < this.src.length) throw new Error(`unexpected ${this.src[this.at]} at ${this.at}`);
    return n;
  }

  private alt(): Node {
    const options = [this.seq()];
    while (this.src[this.at] === "|") {
      this.at++;
      options.push(this.seq());
    }
    return options.length === 1 ? options[0]! : { t: "alt", options };
  }

  private seq(): Node {
    const items: Node[] = [];
    while (this.at < this.src.length && this.src[this.at] !== "|" && this.src[this.at] !== ")") {
      const atom = this.atom();
      if (atom) items.push(this.quantified(atom));
    }
    return { t: "seq", items };
  }

  private quantified(body: Node): Node {
    const c = this.src[this.at];
    let q: { min: number; max: number } | undefined;
    if (c === "*") q = { min: 0, max: 3 };
    else if (c === "+") q = { min: 1, max: 4 };
    else if (c === "?") q = { min: 0, max: 1 };
    else if (c === "{") {
      const m = /^\{(\d*)(?:(,)(\d*))?\}/.exec(this.src.slice(this.at));
      if (m && (m[1] || m[3])) {
        const min = Number(m[1] || 0);
        const max = m[2] ? (m[3] ? Number(m[3]) : min + 8) : min;
        this.at += m[0].length - 1;
        q = { min, max };
      }
    }
    // A lone `.` in a pattern (`hooks.slack.com`) is nearly always meant as a dot; repeated (`.{0,40}`), as anything.
    if (!q) return body.t === "chars" && body.dot ? { t: "chars", set: "." } : body;
    this.at++;
    if (this.src[this.at] === "?" || this.src[this.at] === "+") this.at++;
    return { t: "repeat", body, ...q };
  }

  private atom(): Node | undefined {
    const c = this.src[this.at++]!;
    if (c === "(") return this.group();
    if (c === "[") return this.set();
    if (c === ".") return { t: "chars", set: ANY, dot: true };
    if (c === "^" || c === "$") return undefined;
    if (c === "\\") {
      const e = this.src[this.at++]!;
      if ("bBAzZG".includes(e)) return undefined;
      if (e === "x") {
        const hex = /^\{?([0-9a-fA-F]{1,4})\}?/.exec(this.src.slice(this.at))!;
        this.at += hex[0].length;
        return { t: "chars", set: String.fromCharCode(parseInt(hex[1]!, 16)) };
      }
      if (/[1-9k]/.test(e)) throw new Error("back-reference");
      if (e === "p" || e === "P") throw new Error("unicode class");
      return { t: "chars", set: escapeSet(e) ?? e };
    }
    return { t: "chars", set: c };
  }

  private group(): Node | undefined {
    let name: string | undefined;
    let capturing = true;
    if (this.src[this.at] === "?") {
      const rest = this.src.slice(this.at);
      const named = /^\?P?<([A-Za-z_]\w*)>/.exec(rest);
      const flags = /^\?[a-zA-Z-]*\)/.exec(rest);
      const flagged = /^\?[a-zA-Z-]*:/.exec(rest);
      if (named) {
        name = named[1];
        this.at += named[0].length;
      } else if (flags) {
        this.at += flags[0].length;
        return undefined;
      } else if (flagged) {
        capturing = false;
        this.at += flagged[0].length;
      } else throw new Error("look-around");
    }
    const index = capturing ? ++this.groups : undefined;
    const body = this.alt();
    if (this.src[this.at++] !== ")") throw new Error("unclosed group");
    return { t: "group", ...(name ? { name } : {}), ...(index ? { index } : {}), body };
  }

  private set(): Node {
    let negated = false;
    if (this.src[this.at] === "^") {
      negated = true;
      this.at++;
    }
    let chars = "";
    let first = true;
    while (this.at < this.src.length && (this.src[this.at] !== "]" || first)) {
      first = false;
      let c = this.src[this.at++]!;
      if (c === "[" && this.src[this.at] === ":") {
        const end = this.src.indexOf(":]", this.at);
        const cls = this.src.slice(this.at + 1, end);
        chars += { alnum: ANY, alpha: UPPER + LOWER, digit: DIGITS, lower: LOWER, upper: UPPER, xdigit: "0123456789abcdefABCDEF", space: SPACE, word: WORD }[cls] ?? "";
        this.at = end + 2;
        continue;
      }
      if (c === "\\") {
        const e = this.src[this.at++]!;
        const set = escapeSet(e);
        if (set && e !== "n" && e !== "r" && e !== "t") {
          chars += set;
          continue;
        }
        c = set ?? e;
      }
      if (this.src[this.at] === "-" && this.src[this.at + 1] !== "]" && this.at + 1 < this.src.length) {
        this.at++;
        let to = this.src[this.at++]!;
        if (to === "\\") to = escapeSet(this.src[this.at]!) ?? this.src[this.at]!, this.at++;
        for (let k = c.charCodeAt(0); k <= to.charCodeAt(0); k++) chars += String.fromCharCode(k);
      } else chars += c;
    }
    this.at++;
    if (negated) chars = [...ANY].filter((ch) => !chars.includes(ch)).join("") || [...PRINTABLE].filter((ch) => !chars.includes(ch)).join("");
    return { t: "chars", set: [...new Set(chars)].join("") };
  }
}

export interface Drawn {
  text: string;
  /** Each capture group that drew something: [start, end) in `text`, by index and by name. */
  groups: Map<number | string, [number, number]>;
}

/** A string the pattern matches (for patterns of the subset Parser reads), drawn with `random`; repeats capped at `capRepeat` above their minimum. */
export function drawFrom(pattern: string, random: () => number, capRepeat = 8): Drawn {
  const tree = new Parser(pattern).parse();
  let text = "";
  const groups = new Map<number | string, [number, number]>();
  const pick = (s: string) => s[Math.floor(random() * s.length)] ?? "";
  const walk = (n: Node): void => {
    if (n.t === "chars") text += pick(n.set);
    else if (n.t === "seq") n.items.forEach(walk);
    else if (n.t === "alt") walk(n.options[Math.floor(random() * n.options.length)]!);
    else if (n.t === "group") {
      const from = text.length;
      walk(n.body);
      if (n.index !== undefined) groups.set(n.index, [from, text.length]);
      if (n.name) groups.set(n.name, [from, text.length]);
    } else {
      const max = Math.min(n.max, n.min + capRepeat);
      const count = n.min + Math.floor(random() * (max - n.min + 1));
      for (let i = 0; i < count; i++) walk(n.body);
    }
  };
  walk(tree);
  return { text, groups };
}
