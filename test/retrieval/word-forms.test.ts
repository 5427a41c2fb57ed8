// Words that queries and lessons write in different forms: irregular plurals ("indices" and "index") and phrasal verbs beside their joined nouns ("set up" and "setup").
import { test } from "node:test";
import assert from "node:assert/strict";
import { IRREGULAR_PLURALS } from "../../src/core/irregular-plurals.js";
import { stemToken } from "../../src/store/fts-tokens.js";
import { numberForms } from "../../src/retrieval/query-variants.js";
import { insertRaw, makeSandbox, withWorld, type RawEntry } from "./helpers.js";

/** Lessons on other subjects, so a query that matches nothing finds nothing and one that matches everything ranks nothing. */
const BACKGROUND: string[] = [
  "Django views must not open a second database connection inside a request; reuse the request's cursor.",
  "Python virtualenvs must be activated in the Makefile targets before running manage.py.",
  "React components should not fetch in render; load data in the route loader.",
  "Postgres connection pool size must match the worker count in the deploy config.",
  "Webpack dev server proxies /api to the backend on port 8000 in development.",
  "Retry failed payment webhooks with exponential backoff and a dead-letter queue.",
  "The user id is a uuid, never an integer; parse it at the edge of the API.",
  "Error handling middleware must answer JSON with a stable error code, never the raw exception.",
];

interface Case {
  /** The lesson the query is about. */
  lesson: string;
  query: string;
  /** It must rank this high (1: first). */
  within: number;
}

/** Every case's lesson, and `crowd`, in one store: each query must rank its own lesson within its bound, and inject it. */
async function assertEachFound(cases: readonly Case[], crowd: readonly string[] = []): Promise<void> {
  const sb = makeSandbox();
  await insertRaw(sb, [...BACKGROUND, ...crowd, ...cases.map((c) => c.lesson)].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      const missed: string[] = [];
      for (const c of cases) {
        const hits = await cairn.recall({ task: c.query }, { limit: 10 });
        const at = hits.findIndex((h) => h.entry.lesson === c.lesson);
        if (at < 0 || at >= c.within) {
          missed.push(`"${c.query}" ranked "${c.lesson.slice(0, 40)}" ${at < 0 ? "nowhere" : at + 1} (wanted top ${c.within}); first: ${hits[0]?.entry.lesson.slice(0, 40) ?? "none"}`);
          continue;
        }
        const block = await cairn.inject({ task: c.query }, { recordShown: false });
        if (!block.entries.some((e) => e.id === hits[at]!.entry.id)) missed.push(`"${c.query}": "${c.lesson.slice(0, 40)}" not injected`);
      }
      assert.deepEqual(missed, []);
    },
    {},
    sb,
  );
}

test("an irregular plural finds the lesson that writes the singular, and the singular the plural: 'indices' finds 'index', 'mice' finds 'mouse'", async () => {
  await assertEachFound([
    // Plural asked, singular written.
    { lesson: "Rebuild the search index after a bulk import; the old one misses the new rows.", query: "indices", within: 1 },
    { lesson: "Kill the child process group on exit, or the port stays bound.", query: "children", within: 1 },
    { lesson: "Mouse wheel events fire hundreds of times a second; throttle the handler.", query: "mice", within: 1 },
    { lesson: "Vertex normals must be recomputed after the mesh is scaled unevenly.", query: "vertices", within: 1 },
    { lesson: "The analysis job times out on repositories with long histories.", query: "analyses", within: 1 },
    { lesson: "Each acceptance criterion needs its own test case.", query: "criteria", within: 1 },
    { lesson: "The warehouse schema is versioned with the dbt project.", query: "schemata", within: 1 },
    { lesson: "A shell alias is not expanded in non-interactive scripts.", query: "aliases", within: 1 },
    // Singular asked, plural written.
    { lesson: "Matrices larger than the cache are multiplied in tiles.", query: "matrix", within: 1 },
    { lesson: "Order statuses must be checked against the state machine before an update.", query: "status", within: 1 },
    { lesson: "Running many hypotheses at once inflates false positives; correct the p-values.", query: "hypothesis", within: 1 },
    { lesson: "Sensor data older than a week moves to cold storage.", query: "datum", within: 2 },
  ]);
});

