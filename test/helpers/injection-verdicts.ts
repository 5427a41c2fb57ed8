// Injection-gate verdicts for tests: refused as prompt injection on add and in a trusted import, or not read as one at all.
import assert from "node:assert/strict";
import { validateLessonText } from "../../src/quality/gates.js";

export const refusedAsInjection = (text: string, trusted: boolean): boolean =>
  validateLessonText(text, { trusted }).issues.some((i) => i.code === "prompt_injection" && i.severity === "reject");

/** Each text is refused, whether an agent adds it or a trusted import (which skips the length and vagueness checks) brings it. */
export function assertRefused(texts: readonly string[]): void {
  for (const text of texts) {
    assert.ok(refusedAsInjection(text, false), `add: ${text}`);
    assert.ok(refusedAsInjection(text, true), `trusted import: ${text}`);
  }
}

/** No text carries a prompt-injection finding of any severity. */
export function assertNotInjection(texts: readonly string[]): void {
  for (const text of texts) {
    const g = validateLessonText(text, { trusted: true });
    assert.ok(!g.issues.some((i) => i.code === "prompt_injection"), `${text}: ${g.issues.map((i) => i.message).join(", ")}`);
  }
}
