// The reflection queue: outcomes are enqueued durably and processed in the background, exactly once in effect.
import { createHash } from "node:crypto";
import type { Entry, EntryEvent } from "../core/entry.js";
import { applyVerdict, decayedFeedback, feedbackTarget, roundSum, verdictShares } from "../lifecycle/feedback.js";
import { writeLesson, type UpsertArbiter } from "../lifecycle/write.js";
import { openTiers, type Services } from "../services.js";
import type { QueuedOutcome, Store } from "../store/store.js";
import { extractLessons } from "./extract.js";
import { implicitScore, OutcomeSchema, type Outcome, type OutcomeInput } from "./outcome.js";
import { CairnError, isUnavailable } from "../errors.js";
import { plainIssue } from "../core/validation-error.js";
import { evaluatePreventions } from "../governance/prevention.js";
import { projectPaths } from "../governance/rules.js";

export interface ReflectOptions {
  maxItems?: number;
  /** How long a claimed item stays leased before another processor may take it over. */
  leaseMs?: number;
  maxAttempts?: number;
  arbiter?: UpsertArbiter;
  actor?: string;
}

export interface ReflectReport {
  processed: number;
  failed: number;
  dead: number;
  lessons_added: number;
  entries_scored: number;
}

/**
 * A report without an id repeating one counted less than this long ago — same task, same result, same
 * reporter, session and agent — is the same report sent again (a re-sent tool call, a retried
 * request): before, each copy laid the task's verdict on its lessons once more. The same task run
 * again later, or by another session, or with another result, counts on its own.
 */
export const REPEAT_REPORT_WINDOW_MS = 60 * 60_000;

/** What makes two reports without ids one: who sent it, from where, for which task (case and spacing aside), with which result. */
function reportKey(o: Outcome): string {
  const task = o.task.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
  const who = [o.session_id ?? "", o.reported_by ?? "", o.agent ?? "", task, o.success ? "ok" : "failed"];
  return createHash("sha256").update(JSON.stringify(who)).digest("hex").slice(0, 24);
}

/**
 * The id of a report that names none: its key and the window it falls in. A repeat lands on the same
 * id (enqueue is idempotent by id), or on the previous window's when that one was counted less than a
 * window ago — so a repeat minutes apart across a window's edge is still one report.
 */
async function reportId(s: Services, o: Outcome, now: Date): Promise<string> {
  const key = reportKey(o);
  const window = Math.floor(now.getTime() / REPEAT_REPORT_WINDOW_MS);
  const previous = `o-${key}-${window - 1}`;
  const at = await s.swarm.outcomeEnqueuedAt(previous);
  if (at !== undefined && now.getTime() - Date.parse(at) < REPEAT_REPORT_WINDOW_MS) return previous;
  return `o-${key}-${window}`;
}

export async function enqueueOutcome(s: Services, raw: OutcomeInput): Promise<{ id: string; queued: boolean }> {
  const parsed = OutcomeSchema.safeParse(raw);
  if (!parsed.success) {
    // In the words every other refusal uses ("duration_ms is too large (at most 604800000)"), not zod's.
    throw new CairnError("INVALID_INPUT", `Invalid outcome: ${parsed.error.issues.map(plainIssue).join("; ")}.`);
  }
  const now = s.now();
  const id = parsed.data.id ?? (await reportId(s, parsed.data, now));
  const queued = await s.swarm.enqueueOutcome(id, { ...parsed.data, id, recorded_at: new Date().toISOString() }, now.toISOString());
  return { id, queued };
}

/**
 * Entries the task saw: the ones named, else those shown (in either tier) during its duration, and
 * those an advisory check warned it with (seed 004's pre-action checks: `consulted`), bounded
 * look-back. Event times are wall-clock, so the window uses the wall-clock enqueue time.
 */
