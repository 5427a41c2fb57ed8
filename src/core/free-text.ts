// How long the free text given with an action (a reason, a note) may be, and the one refusal of longer text.
import { CairnError } from "../errors.js";

/** A quarantine, archive or removal reason, a feedback note: what an entry's status_reason and its events keep. */
export const REASON_MAX = 500;
/** A review rejection's reason: stored after "rejected: ", within REASON_MAX. */
export const REJECT_REASON_MAX = 400;

/**
 * Refuses `text` past `max` characters (INVALID_INPUT, naming the field and the limit, not echoing the text):
 * cut silently, a pasted log or stack trace would lose its end, where the cause usually is, and no one would know.
 */
export function assertFits(field: string, text: string | undefined, max: number): void {
  if (text === undefined || text.length <= max) return;
  throw new CairnError(
    "INVALID_INPUT",
    `The ${field} is too long (at most ${max} characters; it has ${text.length}): shorten it, and put a long log or trace in a file or issue the ${field} can name.`,
    { field, max, length: text.length },
  );
}
