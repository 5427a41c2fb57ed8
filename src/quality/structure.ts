// Structure gate: is there a lesson at all, and is it a size an agent can afford to read?
import { counted } from "../core/counted.js";
import { isEntryRef } from "../core/ids.js";
import { normalizeLessonText } from "./normalize.js";
import type { GateOptions, QualityIssue } from "./types.js";

export const MIN_CHARS = 15;
export const MAX_CHARS = 280;
/** Trusted imports above this are kept but flagged: long notes cost context every time they are shown. */
export const TRUSTED_SOFT_MAX_CHARS = 4000;
/** Nothing above this is a lesson, trusted or not (real imported notes reach ~10,000). */
export const HARD_MAX_CHARS = 16000;
/**
 * How much raw input may hold one lesson: room for 4-byte characters, UTF-16 and runs of spaces the
 * normalizer collapses. A reader stops here (a 200 MB pipe took 32 s and 0.9 GB only to be refused).
 */
export const HARD_MAX_INPUT_BYTES = HARD_MAX_CHARS * 64;

const issue = (severity: QualityIssue["severity"], code: string, message: string): QualityIssue => ({
  layer: "structure", severity, code, message,
});

/** The refusal of an oversize lesson; `size` is its count, or "over N bytes" when the reader stopped early. */
export function oversizeIssue(size: string): QualityIssue {
  return issue("reject", "oversize", `The lesson is ${size}; nothing over ${HARD_MAX_CHARS} is accepted. Split it or link to a document.`);
}

/** A whole text that is one JSON object or array: data for a program, not a lesson for an agent. */
function isDataRecord(t: string): boolean {
  const first = t[0];
  const last = t[t.length - 1];
  if (!((first === "{" && last === "}") || (first === "[" && last === "]"))) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

export function checkStructure(text: string, opts: GateOptions = {}): QualityIssue[] {
  const t = normalizeLessonText(text);
  // Code points, not UTF-16 units: an emoji is one character to the person writing it. Counted
  // without spreading the string into an array, which a megabyte paste would turn into a GC storm.
  const n = t.length - (t.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  if (n === 0) return [issue("reject", "empty", "The lesson is empty.")];
  const out: QualityIssue[] = [];
  if (n > HARD_MAX_CHARS) {
    out.push(oversizeIssue(counted(n, "character")));
  } else if (!opts.trusted && n > MAX_CHARS) {
    out.push(issue("reject", "too_long", `The lesson is ${counted(n, "character")}; keep it to ${MAX_CHARS} (one insight — put detail in "why").`));
  } else if (opts.trusted && n > TRUSTED_SOFT_MAX_CHARS) {
    out.push(issue("warn", "long_lesson", `The lesson is ${counted(n, "character")} (over ${TRUSTED_SOFT_MAX_CHARS}, let in by a trusted import or knowledge.validation_enabled = false); consider splitting it.`));
  }
  if (!opts.trusted && n < MIN_CHARS) {
    out.push(issue("reject", "too_short", `The lesson is ${counted(n, "character")}; at least ${MIN_CHARS} are needed to say what and why.`));
  }
  if (!/\p{L}/u.test(t)) out.push(issue("reject", "no_words", "The lesson contains no words."));
  else if (!opts.trusted && isDataRecord(t)) {
    // Test fixtures and tool records leak into agents' memory files (203 of the 729 real memories): stored, they
    // matched every query that shared a field name and said nothing to the agent that read them.
    out.push(issue("reject", "data_record", "The lesson is a JSON record, not a sentence; write the insight it holds in words (quote the JSON inside a sentence if it matters)."));
  } else if (isEntryRef(t)) {
    // `cairn promote 01a20b48-…` once stored the bare id as a hive lesson.
    out.push(issue("reject", "lesson_is_an_id", `"${t.slice(0, 40)}" is an entry id, not a lesson; to promote an existing entry use \`cairn promote --from-swarm ${t.slice(0, 40)}\` (promote { id }).`));
  }
  return out;
}
