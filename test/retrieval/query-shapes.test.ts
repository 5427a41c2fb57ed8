// Query shapes real coding agents send (pasted errors, versions, identifiers, paths, typos): the plainly relevant lesson comes back in the top 3 and is injected.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { RetrievalContext } from "../../src/retrieval/context.js";
import { insertRaw, makeSandbox, withWorld, type RawEntry } from "./helpers.js";

/**
 * Lessons an agent's store plausibly holds beside the one a query is about: they share its generic
 * words (python, django, node, user, error, file, line, request, test), so only the query's
 * informative words can pick the right one.
 */
const BACKGROUND: string[] = [
  "Django views must not open a second database connection inside a request; reuse the request's cursor.",
  "Python virtualenvs must be activated in the Makefile targets before running manage.py.",
  "The core request handlers log every exception with the request id before re-raising it.",
  "Line endings in generated files must be LF; the Windows runners check out CRLF otherwise.",
  "Node modules internal loader errors usually mean a bad relative import path in the test file.",
  "Stack traces in production logs must strip absolute file paths and user names.",
  "Call the local site packages through the pinned interpreter in /usr/local, not the system python.",
  "The user id is a uuid, never an integer; parse it at the edge of the API.",
  "React components should not fetch in render; load data in the route loader.",
  "Run the tests against the test database, never the dev one.",
  "The API gateway caps request bodies at one megabyte; upload files through signed URLs.",
  "Postgres connection pool size must match the worker count in the deploy config.",
  "Node 18 test runner output differs from jest; parse the TAP stream in CI.",
  "The docker base image pins the node version and the python version used by the build.",
  "Python 3.9 lacks the zoneinfo backport on the runners; install tzdata with it.",
  "Upgrading the runtime requires bumping the engines field and the CI matrix together.",
  "Webpack dev server proxies /api to the backend on port 8000 in development.",
  "Cache the user's session in redis with a short ttl and refresh it on each request.",
  "Error handling middleware must answer JSON with a stable error code, never the raw exception.",
  "Retry failed payment webhooks with exponential backoff and a dead-letter queue.",
];

/** The lesson `target` among BACKGROUND (and `others`) must rank in the top 3 for `query` and be injected. */
async function assertFound(target: string, query: string | RetrievalContext, others: string[] = []): Promise<void> {
  const sb = makeSandbox();
  const lessons = [...BACKGROUND, ...others, target];
  await insertRaw(sb, lessons.map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      const ctx: RetrievalContext = typeof query === "string" ? { task: query } : query;
      const hits = await cairn.recall(ctx, { limit: 10 });
      const at = hits.findIndex((h) => h.entry.lesson === target);
      const shown = hits.slice(0, 5).map((h, i) => `${i + 1}. ${h.entry.lesson.slice(0, 70)}`).join("\n");
      assert.ok(at >= 0 && at < 3, `the lesson must rank in the top 3, ranked ${at < 0 ? "nowhere" : at + 1}:\n${shown}`);
      const injected = await cairn.inject(ctx, { recordShown: false });
      assert.ok(injected.entries.some((e) => e.id === hits[at]!.entry.id), `the lesson must be injected:\n${injected.text}`);
    },
    {},
    sb,
  );
}

test("a Python traceback pasted whole: the exception line at its end wins over the frames' paths", async () => {
  await assertFound(
    "Orders created twice by the payment webhook hit the external_ref unique constraint (psycopg2 UniqueViolation); make create_order idempotent.",
    `Traceback (most recent call last):
  File "/usr/local/lib/python3.11/site-packages/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
  File "/usr/local/lib/python3.11/site-packages/django/core/handlers/base.py", line 197, in _get_response
    response = wrapped_callback(request, *callback_args, **callback_kwargs)
  File "/usr/local/lib/python3.11/site-packages/django/views/generic/base.py", line 104, in view
    return self.dispatch(request, *args, **kwargs)
  File "/usr/local/lib/python3.11/site-packages/django/db/backends/utils.py", line 89, in _execute
    return self.cursor.execute(sql, params)
psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "orders_order_external_ref_key"`,
  );
});

test("a Node stack pasted with a test runner's preamble: the error's own words win over node_modules frames", async () => {
  await assertFound(
    "ERR_REQUIRE_ESM from jest means an ESM-only dependency (node-fetch 3) is required from CommonJS; map it in transformIgnorePatterns or use dynamic import.",
    `FAIL src/services/crawler.test.ts
  ● Test suite failed to run
    at Runtime._execModule (/home/runner/work/app/app/node_modules/jest-runtime/build/index.js:1439:24)
    at Runtime._loadModule (/home/runner/work/app/app/node_modules/jest-runtime/build/index.js:1022:12)
    at Runtime.requireModule (/home/runner/work/app/app/node_modules/jest-runtime/build/index.js:882:12)
    at Runtime.requireModuleOrMock (/home/runner/work/app/app/node_modules/jest-runtime/build/index.js:1048:21)
    at Object.<anonymous> (/home/runner/work/app/app/node_modules/@jest/core/build/runJest.js:404:19)
    at Module._compile (node:internal/modules/cjs/loader:1256:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1310:10)
    at Module.load (node:internal/modules/cjs/loader:1119:32)
    Error [ERR_REQUIRE_ESM]: require() of ES Module node-fetch/src/index.js not supported.`,
  );
});
