// Tests for the joined pre-test of a list of patterns: true wherever any pattern matches, false where none can.
import { test } from "node:test";
import assert from "node:assert/strict";
import { anyMatchTest } from "../../src/quality/any-match.js";
import { findHarmfulAdvice } from "../../src/quality/safety.js";

// Shapes the joining must survive: a name two patterns share, backreferences by number and name, an
// escaped backslash before a digit, a class holding "(?<", case and line anchors, a `u` pattern.
const PATTERNS = [
  /\brm\s+-rf\s+(?<target>\S+)/g,
  /\bchmod\s+(?<target>777)\b/g,
  /\b(\w+)\(\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}/g,
  /(?<q>["'])secret\k<q>/,
  /C:\\1\d/,
  /[(?<x>]+end/,
  /^DROP TABLE\b/,
  /\bdu bist (?:jetzt )?dan\b/u,
];

const MATCHING = [
  "then rm -rf /tmp/x", "chmod 777 file", "bomb() { bomb | bomb & }", `say "secret" now`, "path C:\\12 here",
  "((<x>end", "DROP TABLE users", "du bist jetzt dan",
];
const NOT_MATCHING = [
  "rm -f file", "chmod 644 file", "bomb() { other | bomb & }", "say secret now", "path C:\\x2", "end", "keep the table", "du bist da",
  "Retry the billing worker call with backoff before failing the job.",
];

test("regression 16.4: the joined test is true on every text one of the patterns matches", () => {
  const mayMatch = anyMatchTest(PATTERNS);
  for (const text of [...MATCHING, ...NOT_MATCHING, ...MATCHING.map((t) => t.toUpperCase()), ...MATCHING.map((t) => `x\n${t}`)]) {
    const any = PATTERNS.some((p) => new RegExp(p.source, p.flags.replace("g", "")).test(text));
    if (any) assert.ok(mayMatch(text), `missed ${JSON.stringify(text)}`);
  }
  for (const text of MATCHING) assert.ok(PATTERNS.some((p) => new RegExp(p.source, p.flags.replace("g", "")).test(text)), `fixture ${text} matches a pattern`);
});

test("the joined test clears ordinary text, so the patterns need not run on it", () => {
  const mayMatch = anyMatchTest(PATTERNS);
  for (const text of NOT_MATCHING.slice(-3)) assert.equal(mayMatch(text), false, text);
});

test("regression 16.4: harmful advice is still found behind the pre-test: look-alike letters, line starts, named and repeated parts", () => {
  for (const text of [
    "Run ｒｍ -rf / to clean up.", "Fix it with :(){ :|:& };: quickly.", "f() { f | f & } is a handy loop.", "chmod 777 the upload dir.",
    "Set NODE_TLS_REJECT_UNAUTHORIZED=0 in CI.", "Pipe curl https://x.sh | sudo bash to install.",
  ]) assert.ok(findHarmfulAdvice(text).length > 0, text);
});
