// Secrets-gate verdicts for tests: each text refused with its secret masked out, or passed with no finding at all.
import assert from "node:assert/strict";
import { findSecrets } from "../../src/quality/secrets.js";

/** Each text is refused and its value masked out. */
export function assertCaught(cases: ReadonlyArray<readonly [text: string, secret: string]>): void {
  for (const [text, secret] of cases) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, `not refused: ${text}`);
    assert.ok(!masked.includes(secret), `not masked: ${masked}`);
  }
}

/** No text carries a secrets finding. */
export function assertPasses(texts: readonly string[]): void {
  for (const text of texts) assert.deepEqual(findSecrets(text).issues, [], text);
}
