// Hive writes made while the team hive is unreachable: queued in the project's database, replayed in order, exactly once in effect.
import type { Entry, NewEntryInput } from "../core/entry.js";
import { newEntryId } from "../core/ids.js";
import { CairnError, isUnavailable, NotFoundError } from "../errors.js";
import { applyVerdict, type Verdict } from "../lifecycle/feedback.js";
import { finishPromotion, type PromotionRoute } from "../lifecycle/promote.js";
// The write path (and its gates) loads only when a hive write happens: reads that import feedback must not pay for it.
import type { WriteResult, WriteSource } from "../lifecycle/write.js";
import type { Services } from "../services.js";
import type { PostgresStore } from "../store/pg/pg-store.js";
import type { OutboxItem, Store, UsageCounter } from "../store/store.js";
import { TeamHiveStore } from "./team-hive.js";

/** A usage count (shown, consulted, prevented…) on hive entries. */
export interface UsageOp {
  ids: string[];
  counter: UsageCounter;
  actor: string;
  data?: Record<string, unknown>;
  at: string;
}

/** A verdict on one hive entry. */
export interface FeedbackOp {
  ref: string;
  verdict: Verdict;
  note?: string;
  actor: string;
  at: string;
}

/** A lesson bound for the hive (a promotion, or an add into the hive): the whole write path runs on replay. */
export interface WriteOp {
  input: NewEntryInput;
  actor: string;
  source: WriteSource;
  /** The id the new hive entry gets: a replay that finds it knows the write already happened. */
  entry_id: string;
  at: string;
  /** For promotions of a project entry: marked promoted once the hive has it. */
  from?: string;
  route?: PromotionRoute;
}

export type HiveOp = { op: "usage"; payload: UsageOp } | { op: "feedback"; payload: FeedbackOp } | { op: "write"; payload: WriteOp };

export interface ReplayReport {
  applied: number;
  /** Parked for a person: the write can never succeed as it is (the entry is gone, the lesson was refused). */
  dead: number;
  /** Still waiting: the hive went away again. */
  pending: number;
}

export function teamHive(s: Services): TeamHiveStore | undefined {
  return s.hive instanceof TeamHiveStore ? s.hive : undefined;
}

/** Queues a hive write in the project's outbox and asks for a replay. */
export async function queueHiveOp(s: Services, op: HiveOp): Promise<string> {
  const id = newEntryId();
  await s.swarm.enqueueOutbox(id, op.op, op.payload, new Date().toISOString());
  teamHive(s)?.kickReplay();
  return id;
}

/**
 * Runs a hive write now; when the team hive is unreachable it is queued instead and `queued`
 * answers. Only a PostgreSQL hive has an outbox: a hive file is local and never unreachable.
 */
export async function orQueue<T>(s: Services, op: () => HiveOp, run: () => Promise<T>, queued: (id: string) => T): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!teamHive(s) || !isUnavailable(e)) throw e;
    return queued(await queueHiveOp(s, op()));
  }
}

/** The result a queued write returns: honest about where the lesson is. */
export function queuedWrite(entryId: string): WriteResult {
  return {
    action: "queued",
    tier: "hive",
    id: entryId,
    reason: "the team hive is unreachable; the lesson waits in this project's outbox and is written when the hive is back (`cairn hive status`)",
    issues: [],
  };
}

/**
 * A lesson into the hive through the one write path; a team hive that cannot be reached gets it
 * through the outbox. The new entry's id is chosen first, so a write that landed just before the
 * connection broke is found on replay instead of being written twice.
 */
export function writeHiveLesson(s: Services, input: NewEntryInput, opts: { actor: string; source: WriteSource; route?: PromotionRoute; from?: string }): Promise<WriteResult> {
  const entryId = newEntryId();
  return orQueue(
    s,
    () => ({ op: "write", payload: { input, actor: opts.actor, source: opts.source, entry_id: entryId, at: s.now().toISOString(), ...(opts.route ? { route: opts.route } : {}), ...(opts.from ? { from: opts.from } : {}) } }),
    async () => {
      const { writeLesson } = await import("../lifecycle/write.js");
      return writeLesson(s, input, {
        tier: "hive",
        actor: opts.actor,
        source: opts.source,
        entryId,
        ...(opts.from ? { promotedFrom: { project_id: s.project.id, entry_id: opts.from } } : {}),
      });
    },
    () => queuedWrite(entryId),
  );
}

function isPermanent(e: unknown): boolean {
  return e instanceof NotFoundError || (e instanceof CairnError && ["INVALID_ID", "INVALID_INPUT", "REJECTED", "FORBIDDEN", "CONFLICT"].includes(e.code));
}

function usageType(counter: UsageCounter): "shown" | "consulted" | "feedback" {
  return counter === "shown" ? "shown" : counter === "consulted" ? "consulted" : "feedback";
}

/**
 * A run of usage items with the same counter, applied by one statement. One effect key per item and
 * entry: a replay cut short counts the rest only, and an entry removed from the hive meanwhile has
 * nothing left to count.
 */
