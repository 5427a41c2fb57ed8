// Words that queries and lessons write in different forms: irregular plurals ("indices" and "index"), phrasal verbs beside their joined nouns ("set up" and "setup"), compounds joined, hyphenated or apart ("lockfile", "lock-file", "lock file").
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPOUND_WORDS } from "../../src/core/compound-words.js";
import { IRREGULAR_PLURALS } from "../../src/core/irregular-plurals.js";
import type { Cairn } from "../../src/index.js";
import { buildSearchText } from "../../src/core/text.js";
import { stemToken } from "../../src/store/fts-tokens.js";
import { compoundSpellings, numberForms } from "../../src/retrieval/query-variants.js";
import { pgTestOptions } from "../helpers/pg.js";
import { insertRaw, makeSandbox, withPgHive, withWorld, type RawEntry } from "./helpers.js";

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

/** The cases whose query does not rank its lesson within its bound, or does not inject it. */
async function missedCases(cairn: Cairn, cases: readonly Case[]): Promise<string[]> {
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
  return missed;
}

/** Every case's lesson, and `crowd`, in one store: each query must rank its own lesson within its bound, and inject it. */
async function assertEachFound(cases: readonly Case[], crowd: readonly string[] = []): Promise<void> {
  const sb = makeSandbox();
  await insertRaw(sb, [...BACKGROUND, ...crowd, ...cases.map((c) => c.lesson)].map((lesson): RawEntry => ({ lesson })));
  await withWorld(async ({ cairn }) => assert.deepEqual(await missedCases(cairn, cases), []), {}, sb);
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

test("a plural the index stems as another word is found by its singular: 'index' finds 'the indices', 'vertex' finds 'vertices', and not 'indicates'", async () => {
  // The singular goes beside the plural in the search text, once, and never for the verb "leaves".
  assert.equal(buildSearchText(["Rebuild the Indices and the vertices.", "indices"]), "Rebuild the Indices and the vertices.\nindices\nindex vertex");
  for (const text of ["The index and its indices.", "The job leaves a lock.", "Read the index with getIndices()."]) assert.ok(!buildSearchText([text]).split("\n").slice(1).some((l) => /\b(index|leaf)\b/.test(l)), text);
  const indicates = "The red badge indicates a failed build.";
  await assertFoundWhenAdded(
    [
      { lesson: "Rebuild the search indices after a bulk import; the old ones miss the new rows.", query: "index", within: 1 },
      { lesson: "Shared vertices must be welded before the mesh is exported.", query: "vertex", within: 1 },
    ],
    [indicates, "Vertical scrolling must stay smooth on long lists."],
    async (cairn) => {
      const found = (await cairn.recall({ task: "index" }, { limit: 10 })).map((h) => h.entry.lesson);
      assert.ok(!found.includes(indicates), "'index' brings in no lesson about indicating");
    },
  );
});

test("a plural inside a camelCase name is found by its singular: 'index' finds getIndices(), 'vertex' finds getVertices(), once each", async () => {
  // The name's pieces go on a line of their own ("get indices"); the singular beside them, not repeated where a piece already is one.
  assert.equal(buildSearchText(["Call getIndices() and readIndices() once per frame."]), "Call getIndices() and readIndices() once per frame.\nindex\nget indices read");
  assert.equal(buildSearchText(["Use vertexCount, not getVertices().length."]), "Use vertexCount, not getVertices().length.\nvertex count get vertices");
  await assertFoundWhenAdded(
    [
      { lesson: "Call getIndices() once per frame in the mesh renderer; it allocates a new array on every call.", query: "index", within: 1 },
      { lesson: "Cache mesh.getVertices() before the export loop; it copies the whole buffer.", query: "vertex", within: 1 },
    ],
    ["The red badge indicates a failed build.", "Vertical scrolling must stay smooth on long lists."],
  );
});

/**
 * Each case's lesson written through the engine, as every new lesson is (its search text derived by this version),
 * beside BACKGROUND and `crowd`: each query must rank its own lesson within its bound, and inject it; then `more`.
 */
async function assertFoundWhenAdded(cases: readonly Case[], crowd: readonly string[], more?: (cairn: Cairn) => Promise<void>): Promise<void> {
  const sb = makeSandbox();
  await insertRaw(sb, [...BACKGROUND, ...crowd].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      for (const c of cases) await cairn.add({ lesson: c.lesson, category: "tooling" });
      assert.deepEqual(await missedCases(cairn, cases), []);
      await more?.(cairn);
    },
    {},
    sb,
  );
}

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

