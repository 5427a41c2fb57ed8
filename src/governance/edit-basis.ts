// What an editor started from: a fingerprint of a lesson's editable fields, so a save over someone else's change is caught.
import { createHash } from "node:crypto";
import type { Entry } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { fieldsOfEntry } from "./structured.js";

/** Changes with the lesson's fields only: an agent using the lesson (shown, applied, feedback) does not change it. */
export function editBasis(e: Entry): string {
  return createHash("sha256").update(JSON.stringify(fieldsOfEntry(e))).digest("base64url").slice(0, 22);
}

/** What a person decides on (approve, reject): the lesson's fields and its status, as the page showed them. */
export function reviewBasis(e: Entry): string {
  return `${e.lifecycle.status}.${editBasis(e)}`;
}

/** A decision taken on a page showing an older version (another tab edited or decided since) is refused, not applied to text the person never read. */
export function assertSeen(e: Entry, seen: string | undefined): void {
  if (seen === undefined || seen === reviewBasis(e)) return;
  throw new CairnError(
    "CONFLICT",
    `${e.handle} changed since you opened this page (it is now ${e.lifecycle.status}, updated ${e.updated_at}); nothing was done. Read it again, then decide.`,
  );
}