test("the table of irregular plurals holds only pairs the index stems apart, and adds no form that would bring in another word", async () => {
  for (const { singular, plurals } of IRREGULAR_PLURALS) {
    for (const plural of plurals) assert.notEqual(stemToken(singular), stemToken(plural), `${singular}:${plural} is stemmed alike: it needs no entry`);
  }
  assert.deepEqual(numberForms("Indices"), ["index"]);
  assert.deepEqual(numberForms("the schemas"), ["schemata"], "a regular plural brings in the irregular one");
  // "data" is a word of its own; "indices" is stored as "indic", the stem of "indicate"; "personal" is not "person".
  for (const text of ["data", "index", "indexes", "personal", "vertical", "leave"]) assert.deepEqual(numberForms(text), [], text);
  const sb = makeSandbox();
  await insertRaw(sb, [...BACKGROUND, "The red badge indicates a failed build.", "Vertical scrolling must stay smooth on long lists."].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      for (const task of ["index", "vertex"]) assert.deepEqual((await cairn.recall({ task }, { limit: 10 })).map((h) => h.entry.lesson), [], task);
    },
    {},
    sb,
  );
});

/** Eleven short lessons that hold `topic`: a query naming it finds more than the answer holds, so no fallback search runs. */
function crowdOf(topic: string): string[] {
  const what = ["alarm", "dashboard", "quota", "owner", "label", "budget", "region", "runbook", "ticket", "graph", "pager"];
  return what.map((w, i) => `The ${topic} ${w} ${i + 1} is documented in the wiki.`);
}

test("a phrasal verb finds the lesson that writes it joined, and the joined noun the verb: 'set up' and 'setup', 'log in' and 'login', 'shut down' and 'shutdown'", async () => {
  const topics = ["replica", "mirror", "registry", "dashboard", "form", "release", "migration", "schema", "volume", "scratch", "worker", "gateway"];
  await assertEachFound(
    [
      // Joined asked, apart written.
      { lesson: "Set up the replica from a fresh base snapshot, never from a copy of a live directory.", query: "replica setup", within: 1 },
      { lesson: "Log in to the registry with a short-lived token in CI.", query: "registry login", within: 1 },
      { lesson: "Check out the tag, not the branch, when building a release.", query: "release checkout", within: 1 },
      { lesson: "Roll back the migration before reverting the deploy.", query: "migration rollback", within: 1 },
      { lesson: "Back up the volume before resizing it.", query: "volume backup", within: 1 },
      { lesson: "Shut down the worker gracefully on SIGTERM; drain the queue first.", query: "worker shutdown", within: 1 },
      { lesson: "When the gateway timed out, the client retried the payment without an idempotency key.", query: "gateway timeouts", within: 1 },
      // Apart asked (in any tense), joined written.
      { lesson: "The mirror setup script needs the certificate bundle.", query: "setting up the mirror", within: 1 },
      { lesson: "The dashboard login expires after twelve hours.", query: "logged in to the dashboard", within: 1 },
      { lesson: "The signup form must rate-limit by address.", query: "sign up form", within: 1 },
      { lesson: "A schema rollback must be rehearsed on a copy first.", query: "rolled back the schema", within: 2 },
      { lesson: "The cleanup job deletes scratch files older than a day.", query: "clean up scratch files", within: 1 },
      // Nothing but the phrasal verb in common: still injected (relatedness sees the lesson's joined form).
      { lesson: "Shut down the listener before the pool, or requests hang.", query: "shutdown", within: 2 },
    ],
    topics.flatMap(crowdOf),
  );
});
