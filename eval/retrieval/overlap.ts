// Content words a lesson shares with a case: what makes a paraphrase case a paraphrase, checked rather than claimed.
import { queryTerms, splitIdentifiers, STOP_WORDS } from "../../src/core/text.js";
import { phaseTitle } from "../../src/retrieval/context.js";
import { stemOf } from "../../src/store/term-stats.js";
import type { CaseSpec } from "./spec.js";

/** A paraphrase case's relevant lesson may share at most this many content words with the whole context. */
export const PARAPHRASE_MAX_SHARED = 1;

/** Prefix matches count from this stem length: the engine's FTS queries match `term*` from 4 characters. */
const PREFIX_MIN = 4;

/**
 * The content stems of a text as Cairn's tokeniser sees it: words and identifier pieces, stop
 * words and one-letter terms dropped, Porter-stemmed as the index and term statistics stem them.
 */
export function contentStemsOf(text: string): Set<string> {
  const terms = [...queryTerms(text, 100_000), ...splitIdentifiers(text).filter((t) => t.length >= 2 && !STOP_WORDS.has(t))];
  return new Set(terms.map(stemOf));
}

/** All of a case's text (phase title, task, files, last message, agent, stack) as content stems. */
export function caseStems(c: Pick<CaseSpec, "phase" | "task" | "files" | "last_message" | "agent" | "tech_stack">): Set<string> {
  return contentStemsOf([phaseTitle(c.phase), c.task, ...c.files, c.last_message, c.agent ?? "", ...(c.tech_stack ?? [])].join("\n"));
}

/**
 * The case stems a lesson's searchable text matches: the same stem, or (as a prefix query
 * would) a case stem of 4+ characters that begins one of the lesson's stems, or the reverse.
 */
export function sharedStems(caseSet: ReadonlySet<string>, lessonText: string): string[] {
  const lesson = contentStemsOf(lessonText);
  const shared: string[] = [];
  for (const s of caseSet) {
    if (lesson.has(s)) shared.push(s);
    else if (s.length >= PREFIX_MIN && [...lesson].some((l) => (l.length >= PREFIX_MIN && l.startsWith(s)) || (s.startsWith(l) && l.length >= PREFIX_MIN))) shared.push(s);
  }
  return shared.sort();
}
