// Feedback on a lesson from an agent or person: applied, ignored, violated, helpful, harmful.
import type { Entry } from "../core/entry.js";
import type { Services } from "../services.js";
import { locate } from "./status.js";

export const VERDICTS = ["applied", "ignored", "violated", "helpful", "harmful"] as const;
export type Verdict = (typeof VERDICTS)[number];

export async function recordFeedback(s: Services, ref: string, verdict: Verdict, actor: string, note?: string): Promise<Entry> {
  const loc = await locate(s, ref);
  const at = s.now().toISOString();
  return loc.store.updateEntry(
    loc.entry.id,
    (e) => {
      e.usage[verdict] += 1;
      e.usage.last_feedback_at = at;
      return e;
    },
    { type: verdict === "applied" ? "applied" : "feedback", actor, data: { verdict, ...(note ? { note: note.slice(0, 500) } : {}) } },
  );
}
