// The literal texts every match of a regex must contain, read from its source: a scan for them clears the texts on which it cannot match.

/**
 * Clauses: each lists literals of which at least one occurs in any match, and every clause holds.
 * Read from the source alone: literal runs and required groups of a sequence each give a clause (a
 * zero-width assertion keeps a run whole; a class, a wildcard or an optional part ends it); a nested
 * alternation keeps the best clause of each branch, united.
 */
type RequiredLiterals = string[][];

/** What every match of a regex contains: the clauses of one of its top-level branches all hold. */
export type LiteralTest = RequiredLiterals[];

/** The test for `re`, or undefined when its flags or syntax are outside what is read here (case folding, backreferences). */
export function requiredLiterals(re: RegExp): LiteralTest | undefined {
  if (re.ignoreCase || re.flags.includes("v")) return undefined;
  try {
    const reader = new SourceReader(re.source);
    const branches = reader.branches();
    if (!reader.done() || branches.some((clauses) => clauses.length === 0)) return undefined;
    return branches;
  } catch (e) {
    if (e instanceof UnreadableSyntax) return undefined;
    throw e;
  }
}

/** Every test holds (words that must all appear, as inOrder's parts): undefined when one cannot be read. */
export function allOf(tests: ReadonlyArray<LiteralTest | undefined>): LiteralTest | undefined {
  if (tests.some((t) => t === undefined)) return undefined;
  return [(tests as LiteralTest[]).flatMap((t) => (t.length === 1 ? t[0]! : [unite(t)]))];
}

/** Whether a text holding exactly the literals `present` (among the test's) may match. */
export function mayMatch(test: LiteralTest, present: ReadonlySet<string>): boolean {
  return test.some((clauses) => clauses.every((clause) => clause.some((l) => present.has(l))));
}

/**
 * The test without the clauses that name a literal shorter than `min` (a clause dropped is taken to
 * hold): a scan for "a" or ":" would stop at almost every character. Undefined when a branch keeps none.
 */
export function withoutShortLiterals(test: LiteralTest, min: number): LiteralTest | undefined {
  const kept = test.map((clauses) => clauses.filter((clause) => clause.every((l) => l.length >= min)));
  return kept.some((clauses) => clauses.length === 0) ? undefined : kept;
}

/** Every literal the test names. */
export function literalsOf(test: LiteralTest): string[] {
  return test.flat(2);
}

/** Branches' best clauses united: one clause that holds whichever branch matched. */
function unite(branches: RequiredLiterals[]): string[] {
  return [...new Set(branches.flatMap((clauses) => clauses.reduce((a, b) => (better(b, a) ? b : a))))];
}

class UnreadableSyntax extends Error {}

type Atom =
  | { kind: "char"; char: string }
  | { kind: "zero" }
  | { kind: "other" }
  | { kind: "group"; clauses: RequiredLiterals };

/** A clause's worth: its shortest literal, longer is rarer; then fewer literals. */
function better(a: string[], b: string[]): boolean {
  const minA = Math.min(...a.map((s) => s.length));
  const minB = Math.min(...b.map((s) => s.length));
  return minA !== minB ? minA > minB : a.length < b.length;
}

const ESCAPED_LITERALS = new Set(["$", "{", "}", ".", "-", "/", "(", ")", "[", "]", "\\", "|", "?", "*", "+", "^", ":", "'", '"', " ", "#", "&", "~", "=", "!", ",", "<", ">", "@", "%", "`", ";", "_"]);

class SourceReader {
  private at = 0;
  constructor(private readonly src: string) {}

  done(): boolean {
    return this.at === this.src.length;
  }

  /** Branches split by `|` up to a `)` or the end, each as its clauses. */
  branches(): RequiredLiterals[] {
    const branches: RequiredLiterals[] = [this.sequence()];
    while (this.src[this.at] === "|") {
      this.at++;
      branches.push(this.sequence());
    }
    return branches;
  }

  /** A group's alternation as clauses: its one branch's, or the branches' best united (none when a branch has none). */
  private alternation(): RequiredLiterals {
    const branches = this.branches();
    if (branches.length === 1) return branches[0]!;
    return branches.some((clauses) => clauses.length === 0) ? [] : [unite(branches)];
  }

