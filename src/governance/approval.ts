// Approval and rejection: a person moves a lesson to established (retiring what it supersedes) or archives it.
import type { Entry, Status } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { assertFits, REJECT_REASON_MAX } from "../core/free-text.js";
import { locate, ORIGIN_SUPERSEDED, QUARANTINE_REQUEST, supersedeEntry } from "../lifecycle/status.js";
import type { Services } from "../services.js";
import { assertHuman } from "./actors.js";

/**
 * Only the web page passes the version it showed; the version's fields come from structured.ts, which
 * loads the YAML parser, so `cairn recall` and agents' calls that load this module do not pay for it.
 */
async function assertSeenIfAsked(e: Entry, seen: string | undefined): Promise<void> {
  if (seen === undefined) return;
  const { assertSeen } = await import("./edit-basis.js");
  assertSeen(e, seen);
}

export interface DecisionOptions {
  /** reviewBasis() of the lesson as the person's page showed it: a decision on a version changed since is refused. */
  seen?: string;
}

export interface ApprovalResult {
  entry: Entry;
  /** Already approved: nothing changed. */
  unchanged: boolean;
  /** The entry it superseded on approval. */
  superseded?: Entry;
  /** The entry it named to supersede, retired meanwhile (superseded by another, archived, quarantined): left as it is, the link dropped. */
  notReplaced?: Entry;
}

const APPROVABLE: readonly Status[] = ["draft", "candidate", "established", "promoted"];
const REJECTABLE: readonly Status[] = ["draft", "candidate"];
const LIVE_TARGET: readonly Status[] = ["draft", "candidate", "established", "promoted"];

/** Flags a person's approval answers: agents' quarantine requests, and a hive lesson's origin-superseded note (keep it). */
const settledByApproval = (f: string) => f.startsWith(QUARANTINE_REQUEST) || f.startsWith(ORIGIN_SUPERSEDED);

export async function approveEntry(s: Services, ref: string, actor: string, opts: DecisionOptions = {}): Promise<ApprovalResult> {
  assertHuman(actor, "approve a lesson");
  const loc = await locate(s, ref);
  const e = loc.entry;
  await assertSeenIfAsked(e, opts.seen);
  if (!APPROVABLE.includes(e.lifecycle.status)) {
    throw new CairnError("CONFLICT", `${e.handle} is ${e.lifecycle.status}; restore it before approving.`);
  }
  if (e.provenance.approved_at && e.lifecycle.status !== "draft") {
    // Approving again keeps the lesson and dismisses agents' standing quarantine requests, and the
    // note that its origin project superseded it (the review queue lists it until a person decides).
    const requests = e.lifecycle.flags.filter(settledByApproval);
    if (!requests.length) return { entry: e, unchanged: true };
    const entry = await loc.store.updateEntry(
      e.id,
      (x) => {
        x.lifecycle.flags = x.lifecycle.flags.filter((f) => !settledByApproval(f));
        return x;
      },
      { type: "updated", actor, data: { dismissed: requests } },
    );
    return { entry, unchanged: false };
  }
  const at = s.now().toISOString();
  // Time from draft to decision is one of the document's success metrics (median time to approve).
  const waited = Math.max(0, Date.parse(at) - Date.parse(e.created_at));
  let entry = await loc.store.updateEntry(
    e.id,
    (x) => {
      x.provenance.approved_by = actor;
      x.provenance.approved_at = at;
      if (x.lifecycle.status !== "promoted") x.lifecycle.status = "established";
      delete x.lifecycle.status_reason;
      x.lifecycle.flags = x.lifecycle.flags.filter((f) => !f.startsWith(ORIGIN_SUPERSEDED));
      return x;
    },
    { type: "approved", actor, data: { from: e.lifecycle.status, waited_ms: Number.isFinite(waited) ? waited : 0 } },
  );
  let superseded: Entry | undefined;
  let notReplaced: Entry | undefined;
  if (entry.lifecycle.supersedes) {
    const old = await locate(s, entry.lifecycle.supersedes).catch(() => undefined);
    if (old && old.entry.id !== entry.id && LIVE_TARGET.includes(old.entry.lifecycle.status)) {
      const r = await supersedeEntry(s, old.entry.id, entry.id, actor);
      superseded = r.old;
      entry = r.replacement;
    } else if (old?.entry.lifecycle.superseded_by !== entry.id) {
      // Retired meanwhile by someone else's decision (or removed): a link kept would be one-sided — this lesson
      // would claim to replace one whose own record names another replacement, or none.
      if (old && old.entry.id !== entry.id) notReplaced = old.entry;
      entry = await loc.store.updateEntry(
        entry.id,
        (x) => {
          delete x.lifecycle.supersedes;
          return x;
        },
        { type: "updated", actor, data: { supersedes: null, reason: old ? `${old.entry.handle} is ${old.entry.lifecycle.status}` : "no longer exists" } },
      );
    }
  }
  return { entry, unchanged: false, ...(superseded ? { superseded } : {}), ...(notReplaced ? { notReplaced } : {}) };
}