/** Compounds written one way in a lesson and another in the query; each query's topic is crowded, so no fallback search runs. */
const COMPOUND_CASES: Case[] = [
  // Joined asked, apart written (any number).
  { lesson: "Commit the gateway lock file with every dependency bump.", query: "gateway lockfile", within: 1 },
  { lesson: "The registry user name is case sensitive; compare it folded.", query: "registry username", within: 1 },
  { lesson: "Invoice time stamps are written in UTC, never in local time.", query: "invoice timestamps", within: 1 },
  { lesson: "The worker code base still vendors an old TLS library.", query: "worker codebase", within: 1 },
  // Joined asked, hyphenated written.
  { lesson: "The dashboard front-end must not call the billing API directly.", query: "dashboard frontend", within: 1 },
  { lesson: "The release back-end reads its settings from the environment.", query: "release backend", within: 1 },
  // Apart or hyphenated asked, joined written.
  { lesson: "The mirror dataset is refreshed nightly from the primary.", query: "mirror data set", within: 1 },
  { lesson: "Schema webhooks must be verified with the signature header.", query: "schema web hooks", within: 1 },
  { lesson: "The volume endpoint answers 404 until the disk is attached.", query: "volume end-point", within: 1 },
  // Nothing but the compound in common: still injected (relatedness sees the lesson's other spelling).
  { lesson: "Each namespace gets its own service account.", query: "name space", within: 1 },
  { lesson: "The check box state is lost on reload.", query: "checkbox", within: 1 },
];

test("a compound finds the lesson that writes it the other way: 'lockfile' and 'lock file', 'front-end' and 'frontend', 'data set' and 'dataset'", async () => {
  const topics = ["gateway", "registry", "invoice", "worker", "dashboard", "release", "mirror", "schema", "volume"];
  await assertEachFound(COMPOUND_CASES, topics.flatMap(crowdOf));
});

test("a compound's parts alone, apart or in another sentence, bring in no lesson that writes it joined: 'time' does not find 'timestamp'", async () => {
  for (const text of ["time", "lock", "file", "the lock and the file", "time. Stamp", "lock, file", "end", "back", "front"]) assert.deepEqual(compoundSpellings(text), [], text);
  assert.deepEqual(compoundSpellings("Lock-files"), ["lockfile"]);
  assert.deepEqual(compoundSpellings("the filenames"), ["file name"]);
  const joined = ["Invoice timestamps are stored in UTC.", "Commit the lockfile with the manifest.", "The filename must be ASCII.", "The frontend bundles its own fonts."];
  const sb = makeSandbox();
  await insertRaw(sb, [...BACKGROUND, ...joined].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      for (const task of ["time budget of the job", "lock the row before the update", "file the report", "the front of the queue", "stamp duty", "lock the file before writing", "the time the stamp took", "the file: name it after the day"]) {
        const found = (await cairn.recall({ task }, { limit: 10 })).map((h) => h.entry.lesson).filter((l) => joined.includes(l));
        assert.deepEqual(found, [], task);
      }
    },
    {},
    sb,
  );
});

test("the table of compounds holds words the index keeps as one token, each joined word's stem of one pair only", () => {
  const seen = new Map<string, string>();
  for (const { first, second, joined } of COMPOUND_WORDS) {
    assert.equal(joined, first + second);
    const stem = stemToken(joined);
    assert.ok(!seen.has(stem), `${joined} is stemmed as ${seen.get(stem)}`);
    seen.set(stem, joined);
    assert.notEqual(stem, stemToken(first), `${joined} is stemmed as ${first}`);
  }
});

test("a compound finds the lesson that writes it the other way on a team hive on PostgreSQL", pgTestOptions(), async () => {
  // Nothing but the compound in common: the hive's search is the one that must meet it (no fallback runs on a networked tier).
  const cases: Case[] = [
    { lesson: "Commit the lock file with every dependency bump.", query: "lockfile", within: 1 },
    { lesson: "The front-end must not call the billing API directly.", query: "frontend", within: 1 },
    { lesson: "The dataset is refreshed nightly from the primary.", query: "data set", within: 1 },
    { lesson: "The endpoint answers 404 until the disk is attached.", query: "end-point", within: 1 },
    { lesson: "The check box state is lost on reload.", query: "checkbox", within: 1 },
  ];
  await withPgHive([...BACKGROUND, ...cases.map((c) => c.lesson)].map((lesson) => ({ lesson })), [], async (cairn) => assert.deepEqual(await missedCases(cairn, cases), []));
});
