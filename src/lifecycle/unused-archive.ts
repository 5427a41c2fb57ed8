// The sweep's archive of a lesson for lack of use: its reason, and telling it apart from a person's verdict by the entry alone.
import type { Entry } from "../core/entry.js";

/** The status reason the sweep writes when it archives a lesson shown often and never applied. */
export function unusedArchiveReason(shown: number): string {
  return `unused: shown ${shown} times, never applied`;
}

const UNUSED_ARCHIVE = /^unused: shown \d+ times, never applied$/;

/**
 * True when the sweep archived `e` for lack of use: no judgement on the lesson, unlike a person's (or
 * an agent's) archive. Read from the entry's own status reason, so a hot path asks no event log.
 */
export function archivedForLackOfUse(e: Entry): boolean {
  return e.lifecycle.status === "archived" && UNUSED_ARCHIVE.test(e.lifecycle.status_reason ?? "");
}
