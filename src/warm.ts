// Priming a long-running process (MCP server, OpenCode plugin) after open, so its first real call costs what later ones do.
import { EntrySchema } from "./core/entry.js";
import { newEntryId } from "./core/ids.js";
import { gateInput } from "./lifecycle/write.js";
import { findNeighbours } from "./lifecycle/upsert.js";
import { compareLessons } from "./quality/similarity.js";
import { injectForContext } from "./retrieval/inject.js";
import { recallForContext } from "./retrieval/recall.js";
import { openTiers, type Services } from "./services.js";

/**
 * Lessons of the shapes agents write (paths, identifiers, commands, numbers): the gates' many
 * regular expressions are compiled and optimised by V8 only as inputs reach them, so one text
 * warms only part of them (measured: a first gate ~30 ms, a second ~7 ms, then ~0.4 ms).
 */
const SAMPLES = [
  "Run `npx prisma migrate deploy` before starting the API container, otherwise src/db/client.ts fails on the first query.",
  "Vitest workers must not share one SQLite file: set poolOptions.threads.singleThread when tests write to .swarm/cairn.db.",
  "Keep the Redis timeout at 2000 ms in config/cache.yaml because the retry loop in lib/cache/retry.go doubles it.",
  "Never call fetchUser() from the auth request path; cache the session token (see https://example.com/docs/auth) instead.",
];

const CONTEXT = {
  phase: "Phase 1: implement the auth token refresh",
  task: "Fix the token refresh in src/auth/token.ts so the session no longer expires mid-request",
  files: ["src/auth/token.ts", "test/auth/token.test.ts"],
  lastMessage: "the login flow still fails after an hour",
};

/**
 * Read-only: the write path's gates and neighbour search, and a whole injection that is not
 * counted as shown. What it primes: module loading, statement preparation, the FTS5 vocabulary
 * table and term statistics of each tier, the built-in word vectors dedup uses, and the JIT for the
 * gates and scoring.
 */
export async function warmServices(s: Services): Promise<void> {
  for (let round = 0; round < 3; round++) {
    for (const lesson of SAMPLES) gateInput(s, { lesson, category: "debugging", kind: "learning" }, "swarm");
  }
  // zod compiles a schema's fast path on its first parse; every new entry is parsed once.
  const at = s.now().toISOString();
  for (const lesson of SAMPLES) EntrySchema.parse({ id: newEntryId(), handle: "", tier: "swarm", lesson, category: "debugging", kind: "learning", created_at: at, updated_at: at });
  // Dedup weighs meaning when the words fall short: that loads the built-in word vectors (~30 ms), once.
  compareLessons(SAMPLES[0]!, SAMPLES[1]!, s.config.knowledge.dedup_threshold);
  for (const store of openTiers(s)) {
    await store.warm?.();
    // The rest of an add's reads: the rejected-lesson check and the cap's O(1) count.
    await store.isRejected(SAMPLES[0]!);
    await store.totalEntries();
    for (const lesson of SAMPLES) await findNeighbours(store, lesson, s.config.knowledge.dedup_threshold);
  }
  // Injections (a whole context) and recalls (a task alone) take different paths through retrieval.
  for (const lesson of SAMPLES) {
    await injectForContext(s, { ...CONTEXT, task: `${CONTEXT.task} ${lesson}` }, { recordShown: false });
    await recallForContext(s, { task: lesson.split(/\s+/).slice(0, 6).join(" ") }, { limit: 10 });
  }
}
