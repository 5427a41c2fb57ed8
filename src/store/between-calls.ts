// Calls in flight in this process, so upkeep that would stall one (the idle WAL checkpoint, the usage replay) waits for a moment between calls.

/*
 * A call that waits on the network (the team hive) leaves the event loop free, and a due timer then runs
 * inside it: the project database's idle checkpoint (a WAL restart with its syncs, 10–20 ms) landed in
 * the PostgreSQL bench's three slowest injections, its whole p99. Hot calls are marked here, and such
 * upkeep runs as soon as the last of them has answered. Tasks handle their own errors, as timers do.
 */
let inFlight = 0;
let waiting: Array<{ task: () => void; since: number }> = [];
let scheduled = false;

/** Upkeep deferred longer than this runs when a call ends even if others are still in flight (calls that overlap without a gap). */
export const MAX_DEFER_MS = 5000;

function overdue(since: number): boolean {
  return Date.now() - since > MAX_DEFER_MS;
}

/** The waiting tasks that may run now, on the next turn of the event loop: after the answer that freed them is on its way. */
function runSoon(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    const due = waiting;
    waiting = [];
    for (const w of due) {
      if (inFlight === 0 || overdue(w.since)) w.task();
      else waiting.push(w);
    }
  });
}

/** Runs a call (an injection, a recall, an advisory check) as one that upkeep must not interrupt. */
export async function asCall<T>(fn: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await fn();
  } finally {
    inFlight--;
    const first = waiting[0];
    if (first && (inFlight === 0 || overdue(first.since))) runSoon();
  }
}

/** Calls in flight now (tests read it). */
export function callsInFlight(): number {
  return inFlight;
}

/** Runs `task` now when no call is in flight, else as soon as the last one has answered. */
export function betweenCalls(task: () => void): void {
  if (inFlight === 0) task();
  else waiting.push({ task, since: Date.now() });
}
