// Promotion swarm → hive: by hand (text or swarm id) and by the three automatic routes, through one hive gate.
import type { Entry, NewEntryInput } from "../core/entry.js";
import { entryToInput } from "../core/entry-input.js";
import { CairnError } from "../errors.js";
import type { Services } from "../services.js";
import { distinctConfirmations } from "./confirm.js";
import { hasNegativeFeedback } from "./feedback.js";
import { hiveCopyOf, locate } from "./status.js";
import { writeHiveLesson } from "../hive/outbox.js";
import type { WriteResult } from "./write.js";

export type PromotionRoute = "manual" | "explicit" | "fast-track" | "age";

export interface PromotionResult extends WriteResult {
  route: PromotionRoute;
  from?: string;
}

const DAY_MS = 86_400_000;
export const FAST_TRACK_TAG = "hive-fast-track";

/** Which automatic route (if any) makes a swarm entry due for the hive. */
export function promotionRoute(e: Entry, s: Services): PromotionRoute | undefined {
  if (!["candidate", "established"].includes(e.lifecycle.status)) return undefined;
  if (e.tags.includes(FAST_TRACK_TAG)) return "fast-track";
  if (e.lifecycle.hive_eligible && distinctConfirmations(e) >= s.config.knowledge.confirmations_to_establish) return "explicit";
  const ageDays = (s.now().getTime() - Date.parse(e.created_at)) / DAY_MS;
  const negative = hasNegativeFeedback(e, s.now(), s.config.knowledge.feedback_half_life_days);
  if (ageDays >= s.config.knowledge.auto_promote_days && !negative) return "age";
  return undefined;
}

/**
 * What a swarm entry becomes in the hive: its content and where it came from (the issue and the session, the
 * traceability a team reviewing the hive reads), not its local lifecycle or ids (a phase TTL is a project's,
 * the hive does not age by phases; an external id is a lookup key that may repeat across projects).
 */
function inputFromEntry(e: Entry): NewEntryInput {
  const { status: _status, created_at: _at, external_id: _ext, hive_eligible: _eligible, supersedes: _sup, max_phases: _ttl, ...content } =
    entryToInput(e);
  return { ...content, tags: (content.tags ?? []).filter((t) => t !== FAST_TRACK_TAG) };
}

/** Hive writes go through the one write path, which applies the hive gate (full validation, no placeholder text). */
async function writeToHive(s: Services, input: NewEntryInput, actor: string, route: PromotionRoute, from?: Entry): Promise<WriteResult> {
  if (!s.hive && s.faults?.hive) throw s.faults.hive;
  if (!s.hive) throw new CairnError("INVALID_INPUT", "The hive is disabled (knowledge.hive_enabled = false); nothing to promote into.");
  return writeHiveLesson(s, input, { actor, source: "promote", route, ...(from ? { from: from.id } : {}) });
}

/** Once the hive holds the lesson, the project entry is marked promoted (a removed or already promoted one is left alone). */
export async function finishPromotion(s: Services, swarmId: string, hiveId: string, route: PromotionRoute, actor: string): Promise<void> {
  const e = await s.swarm.getEntry(swarmId);
  if (!e || e.lifecycle.status === "promoted") return;
  await markPromoted(s, e, hiveId, route, actor);
}

async function markPromoted(s: Services, e: Entry, hiveId: string, route: PromotionRoute, actor: string): Promise<void> {
  await s.swarm.updateEntry(
    e.id,
    (x) => {
      x.lifecycle.status = "promoted";
      x.lifecycle.status_reason = `promoted to hive (${route}) as ${hiveId}`;
      return x;
    },
    { type: "promoted", actor, data: { route, hive_id: hiveId } },
  );
}

export async function promoteEntry(s: Services, ref: string, actor: string, route: PromotionRoute = "manual"): Promise<PromotionResult> {
  const loc = await locate(s, ref);
  if (loc.store.tier !== "swarm") throw new CairnError("CONFLICT", `${loc.entry.handle} is already in the hive.`);
  const status = loc.entry.lifecycle.status;
  if (status === "promoted") {
    // Promoted once; if a person has since removed the hive copy, the lesson may go up again. One that came
    // promoted from another system's file (opencode-swarm's knowledge.jsonl) has no copy recorded here:
    // it goes up, so the hive holds it (or its imported copy is reinforced) and the link is recorded.
    const recorded = (await s.swarm.promotedTo([loc.entry.id])).has(loc.entry.id);
    const copy = recorded ? await hiveCopyOf(s, loc.entry) : null;
    if (copy !== null) throw new CairnError("CONFLICT", `${loc.entry.handle} is already in the hive${copy ? ` as ${copy.handle}` : ""}; there is nothing more to promote.`);
  } else if (!["candidate", "established", "draft"].includes(status)) {
    throw new CairnError("CONFLICT", `${loc.entry.handle} is ${status}; restore it first (only candidate, established or draft lessons are promoted).`);
  }
  const result = await writeToHive(s, inputFromEntry(loc.entry), actor, route, loc.entry);
  if ((result.action === "added" || result.action === "reinforced") && result.id) await markPromoted(s, loc.entry, result.id, route, actor);
  return { ...result, route, from: loc.entry.id };
}

export async function promoteText(s: Services, input: NewEntryInput, actor: string): Promise<PromotionResult> {
  return { ...(await writeToHive(s, input, actor, "manual")), route: "manual" };
}

/** Runs at phase completion: every live swarm entry due by a route goes up through the hive gate. */
export async function promoteDueEntries(s: Services, actor = "cairn:promoter"): Promise<PromotionResult[]> {
  if (!s.hive) return [];
  const due: Array<{ e: Entry; route: PromotionRoute }> = [];
  for await (const e of s.swarm.iterateEntries({ statuses: ["candidate", "established"] })) {
    const route = promotionRoute(e, s);
    if (route) due.push({ e, route });
  }
  const results: PromotionResult[] = [];
  for (const { e, route } of due) results.push(await promoteEntry(s, e.id, actor, route));
  return results;
}