/** One approval in words, for every face: what it replaced, or what it could no longer replace. */
export function describeApproval(r: ApprovalResult): string {
  const gone = r.notReplaced;
  return `approved ${r.entry.handle} (${r.entry.lifecycle.status})${r.superseded ? `, superseding ${r.superseded.handle}` : ""}${
    gone ? `; ${gone.handle} it meant to replace is already ${gone.lifecycle.status}, so it replaces nothing` : ""
  }`;
}

/**
 * Several approvals as one decision: every id is found and checked approvable before any is approved,
 * so a wrong id in a batch leaves every lesson as it was and the error says so — a batch that stopped
 * halfway approved the ids before the bad one and silently skipped those after it.
 */
export async function approveEntries(s: Services, refs: readonly string[], actor: string): Promise<ApprovalResult[]> {
  assertHuman(actor, "approve a lesson");
  const many = refs.length > 1;
  // One lesson named twice (S-12 S-12, or its handle and its id) is approved, and answered, once.
  const ids = new Set<string>();
  for (const ref of refs) {
    const loc = await locate(s, ref).catch((e: unknown) => {
      // Same error (its class tells the faces what more to say), with what became of the batch.
      if (many && e instanceof Error) e.message = `${e.message} Nothing was approved.`;
      throw e;
    });
    if (!APPROVABLE.includes(loc.entry.lifecycle.status)) {
      throw new CairnError("CONFLICT", `${loc.entry.handle} is ${loc.entry.lifecycle.status}; restore it before approving.${many ? " Nothing was approved." : ""}`);
    }
    ids.add(loc.entry.id);
  }
  const out: ApprovalResult[] = [];
  for (const id of ids) out.push(await approveEntry(s, id, actor));
  return out;
}

/** A rejected draft is archived (kept for the record and the approval rate), never deleted. */
export async function rejectEntry(s: Services, ref: string, reason: string | undefined, actor: string, opts: DecisionOptions = {}): Promise<Entry> {
  assertHuman(actor, "reject a lesson");
  const loc = await locate(s, ref);
  const e = loc.entry;
  await assertSeenIfAsked(e, opts.seen);
  if (!REJECTABLE.includes(e.lifecycle.status)) {
    throw new CairnError("CONFLICT", `${e.handle} is ${e.lifecycle.status}; only drafts and candidates are rejected (use \`cairn archive\` to retire it).`);
  }
  const why = (reason ?? "").trim();
  assertFits("reason", why, REJECT_REASON_MAX);
  return loc.store.updateEntry(
    e.id,
    (x) => {
      x.lifecycle.status = "archived";
      x.lifecycle.status_reason = why ? `rejected: ${why}` : "rejected in review";
      return x;
    },
    { type: "archived", actor, data: { from: e.lifecycle.status, review: "rejected", ...(why ? { reason: why } : {}) } },
  );
}