async function shownEntries(s: Services, o: Outcome & { recorded_at?: string }, enqueuedAt: string): Promise<string[]> {
  if (o.shown_entry_ids) return o.shown_entry_ids;
  const end = o.recorded_at ?? enqueuedAt;
  const since = new Date(Date.parse(end) - (o.duration_ms ?? 30 * 60_000)).toISOString();
  const ids = new Set<string>();
  for (const store of openTiers(s)) {
    for (const type of ["shown", "consulted"] as const) {
      // The hive is shared by projects (and a team): only what this project was shown or warned with is this task's.
      for (const e of await store.listEventsByType(type, since, 1000)) {
        const shownTo = e.data.project_id;
        if (e.at <= end && (typeof shownTo !== "string" || shownTo === s.project.id) && mayBeFor(e, o)) ids.add(e.entry_id);
      }
    }
  }
  return [...ids].slice(0, 200);
}

/** Who an actor is, for telling agents apart: agent:<name> and mcp:<client>; a person, the system or none tell nothing. */
function identity(actor: string | undefined): string | undefined {
  return actor && (actor.startsWith("agent:") || actor.startsWith("mcp:")) ? actor : undefined;
}

/** Who a `shown` event was for: its actor (agent:<name> as OpenCode injects, mcp:<client>) and its context's agent. */
function shownTo(e: EntryEvent): string[] {
  const who = [identity(e.actor)];
  if (typeof e.data.agent === "string" && e.data.agent) who.push(`agent:${e.data.agent}`);
  return who.filter((w): w is string => Boolean(w));
}

/** Who an outcome is for: the actor that reported it and the agent it names. */
function reportedBy(o: Outcome): string[] {
  const who = [identity(o.reported_by)];
  if (o.agent) who.push(o.agent.startsWith("agent:") ? o.agent : `agent:${o.agent}`);
  return who.filter((w): w is string => Boolean(w));
}

/**
 * Agents (and MCP clients) of one project work at once: an outcome that says whose it is takes only
 * what was shown to that session, else to that agent. When either side names nothing to compare (an
 * outcome without agent or reporter, an older event, an inject no agent asked for) it cannot be told
 * apart, and counts as before.
 */
function mayBeFor(e: EntryEvent, o: Outcome): boolean {
  // An injection records its session as `session`, an advisory consultation as `session_id`.
  const session = e.data.session ?? e.data.session_id;
  if (o.session_id && typeof session === "string") return session === o.session_id;
  const outcome = reportedBy(o);
  const event = shownTo(e);
  return outcome.length === 0 || event.length === 0 || event.some((w) => outcome.includes(w));
}

/** The lessons a task saw, each in the first tier that holds it (a promoted original: its hive copy, once). */
async function locateShown(s: Services, refs: readonly string[]): Promise<Array<{ store: Store; entry: Entry }>> {
  const found = new Map<string, { store: Store; entry: Entry }>();
  for (const ref of refs) {
    for (const store of openTiers(s)) {
      const entry = await store.getEntry(ref).catch(() => undefined);
      if (!entry) continue;
      const target = await feedbackTarget(s, { store, entry });
      if (!found.has(target.entry.id)) found.set(target.entry.id, target);
      break;
    }
  }
  return [...found.values()];
}

/** The queued item being processed: its id, when it was queued, and the shares an earlier attempt saved. */
type ClaimedOutcome = Pick<QueuedOutcome, "id" | "shares" | "enqueued_at">;

/**
 * Each shown lesson's share of the verdict (verdictShares), decided once and saved with the item
 * before any is applied: a run that resumes after a crash, when some lessons already carry this
 * outcome's verdict and so weigh differently, applies the shares the first run decided.
 */
async function sharesOf(s: Services, item: ClaimedOutcome, verdict: "helpful" | "harmful", shown: ReadonlyArray<{ entry: Entry }>): Promise<Record<string, number>> {
  if (item.shares) return item.shares;
  const halfLife = s.config.knowledge.feedback_half_life_days;
  const split = verdictShares(shown.map(({ entry }) => decayedFeedback(entry, s.now(), halfLife).weight), verdict);
  // To the thousandth the sums keep (roundSum): the share an event records is then the share the sums took.
  const shares = Object.fromEntries(shown.map(({ entry }, i) => [entry.id, roundSum(split[i]!)]));
  await s.swarm.saveOutcomeShares(item.id, shares);
  return shares;
}

