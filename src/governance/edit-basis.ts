// What an editor started from: a fingerprint of a lesson's editable fields, so a save over someone else's change is caught.
import { createHash } from "node:crypto";
import type { Entry } from "../core/entry.js";
import { fieldsOfEntry } from "./structured.js";

/** Changes with the lesson's fields only: an agent using the lesson (shown, applied, feedback) does not change it. */
export function editBasis(e: Entry): string {
  return createHash("sha256").update(JSON.stringify(fieldsOfEntry(e))).digest("base64url").slice(0, 22);
}
