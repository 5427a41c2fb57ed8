// One scan of a text for many literal strings at once: which of them it contains, overlapping ones included.

/**
 * A finder of which `literals` occur in a text. One alternation, longest first, so the longest
 * literal at a place is reported; the shorter ones it contains are present too, and the scan
 * resumes one character after each hit, so literals that overlap it are found as well. (A loop
 * looking each place up by its first two characters cost several times more in V8.)
 */
export function literalScanner(literals: Iterable<string>): (text: string) => Set<string> {
  const all = [...new Set(literals)];
  let scan: RegExp | undefined;
  const contained = new Map<string, string[]>();
  const containedIn = (hit: string): string[] => {
    let list = contained.get(hit);
    if (!list) {
      list = all.filter((l) => hit.includes(l));
      contained.set(hit, list);
    }
    return list;
  };
  return (text) => {
    // Compiled on first use: most processes never scan.
    scan ??= new RegExp(
      [...all].sort((a, b) => b.length - a.length).map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
      "g",
    );
    const found = new Set<string>();
    scan.lastIndex = 0;
    for (let m = scan.exec(text); m; m = scan.exec(text)) {
      for (const l of containedIn(m[0])) found.add(l);
      scan.lastIndex = m.index + 1;
    }
    return found;
  };
}