async function processOne(
  s: Services, reported: Outcome & { recorded_at?: string }, item: ClaimedOutcome, opts: ReflectOptions,
): Promise<{ added: number; scored: number; prevented: number }> {
  // Agents pass the absolute paths their tools use: globs, entities and preventions read paths as the
  // project's, relative to its root (an absolute glob never matched the files injection and advisories see).
  const o = { ...reported, files_touched: projectPaths(s.project.dir, reported.files_touched, 500) };
  const actor = opts.actor ?? "cairn:reflect";
  const score = implicitScore(o);
  let scored = 0;
  if (score.verdict !== "neutral") {
    const verdict = score.verdict;
    const shown = await locateShown(s, await shownEntries(s, o, item.enqueued_at));
    const shares = shown.length ? await sharesOf(s, item, verdict, shown) : {};
    for (const { store, entry } of shown) {
      // A lesson the saved shares do not name was not found the first time: it takes a whole verdict, as before.
      const share = shares[entry.id] ?? 1;
      // The effect key makes a re-run after a crash a no-op for this entry, and so does another outcome of the same task.
      const done = await store.updateEntryOnce(
        `${o.task_id ? `task:${o.task_id}` : `outcome:${o.id}`}:feedback:${entry.id}`,
        entry.id,
        (e: Entry) => applyVerdict(e, verdict, s.now(), s.config.knowledge.feedback_half_life_days, share),
        { type: "feedback", actor, data: { verdict, implicit: true, outcome: o.id, score: score.score, share } },
      );
      if (done) scored++;
    }
  }
  let added = 0;
  for (const input of extractLessons(o)) {
    // Phase "outcome:<id>" makes a second pass a reinforcement that adds nothing (a NOOP).
    const r = await writeLesson(s, { ...input, phase: input.phase ?? `outcome:${o.id}` }, {
      tier: "swarm",
      actor: `agent:${o.agent ?? "reflect"}`.slice(0, 120),
      source: "curate",
      ...(opts.arbiter ? { arbiter: opts.arbiter } : {}),
    });
    if (r.action === "added") added++;
  }
  // Governance impact: advisories whose pattern is gone from the files this successful task touched.
  const prevented = o.id ? await evaluatePreventions(s, o, o.id, o.recorded_at ?? item.enqueued_at) : 0;
  return { added, scored, prevented };
}

/** Drains up to `maxItems` outcomes. Failures retry; after `maxAttempts` an item is dead-lettered with its error. */
export async function processReflectionQueue(s: Services, opts: ReflectOptions = {}): Promise<ReflectReport> {
  const report: ReflectReport = { processed: 0, failed: 0, dead: 0, lessons_added: 0, entries_scored: 0 };
  const max = opts.maxItems ?? 100;
  const leaseMs = opts.leaseMs ?? 60_000;
  for (let i = 0; i < max; i++) {
    // One turn of the event loop between items: a drain runs inside the agent's host (the OpenCode
    // plugin, the MCP server) and SQLite answers synchronously, so without it a backlog held every
    // hook and tool call (the agent's next turn) until its last item was done (tens of ms an item: gates, dedup, writes).
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const now = s.now();
    const item = await s.swarm.claimNextOutcome(now.toISOString(), new Date(now.getTime() + leaseMs).toISOString());
    if (!item) break;
    try {
      const o = OutcomeSchema.parse(item.payload);
      const recorded = (item.payload as { recorded_at?: unknown }).recorded_at;
      const r = await processOne(s, { ...o, id: item.id, ...(typeof recorded === "string" ? { recorded_at: recorded } : {}) }, item, opts);
      await s.swarm.completeOutcome(item.id, r, s.now().toISOString());
      report.processed++;
      report.lessons_added += r.added;
      report.entries_scored += r.scored;
    } catch (e) {
      // Exponential backoff so a passing error does not burn every attempt within one drain.
      const retryAt = new Date(s.now().getTime() + Math.min(3_600_000, 1000 * 2 ** item.attempts)).toISOString();
      // A team hive that is down is not the outcome's fault: it waits for the hive instead of dying.
      const maxAttempts = isUnavailable(e) ? Number.MAX_SAFE_INTEGER : (opts.maxAttempts ?? 5);
      const status = await s.swarm.failOutcome(item.id, (e as Error).message ?? String(e), maxAttempts, retryAt);
      if (status === "dead") report.dead++;
      else report.failed++;
    }
  }
  return report;
}
