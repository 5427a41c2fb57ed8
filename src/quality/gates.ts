// The lesson gate: every layer runs on every lesson, in order, and the verdict is taken at the end.
import { normalizeLessonText } from "./normalize.js";
import { findHarmfulAdvice, findHiddenChars, findInjectionMarkers } from "./safety.js";
import { findInvisibleChars, INVISIBLE_LABELS, stripInvisibleChars } from "./sanitize.js";
import { findSecrets } from "./secrets.js";
import { checkStructure, HARD_MAX_INPUT_BYTES } from "./structure.js";
import type { GateOptions, GateResult, QualityIssue } from "./types.js";
import { checkVagueness } from "./vague.js";

// How much of an oversize lesson the content layers read. Up to here every layer reads all of it (a
// 100 KB paste with an injection at its end is refused for both); the lesson is refused anyway, and
// past a few megabytes the rules' regexes ran out of stack ("Maximum call stack size exceeded").
const CONTENT_WINDOW = HARD_MAX_INPUT_BYTES;

/**
 * Never returns early: a warning (or a rejection) at one layer must not hide what a later layer
 * finds — the audited predecessor stopped at its first warning and let injection markers through.
 */
export function validateLessonText(text: string, opts: GateOptions = {}): GateResult {
  const trusted = opts.trusted === true;
  const whole = normalizeLessonText(text);
  // Hidden characters are always taken out of the returned text; untrusted input is also refused for them.
  const issues: QualityIssue[] = [...checkStructure(stripInvisibleChars(whole), opts)];
  // Only a lesson the structure layer refused as oversize is ever cut; every layer still runs on what it reads.
  const normal = whole.length > CONTENT_WINDOW ? whole.slice(0, CONTENT_WINDOW) : whole;
  const clean = stripInvisibleChars(normal);

  if (trusted) {
    const hidden = findInvisibleChars(normal);
    if (hidden.length > 0) {
      issues.push({
        layer: "safety", severity: "warn", code: "hidden_chars_removed",
        message: `Removed ${hidden.map((c) => INVISIBLE_LABELS[c]).join(", ")} from the lesson.`,
      });
    }
    // Imported unsafe advice is kept (a person chose the file) but never unmarked.
    if (!opts.adviceJudged) issues.push(...findHarmfulAdvice(clean, { imported: true }));
  } else {
    issues.push(...findHiddenChars(normal), ...findHarmfulAdvice(clean));
  }
  issues.push(...findInjectionMarkers(clean));

  const secrets = findSecrets(clean);
  issues.push(...secrets.issues);

  // An empty lesson has one problem, said once by the structure layer (not also "placeholder text").
  if (!trusted && clean.trim().length > 0) issues.push(...checkVagueness(clean));

  return { ok: !issues.some((i) => i.severity === "reject"), issues, text: secrets.masked };
}
