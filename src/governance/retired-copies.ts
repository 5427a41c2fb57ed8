// Promoted originals whose hive lesson another project retired (quarantined, superseded, archived): they no longer advise here.
import { answerWithin } from "../core/answer-within.js";
import type { Entry, Status } from "../core/entry.js";
import { archivedForLackOfUse } from "../lifecycle/unused-archive.js";
import type { Services } from "../services.js";

const RETIRED: readonly Status[] = ["quarantined", "superseded", "archived"];

/**
 * Of promoted originals (original id → the hive lesson its last promotion went up as), those whose hive
 * lesson is retired. Retiring it from the promoting project retires the original too (lifecycle/status.ts);
 * from another project this project's database is out of reach, so the original stays `promoted` here,
 * and left alone it would go on advising the very text a person replaced or hid from every agent. It is
 * left out instead, as recall leaves it out (retrieval/recall.ts). A lesson the sweep archived for lack of
 * use is no verdict on it. One indexed read of the hive by id, only when such originals matched (a live copy
 * normally stands for its original); a hive that cannot answer in a search's wait hides nothing.
 */
export async function originalsOfRetiredCopies(s: Services, promotedTo: ReadonlyMap<string, string>): Promise<Set<string>> {
  const hidden = new Set<string>();
  const hive = s.hive;
  if (!hive || promotedTo.size === 0) return hidden;
  const ids = [...new Set(promotedTo.values())];
  const ask = hive.listEntries({ ids, statuses: RETIRED }, { limit: ids.length });
  let retired: Entry[] | undefined;
  try {
    retired = hive.networked ? (await answerWithin(ask, s.config.hive_postgres.read_timeout_ms))?.value : await ask;
  } catch {
    return hidden;
  }
  const gone = new Set((retired ?? []).filter((h) => !archivedForLackOfUse(h)).map((h) => h.id));
  for (const [original, hiveId] of promotedTo) if (gone.has(hiveId)) hidden.add(original);
  return hidden;
}
