// The secrets layer on a paste holding thousands of findings: its cost grows with the paste, not with the paste times its findings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { growth } from "../helpers/cost.js";
import { findSecrets } from "../../src/quality/secrets.js";

const shapes: Array<[string, string]> = [
  // gitleaks' generic rule finds every pair; each finding's line (allowlists read it) was the whole 400 KB line.
  ["one line of key=value pairs", "key=abc123def456 "],
  // Each line break between two key-like lines is read again joined (a key wrapped by an editor); every earlier finding was asked each time.
  ["key=value pairs one a line", "key=abc123def456\n"],
  ["CI cache keys one a line", "cache-key: node-modules-${{ hashFiles('**/package-lock.json') }}-abc123def456\n"],
];

test("a paste of thousands of generic key=value findings stays linear in the secrets layer, and every value is masked", () => {
  for (const [name, unit] of shapes) {
    const make = (chars: number) => unit.repeat(Math.ceil(chars / unit.length));
    const small = make(25_000);
    const large = make(400_000);
    // 16× the text: linear work measured 13.6–16.0× here; with each finding reading its whole line it cost 37× (one line of
    // pairs). The bound sits midway, so a loaded machine's bursts (re-measured, the least kept) do not fail linear work.
    const ratio = growth(() => findSecrets(small), () => findSecrets(large), { calls: 1, batches: 1, recheckAbove: 18 });
    assert.ok(ratio < 24, `${name}: 16× the text cost ${ratio.toFixed(1)}× as much`);
  }
  // A count, not a time: every pair's value is masked, none left whole.
  const pasted = "key=abc123def456 ".repeat(3000);
  const masked = findSecrets(pasted).masked;
  assert.equal(masked.match(/\[REDACTED:/g)?.length, 3000);
  assert.ok(!masked.includes("abc123def456"));
});
