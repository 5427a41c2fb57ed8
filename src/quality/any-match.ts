// One regular expression that matches wherever any of a list of patterns could: a single scan that clears most texts before each pattern runs.

/**
 * A test that is true for every text on which at least one of `patterns` matches (it may be true on
 * a few more): the patterns joined as alternatives, case-insensitive, dot matching newlines, ^ and $
 * at line ends — each only widens a pattern — with named groups made plain (two patterns may share a
 * name) and each backreference widened to any text (its group's number changes once joined).
 * Patterns with the `u` or `v` flag are joined apart from the others: the syntaxes differ. The caller
 * still runs each pattern where this says yes; it only skips the texts none of them can match.
 */
export function anyMatchTest(patterns: readonly RegExp[]): (text: string) => boolean {
  const groups = new Map<string, string[]>();
  for (const p of patterns) {
    const mode = p.flags.includes("v") ? "v" : p.unicode ? "u" : "";
    groups.set(mode, [...(groups.get(mode) ?? []), `(?:${widen(p.source)})`]);
  }
  const joined = [...groups].map(([mode, sources]) => new RegExp(sources.join("|"), `ims${mode}`));
  return (text) => joined.some((re) => re.test(text));
}

/** The pattern with named groups made plain and backreferences (outside classes) made "any text". */
function widen(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      const rest = source.slice(i + 1);
      const backref = inClass ? null : /^(?:[1-9]\d*|k<[^>]+>)/.exec(rest);
      if (backref) {
        out += "[\\s\\S]*?";
        i += backref[0].length;
      } else {
        out += c + (source[i + 1] ?? "");
        i++;
      }
      continue;
    }
    if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") {
      const named = /^\?<(?![=!])[A-Za-z_$][\w$]*>/.exec(source.slice(i + 1));
      if (named) {
        out += "(";
        i += named[0].length;
        continue;
      }
    }
    out += c;
  }
  return out;
}