async function applyUsage(remote: PostgresStore, items: readonly OutboxItem[]): Promise<void> {
  const first = items[0]!.payload as UsageOp;
  await remote.recordUsageOnce(
    items.map((item) => {
      const op = item.payload as UsageOp;
      return { keyPrefix: `outbox:${item.id}:`, ids: op.ids, queuedAt: op.at, actor: op.actor, data: { counter: op.counter, ...op.data, queued_at: op.at } };
    }),
    first.counter,
    usageType(first.counter),
  );
}

/** The usage items at the head of `batch` that share the first one's counter (empty when the first is no usage item). */
function usageRun(batch: readonly OutboxItem[]): OutboxItem[] {
  const counter = batch[0]?.op === "usage" ? (batch[0].payload as UsageOp).counter : undefined;
  if (!counter) return [];
  const run: OutboxItem[] = [];
  for (const item of batch) {
    if (item.op !== "usage" || (item.payload as UsageOp).counter !== counter) break;
    run.push(item);
  }
  return run;
}

async function applyFeedback(s: Services, remote: Store, item: OutboxItem, op: FeedbackOp): Promise<void> {
  await remote.updateEntryOnce(
    `outbox:${item.id}`,
    op.ref,
    (e: Entry) => applyVerdict(e, op.verdict, new Date(op.at), s.config.knowledge.feedback_half_life_days, 1, s.now()),
    { type: op.verdict === "applied" ? "applied" : "feedback", actor: op.actor, data: { verdict: op.verdict, ...(op.note ? { note: op.note } : {}), queued_at: op.at } },
  );
}

async function applyWrite(s: Services, remote: Store, op: WriteOp): Promise<void> {
  let result: WriteResult;
  const done = await remote.getEntry(op.entry_id);
  if (done) {
    result = { action: "added", tier: "hive", id: done.id, handle: done.handle, status: done.lifecycle.status, issues: [] };
  } else {
    // The clock of the original call: a repeated sighting on replay is then the same confirmation, not a new one.
    const at = new Date(op.at);
    const direct: Services = { ...s, hive: remote, now: () => at };
    const { writeLesson } = await import("../lifecycle/write.js");
    result = await writeLesson(direct, op.input, { tier: "hive", actor: op.actor, source: op.source, entryId: op.entry_id, ...(op.from ? { promotedFrom: { project_id: s.project.id, entry_id: op.from } } : {}) });
  }
  if (result.action === "rejected") throw new CairnError("REJECTED", `the hive refused the queued lesson: ${result.reason ?? ""}`);
  if (op.from && result.id) await finishPromotion(s, op.from, result.id, op.route ?? "manual", op.actor);
}

/**
 * Replays the outbox oldest first. An outage stops the replay (order is kept: nothing jumps the
 * queue); a write that can never succeed is parked as dead for `cairn hive status`. Each kind of
 * write carries what makes a second replay a no-op (effect keys, the new entry's id), so an item
 * applied just before a crash, and replayed again, changes nothing.
 */
export async function replayOutbox(s: Services, remote: PostgresStore, max = 1000): Promise<ReplayReport> {
  const report: ReplayReport = { applied: 0, dead: 0, pending: 0 };
  while (report.applied + report.dead < max) {
    const batch = await s.swarm.listOutbox("pending", 50);
    if (batch.length === 0) break;
    // Usage counts queued turn after turn go together: one statement and one local commit for the run.
    const run = usageRun(batch);
    if (run.length > 1 && (await replayUsageRun(s, remote, run))) {
      report.applied += run.length;
      continue;
    }
    for (const item of batch) {
      try {
        if (item.op === "usage") await applyUsage(remote, [item]);
        else if (item.op === "feedback") await applyFeedback(s, remote, item, item.payload as FeedbackOp);
        else if (item.op === "write") await applyWrite(s, remote, item.payload as WriteOp);
        else throw new CairnError("INVALID_INPUT", `unknown outbox operation "${item.op}"`);
        await s.swarm.completeOutbox(item.id);
        report.applied++;
      } catch (e) {
        const message = (e as Error).message ?? String(e);
        if (isPermanent(e)) {
          await s.swarm.failOutbox(item.id, message, true);
          report.dead++;
          continue;
        }
        await s.swarm.failOutbox(item.id, message, false);
        report.pending = (await s.swarm.outboxCounts()).pending;
        throw e;
      }
    }
  }
  report.pending = (await s.swarm.outboxCounts()).pending;
  return report;
}

/**
 * A run of usage items in one statement. False when the hive refused it for good: the caller then
 * replays the items one at a time, so only a bad item is parked. An outage is thrown as for one item.
 */
async function replayUsageRun(s: Services, remote: PostgresStore, run: readonly OutboxItem[]): Promise<boolean> {
  try {
    await applyUsage(remote, run);
  } catch (e) {
    if (isPermanent(e) || !isUnavailable(e)) return false;
    await s.swarm.failOutbox(run[0]!.id, (e as Error).message ?? String(e), false);
    throw e;
  }
  await s.swarm.writeBatch(async () => {
    for (const item of run) await s.swarm.completeOutbox(item.id);
  });
  return true;
}
