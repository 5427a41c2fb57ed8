// The one limit on a recall query's length, shared by the engine (CLI, plugin) and the MCP tool schema.
import { CairnError } from "../errors.js";
import { hasVisibleText, INVISIBLE_REMOVED } from "../quality/sanitize.js";

/**
 * A query describes the work at hand: a task, the files, an error with its stack. Ten thousand
 * characters holds that several times over; past it the text is a whole log or file, whose words
 * only dilute the match (the ranking reads the first distinct terms). Counted in UTF-16 units, as
 * JSON Schema's maxLength and zod count.
 */
export const QUERY_MAX_CHARS = 10_000;

/** The refusal's advice, the same on every face. */
export function queryTooLongMessage(length: number): string {
  return `The query is ${length} characters; at most ${QUERY_MAX_CHARS} are taken. Describe the task, the files and the error line instead of pasting a whole log or file.`;
}

/** A query within the limit that has something to match: blank, or only hidden characters, is refused, not answered "no lesson matches". */
export function assertQuery(query: string): void {
  if (query.length > QUERY_MAX_CHARS) throw new CairnError("INVALID_INPUT", queryTooLongMessage(query.length), { length: query.length, max: QUERY_MAX_CHARS });
  if (!hasVisibleText(query)) {
    const what = /\S/.test(query) ? `empty ${INVISIBLE_REMOVED}` : "blank";
    throw new CairnError("INVALID_INPUT", `The query is ${what}: describe the task, files or error you are working on.`);
  }
}
