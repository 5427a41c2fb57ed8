// Status changes a person or agent asks for: quarantine, restore (re-validated), archive, remove, supersede.
import type { Entry, Status } from "../core/entry.js";
import { validateEntryRef } from "../core/ids.js";
import { CairnError, NotFoundError } from "../errors.js";
import { openTiers, type Services } from "../services.js";
import type { Store } from "../store/store.js";

export interface Located {
  entry: Entry;
  store: Store;
}

/** Finds an entry by id, handle or external id in either tier (swarm first). */
export async function locate(s: Services, ref: string): Promise<Located> {
  const safe = validateEntryRef(ref);
  for (const store of openTiers(s)) {
    const entry = await store.getEntry(safe);
    if (entry) return { entry, store };
  }
  throw new NotFoundError(safe);
}

async function setStatus(loc: Located, status: Status, actor: string, type: "quarantined" | "restored" | "archived", reason?: string): Promise<Entry> {
  return loc.store.updateEntry(
    loc.entry.id,
    (e) => {
      e.lifecycle.status = status;
      if (reason) e.lifecycle.status_reason = reason;
      else delete e.lifecycle.status_reason;
      return e;
    },
    { type, actor, data: { from: loc.entry.lifecycle.status, ...(reason ? { reason } : {}) } },
  );
}

export async function quarantineEntry(s: Services, ref: string, reason: string, actor: string): Promise<Entry> {
  const loc = await locate(s, ref);
  if (loc.entry.lifecycle.status === "quarantined") return loc.entry;
  return setStatus(loc, "quarantined", actor, "quarantined", reason || "quarantined without a reason");
}

/** Restoring runs the gates again: a quarantined lesson must not come back in through a side door. */
export async function restoreEntry(s: Services, ref: string, actor: string): Promise<Entry> {
  const loc = await locate(s, ref);
  if (!["quarantined", "archived"].includes(loc.entry.lifecycle.status)) {
    throw new CairnError("CONFLICT", `${loc.entry.handle} is ${loc.entry.lifecycle.status}, not quarantined or archived; nothing to restore.`);
  }
  // The gates load only when something is restored: reads that locate an entry must not pay for them.
  const { validateLessonText } = await import("../quality/gates.js");
  const gate = validateLessonText(loc.entry.lesson, { trusted: !s.config.knowledge.validation_enabled });
  if (!gate.ok) {
    const reason = gate.issues.filter((i) => i.severity === "reject").map((i) => i.message).join("; ");
    throw new CairnError("REJECTED", `Cannot restore ${loc.entry.handle}: it fails validation now (${reason}). Edit or remove it.`, {
      issues: gate.issues,
    });
  }
  const status: Status = loc.entry.provenance.approved_at || loc.entry.lifecycle.confirmations.length >= s.config.knowledge.confirmations_to_establish ? "established" : "candidate";
  return loc.store.updateEntry(
    loc.entry.id,
    (e) => {
      e.lifecycle.status = status;
      e.lifecycle.phases_alive = 0;
      e.lifecycle.revalidated_at = s.now().toISOString();
      delete e.lifecycle.status_reason;
      return e;
    },
    { type: "restored", actor, data: { from: loc.entry.lifecycle.status } },
  );
}

export async function archiveEntry(s: Services, ref: string, reason: string | undefined, actor: string): Promise<Entry> {
  const loc = await locate(s, ref);
  return setStatus(loc, "archived", actor, "archived", reason ?? "archived by request");
}

/** Removal works in both tiers; promoted or approved entries need `force` because others rely on them. */
export async function removeEntry(s: Services, ref: string, opts: { force?: boolean; actor: string; reason?: string }): Promise<Entry> {
  const loc = await locate(s, ref);
  const protectedEntry = loc.entry.lifecycle.status === "promoted" || Boolean(loc.entry.provenance.approved_at);
  if (protectedEntry && !opts.force) {
    throw new CairnError(
      "FORCE_REQUIRED",
      `${loc.entry.handle} is ${loc.entry.provenance.approved_at ? "approved by a person" : "promoted to the hive"}, so removing it must be forced.`,
    );
  }
  await loc.store.deleteEntry(loc.entry.id, { type: "removed", actor: opts.actor, data: { reason: opts.reason, status: loc.entry.lifecycle.status } });
  return loc.entry;
}

/** Marks `oldRef` superseded by `newRef` (same tier); both stay, linked both ways. */
export async function supersedeEntry(s: Services, oldRef: string, newRef: string, actor: string): Promise<{ old: Entry; replacement: Entry }> {
  const oldLoc = await locate(s, oldRef);
  const newLoc = await locate(s, newRef);
  if (oldLoc.entry.id === newLoc.entry.id) throw new CairnError("INVALID_INPUT", "An entry cannot supersede itself.");
  const old = await oldLoc.store.updateEntry(
    oldLoc.entry.id,
    (e) => {
      e.lifecycle.status = "superseded";
      e.lifecycle.superseded_by = newLoc.entry.id;
      return e;
    },
    { type: "superseded", actor, data: { by: newLoc.entry.id } },
  );
  const replacement = await newLoc.store.updateEntry(
    newLoc.entry.id,
    (e) => {
      e.lifecycle.supersedes = oldLoc.entry.id;
      return e;
    },
    { type: "updated", actor, data: { supersedes: oldLoc.entry.id } },
  );
  return { old, replacement };
}
