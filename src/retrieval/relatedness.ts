// Whether a ranked lesson is about the work at hand: an injected lesson must share a word that names the work, not only a generic verb.
import { queryTerms } from "../core/text.js";
import { searchTextOf } from "../store/entry-columns.js";
import { stemOf } from "../store/term-stats.js";
import { weightedContextTerms, type RetrievalContext } from "./context.js";
import { compoundSpellings, phrasalForms } from "./query-variants.js";
import type { ScoredEntry } from "./score.js";
import { RELATED_SIMILARITY } from "./weights.js";

/**
 * Words every task description uses whatever the work is. A lesson matching a context only
 * through these ("add the orders table" vs. a TLS lesson that says "add the CA bundle") is
 * unrelated: on a small store BM25 still ranks it, and an empty block beats it.
 */
const GENERIC_WORDS =
  "add adds added adding fix fixes fixed fixing update updates updated change changes changed create creates created " +
  "remove removes removed delete deleted set sets run runs running check checks write writes move moves call calls " +
  "handle handles keep keeps implement implemented refactor improve support new old work works working task tasks " +
  "issue issues bug bugs problem problems code file files step steps first next last start stop try done";

const GENERIC_STEMS: ReadonlySet<string> = new Set(GENERIC_WORDS.split(/\s+/).map(stemOf));

/** The stems of the context's words that say what the work is about. */
export function contentStems(ctx: RetrievalContext): Set<string> {
  return new Set(weightedContextTerms(ctx).map((t) => stemOf(t.term)).filter((st) => !GENERIC_STEMS.has(st)));
}

/**
 * Related when a context signal the lesson's author declared fires (files, triggers, stack), when
 * the vectors put the lesson close in meaning to the context, or when the lesson shares at least
 * one content word with the context, a phrasal verb written the other way included ("Shut down the
 * listener" for a context about its shutdown: the context holds "shutdown" and "shut down", the
 * lesson "shut" and a stop word) and a compound ("The check box…" for a context about the checkbox).
 */
export function isRelated(r: ScoredEntry, stems: ReadonlySet<string>): boolean {
  const b = r.breakdown;
  if ((b.files ?? 0) > 0 || (b.triggers ?? 0) > 0 || (b.stack ?? 0) > 0) return true;
  if (r.similarity !== undefined && r.similarity >= RELATED_SIMILARITY) return true;
  const text = searchTextOf(r.entry);
  const sharesStem = (t: string) => stems.has(stemOf(t));
  return queryTerms(text, 400).some(sharesStem) || phrasalForms(text).some(sharesStem) || compoundSpellings(text).some(sharesStem);
}
