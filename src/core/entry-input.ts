// Conversions between a stored Entry and the NewEntryInput it could be written from (import, promotion), and what an import carries beside it.
import type { Entry, NewEntryInput } from "./entry.js";

/** Removes keys whose value is undefined (recursively into plain objects), so optional fields stay absent. */
export function dropUndefined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) {
    const v = o[k];
    if (v === undefined) delete o[k];
    else if (v && typeof v === "object" && !Array.isArray(v)) dropUndefined(v as object);
  }
  return o;
}

/** The NewEntryInput an entry would have been created from, for paths that write it again through the gates. */
export function entryToInput(e: Entry): NewEntryInput {
  const { scope, ...applicability } = e.applicability;
  return dropUndefined<NewEntryInput>({
    lesson: e.lesson,
    title: e.title,
    why: e.why,
    prevention: { ...e.prevention },
    category: e.category,
    kind: e.kind,
    root_cause: e.root_cause,
    tags: [...e.tags],
    entities: [...e.entities],
    scope,
    applicability,
    directive: { ...e.directive },
    confidence: e.lifecycle.confidence,
    status: e.lifecycle.status,
    hive_eligible: e.lifecycle.hive_eligible,
    max_phases: e.lifecycle.max_phases,
    created_by: e.provenance.created_by,
    auto_generated: e.provenance.auto_generated,
    session_id: e.provenance.session_id,
    derived_from: { ...e.provenance.derived_from },
    external_id: e.provenance.external_id,
    created_at: e.created_at,
    supersedes: e.lifecycle.supersedes,
  });
}

/**
 * What the system a lesson comes from recorded of its life before the import: every phase or project
 * that confirmed it, how many phases it has lived, the project it came from, and how it was used. Kept on the new entry
 * (lifecycle/write.ts) so promotion and expiry go on from where they were; an import sets it, never an agent.
 * Parsers give only well-formed values: ISO dates, names of at most 100 characters, a whole phase count.
 */
export interface ImportedHistory {
  confirmations: Array<{ at: string; phase?: string; project?: string }>;
  phases_alive?: number;
  /** The project the lesson was first learned in (a hive lesson's source project), by name. */
  source_project?: string;
  /** How often it was shown, applied, ignored and violated there (whole counts): utility and its review flag go on from them. */
  usage?: {
    shown?: number;
    applied?: number;
    ignored?: number;
    violated?: number;
    /** Helpful and harmful verdicts, and when the last was given (their decay clock). */
    helpful?: number;
    harmful?: number;
    last_feedback_at?: string;
  };
}
