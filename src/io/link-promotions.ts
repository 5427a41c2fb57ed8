// After an opencode-swarm import: each project lesson it had promoted is linked to its hive copy, when the hive holds that lesson.
import { LIVE_STATUSES } from "../core/enums.js";
import { fingerprintLesson } from "../core/ids.js";
import type { Services } from "../services.js";

/**
 * opencode-swarm marks a promoted lesson "promoted" in knowledge.jsonl and puts its copy, the same text,
 * in shared-learnings.jsonl; neither row names the other. Imported, they were two unlinked lessons (both
 * listed, the original's counts never reaching the copy) until someone promoted the original again. The
 * link is the promotion record a promotion here writes (a `promoted` event naming the hive id), so every
 * reader of promoted_to pairs them. Only originals with no promotion recorded are looked at; whichever of
 * the two files is imported second makes the link. Returns how many were linked.
 */
export async function linkImportedPromotions(s: Services, actor: string): Promise<number> {
  const hive = s.hive;
  if (!hive) return 0;
  const promoted: Array<{ id: string; lesson: string }> = [];
  for await (const e of s.swarm.iterateEntries({ statuses: ["promoted"] })) promoted.push({ id: e.id, lesson: e.lesson });
  if (!promoted.length) return 0;
  const recorded = await s.swarm.promotedTo(promoted.map((e) => e.id));
  let linked = 0;
  for (const e of promoted) {
    if (recorded.has(e.id)) continue;
    const copy = (await hive.findByFingerprint(fingerprintLesson(e.lesson))).find((h) => LIVE_STATUSES.includes(h.lifecycle.status));
    if (!copy) continue;
    await s.swarm.appendEvent(e.id, { type: "promoted", actor, data: { route: "import", hive_id: copy.id } });
    linked++;
  }
  return linked;
}