  /** Atoms in order: runs of plain characters become literals, required groups add their clauses. */
  private sequence(): RequiredLiterals {
    const clauses: RequiredLiterals = [];
    let run = "";
    const close = () => {
      if (run) clauses.push([run]);
      run = "";
    };
    while (this.at < this.src.length && this.src[this.at] !== "|" && this.src[this.at] !== ")") {
      const atom = this.atom();
      const { min, max } = this.quantifier();
      if (atom.kind === "zero") continue;
      if (atom.kind === "char" && min === 1 && max === 1) {
        run += atom.char;
        continue;
      }
      if (atom.kind === "char" && min >= 1) {
        // `b+c` holds "bc": the run ends with one `b`, and the next starts with it.
        run += atom.char;
        close();
        run = atom.char;
        continue;
      }
      close();
      if (atom.kind === "group" && min >= 1) clauses.push(...atom.clauses);
    }
    close();
    return clauses;
  }

  private atom(): Atom {
    const c = this.src[this.at++]!;
    if (c === "^" || c === "$") return { kind: "zero" };
    if (c === ".") return { kind: "other" };
    if (c === "[") {
      this.skipClass();
      return { kind: "other" };
    }
    if (c === "(") return this.group();
    if (c === "\\") return this.escape();
    if ("*+?{".includes(c)) throw new UnreadableSyntax(c);
    return { kind: "char", char: c };
  }

  private escape(): Atom {
    const c = this.src[this.at++];
    if (c === undefined) throw new UnreadableSyntax("\\");
    if (c === "b" || c === "B") return { kind: "zero" };
    if ("sSwWdD".includes(c)) return { kind: "other" };
    if (c === "p" || c === "P") {
      this.skipBraces();
      return { kind: "other" };
    }
    if (c === "n") return { kind: "char", char: "\n" };
    if (c === "t") return { kind: "char", char: "\t" };
    if (ESCAPED_LITERALS.has(c)) return { kind: "char", char: c };
    // Backreferences, \u escapes, control escapes: not read here.
    throw new UnreadableSyntax(`\\${c}`);
  }

  private group(): Atom {
    let zeroWidth = false;
    if (this.src.startsWith("?:", this.at)) this.at += 2;
    else if (this.src.startsWith("?=", this.at) || this.src.startsWith("?!", this.at)) {
      this.at += 2;
      zeroWidth = true;
    } else if (this.src.startsWith("?<=", this.at) || this.src.startsWith("?<!", this.at)) {
      this.at += 3;
      zeroWidth = true;
    } else if (this.src.startsWith("?<", this.at)) {
      const end = this.src.indexOf(">", this.at);
      if (end < 0) throw new UnreadableSyntax("(?<");
      this.at = end + 1;
    } else if (this.src[this.at] === "?") throw new UnreadableSyntax("(?");
    const clauses = this.alternation();
    if (this.src[this.at++] !== ")") throw new UnreadableSyntax("(");
    // A look-around consumes nothing: the characters either side of it stay one run.
    return zeroWidth ? { kind: "zero" } : { kind: "group", clauses };
  }

  private skipClass(): void {
    while (this.at < this.src.length && this.src[this.at] !== "]") this.at += this.src[this.at] === "\\" ? 2 : 1;
    if (this.src[this.at++] !== "]") throw new UnreadableSyntax("[");
  }

  private skipBraces(): void {
    if (this.src[this.at] !== "{") throw new UnreadableSyntax("\\p");
    const end = this.src.indexOf("}", this.at);
    if (end < 0) throw new UnreadableSyntax("\\p{");
    this.at = end + 1;
  }

  /** The repeat after an atom (lazy or not): its least and most counts. */
  private quantifier(): { min: number; max: number } {
    const c = this.src[this.at];
    let q = { min: 1, max: 1 };
    if (c === "?") q = { min: 0, max: 1 };
    else if (c === "*") q = { min: 0, max: Infinity };
    else if (c === "+") q = { min: 1, max: Infinity };
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.at));
      if (!m) throw new UnreadableSyntax("{");
      this.at += m[0].length;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (this.src[this.at] === "?") this.at++;
      return { min, max };
    } else return q;
    this.at++;
    if (this.src[this.at] === "?") this.at++;
    return q;
  }
}
