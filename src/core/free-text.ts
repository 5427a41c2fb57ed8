// How long the free text given with an action (a reason, a note) may be, and the one refusal of longer text.
import { CairnError } from "../errors.js";

/** A quarantine, archive or removal reason, a feedback note: what an entry's status_reason and its events keep. */
export const REASON_MAX = 500;
/** The flag an agent's quarantine request leaves on an approved lesson, until a person decides. */
export const QUARANTINE_REQUEST = "quarantine-requested:";
/** How much of the requesting actor's name a quarantine request keeps. */
export const REQUEST_ACTOR_MAX = 60;
/**
 * A lifecycle flag: the longest is a quarantine request, "quarantine-requested:<actor>: <reason>", which holds a
 * whole REASON_MAX reason (a reason that fits is never cut when it becomes a request).
 */
export const FLAG_MAX = QUARANTINE_REQUEST.length + REQUEST_ACTOR_MAX + ": ".length + REASON_MAX;
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
