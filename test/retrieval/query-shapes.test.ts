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

/** The lesson `target` among BACKGROUND (and `others`) must rank in the top `within` (3) for `query` and be injected. */
async function assertFound(target: string, query: string | RetrievalContext, others: string[] = [], within = 3, injected = true): Promise<void> {
  const sb = makeSandbox();
  const lessons = [...BACKGROUND, ...others, target];
  await insertRaw(sb, lessons.map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      const ctx: RetrievalContext = typeof query === "string" ? { task: query } : query;
      const hits = await cairn.recall(ctx, { limit: 10 });
      const at = hits.findIndex((h) => h.entry.lesson === target);
      const shown = hits.slice(0, 5).map((h, i) => `${i + 1}. ${h.entry.lesson.slice(0, 70)}`).join("\n");
      assert.ok(at >= 0 && at < within, `the lesson must rank in the top ${within}, ranked ${at < 0 ? "nowhere" : at + 1}:\n${shown}`);
      if (!injected) return;
      const block = await cairn.inject(ctx, { recordShown: false });
      assert.ok(block.entries.some((e) => e.id === hits[at]!.entry.id), `the lesson must be injected:\n${block.text}`);
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

/** Lessons about one tool that differ in the version they are about: only the version tells them apart. */
const NODE_VERSIONS = [
  "Node 16 lacks a global fetch; the crawler loads undici for its HTTP client.",
  "Node 18 fetch is experimental and prints a warning in the crawler's logs.",
  "Node 22 enables require of ESM modules; the crawler's fetch loader shim can go.",
  "Node 14 reached end of life; the crawler's fetch polyfill stays only for the old runners.",
  "Node 21 ships a WebSocket client; the crawler may drop the ws package beside fetch.",
];
const PYTHON_VERSIONS = [
  "Python 3.8 wheels are no longer built for the scientific stack; pin numpy below 1.25.",
  "Python 3.10 pattern matching is allowed in the build scripts.",
  "Python 3.11 tomllib replaces the toml package in the build scripts.",
];

// Among lessons that differ only in their version, the one about the version asked for comes first.
test("a version joined to its name in the query: 'node20' finds the lesson about Node 20 first among other Node versions", async () => {
  await assertFound("Node 20 changed the default keepalive of fetch; the crawler must pin its own agent.", "crawler fetch on node20", NODE_VERSIONS, 1);
  await assertFound("Node 20 changed the default keepalive of fetch; the crawler must pin its own agent.", "crawler fetch on Node20", NODE_VERSIONS, 1);
  await assertFound("Python 3.12 removed distutils from the build scripts; import setuptools instead.", "python3.12 build scripts", PYTHON_VERSIONS, 1);
  await assertFound("python3.12 removed distutils from the build scripts; import setuptools instead.", "python 3.12 build scripts", PYTHON_VERSIONS, 1);
});

/** Lessons that name where code lives: folder and extension words (src, lib, ts, index) are in every one. */
const PATH_HEAVY = [
  "src/lib/logger.ts must not import from src/app; the lib folder stays free of app code.",
  "Every src/index.ts re-exports only the public API; internals stay in src/lib.",
  "Keep ts-node out of src/main.ts; build with tsc and run the compiled js.",
  "Tests in src/**/*.test.ts run with the ts loader; a src import of a .js path still resolves.",
  "The src/app/layout.tsx file sets the lang attribute from the user's locale.",
];

test("a file path or glob pasted as the query: its folder and extension words do not outweigh the module's name", async () => {
  await assertFound("The users API module must validate the email before calling the repository.", "src/api/users.ts", PATH_HEAVY);
  await assertFound("Snapshot tests for the checkout page break when the locale is not pinned.", "editing src/checkout/**/*.test.tsx", PATH_HEAVY);
});

test("code identifiers in any case style find the lesson written in words, and words find the lesson written as an identifier", async () => {
  await assertFound("The get user by id lookup returns null for soft-deleted accounts; check deleted_at first.", "getUserById returns undefined");
  await assertFound("fetchOrderHistory pages past the last order when the cursor is stale; reset it after a refund.", "fetch order history cursor");
  await assertFound("Set the max retry count to three in the billing queue config; higher values stall the worker.", "MAX_RETRY_COUNT billing");
  await assertFound("The date picker component loses focus when the popover portal remounts.", "date-picker focus lost");
  await assertFound("UserProfileCard re-renders on every keystroke unless its props are memoized.", "user profile card keeps re-rendering");
  await assertFound("The invoice table view sorts amounts as strings unless the column type is set.", "InvoiceTableView sorting wrong");
  await assertFound("The sync_inventory_job must hold the warehouse lock while it writes counts.", "SyncInventoryJob warehouse lock");
});

test("dotted names (process.env.NODE_ENV, os.path.join) find lessons that name their parts", async () => {
  await assertFound("NODE_ENV is read once at startup by the config loader; changing the process env later has no effect.", "process.env.NODE_ENV ignored after startup");
  await assertFound("On Windows join paths with os.path.join, never with a slash literal, in the packaging script.", "path join on windows for packaging");
});

test("plural, singular and other inflections, and a query in capitals, find the lesson", async () => {
  await assertFound("A migration that adds an index to a large table must create it concurrently.", "adding indexes to tables in migrations");
  await assertFound("Flaky snapshot tests usually come from unpinned dates.", "snapshot test flakiness");
  await assertFound("The webhook signature must be verified against the raw request body.", "WEBHOOK SIGNATURE VERIFICATION FAILS");
});

/** Lessons written in Chinese and Japanese: a sentence is one run of characters with no spaces between its words. */
const CJK_BACKGROUND = [
  "数据库迁移必须先在预发布环境运行一次。",
  "前端构建失败时先清理缓存目录再重试。",
  "日志里不要打印用户的手机号码。",
  "テストは本番データベースに接続してはいけない。",
];

test("a CJK word inside a longer run of CJK characters is found: '连接池' finds the lesson about '数据库连接池超时'", async () => {
  await assertFound("数据库连接池超时的时候，要先检查最大连接数的配置。", "连接池", CJK_BACKGROUND);
  await assertFound("数据库连接池超时的时候，要先检查最大连接数的配置。", "连接池超时怎么办", CJK_BACKGROUND);
  await assertFound("本番環境ではデータベース接続プールの上限を二十にする。", "接続プール", CJK_BACKGROUND);
  await assertFound("결제모듈재시도횟수는세번으로제한한다", "재시도", []);
});

test("a one-letter slip in a rare word ('kuberentes', 'postgers') still finds the lesson when the plain search finds nothing or too little", async () => {
  const k8s = "Kubernetes liveness probes must not call the database; a slow query restarts every pod at once.";
  await assertFound(k8s, "kuberentes liveness probe");
  // Recall only: a search someone typed. Injection never searches a guessed spelling (next test).
  await assertFound(k8s, "kuberentes", [], 3, false);
  await assertFound("Postgres advisory locks are held per session; release them before returning the connection to the pool.", "postgers advisory lock", [
    "Redis locks expire on their own; set the expiry longer than the longest job.",
  ], 3, false);
});

test("injection never adds a lesson for a word one edit from the context's own: an agent baking 'bread' is not told about 'break'", async () => {
  const sb = makeSandbox();
  await insertRaw(sb, ["Cache the user's session in redis with a short ttl.", "Never break the build on main: run the whole test suite before merging."].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      const block = await cairn.inject({ task: "Bake sourdough bread for the staff kitchen" }, { recordShown: false });
      assert.equal(block.entries.length, 0, `nothing may be injected:\n${block.text}`);
      // A search someone typed: seven letters or more before a slip is guessed at ("bread" is a word of its own).
      assert.deepEqual(await cairn.recall({ task: "Bake sourdough bread for the staff kitchen" }, { limit: 10 }), []);
    },
    {},
    sb,
  );
});

test("a git diff hunk pasted as the query: the changed code's names win over the diff's markers and context lines", async () => {
  await assertFound(
    "The session cookie must be set with SameSite=Lax and Secure in the auth middleware, or Safari drops it after the OAuth redirect.",
    `diff --git a/src/auth/middleware.ts b/src/auth/middleware.ts
index 3f2a1c0..8b9d4e2 100644
--- a/src/auth/middleware.ts
+++ b/src/auth/middleware.ts
@@ -42,7 +42,7 @@ export function authMiddleware(req, res, next) {
   const token = req.cookies.session;
-  res.cookie("session", token, { httpOnly: true });
+  res.cookie("session", token, { httpOnly: true, sameSite: "lax", secure: true });
   next();
 }`,
  );
});

test("a failing test's name in snake_case or as a path::name finds the lesson written in words", async () => {
  await assertFound("After login the user is redirected to the page they asked for, read from the next parameter, never to the dashboard.", "test_user_login_redirects fails");
  await assertFound(
    "Invoice totals are rounded per line before summing; rounding the sum breaks the tax report.",
    "FAILED tests/billing/test_invoice.py::test_invoice_totals_rounding - AssertionError: assert 10.01 == 10.0",
  );
});

test("a compiler error with file:line:col finds the lesson about what it says, not the path", async () => {
  await assertFound(
    "TS2345 in the order reducer: the Action union needs the RefundIssued case before the switch narrows it.",
    "src/store/orderReducer.ts:118:23 - error TS2345: Argument of type 'RefundIssued' is not assignable to parameter of type 'Action'.",
    PATH_HEAVY,
  );
  await assertFound(
    "rustc E0502 in the cache module: clone the key before calling insert while the map is borrowed.",
    "error[E0502]: cannot borrow `cache` as mutable because it is also borrowed as immutable\n --> src/cache.rs:57:9",
  );
});

test("a log line with its timestamp, level and request id finds the lesson about its message", async () => {
  await assertFound(
    "The image resizer times out on PNGs above 20 megapixels; downscale them in the upload worker first.",
    `2026-11-30T14:02:17.481Z ERROR [req-7f3a9c] image-resizer: timeout after 30000ms processing upload 8812.png`,
  );
  await assertFound(
    "Nginx 502 from the upstream means the app's keepalive timeout is shorter than nginx's; raise it above 65 seconds.",
    `[30/Nov/2026:14:02:17 +0000] "POST /api/orders HTTP/1.1" 502 157 "-" upstream prematurely closed connection while reading response header from upstream`,
  );
});

test("a question in a sentence finds the lesson that answers it", async () => {
  await assertFound(
    "Feature flags are read from the flags service at boot; a flag changed later takes effect only after a restart.",
    "Why doesn't my feature flag change take effect until I restart the service?",
  );
  await assertFound("Background jobs must be enqueued after the transaction commits, never inside it.", "how should I enqueue a background job from inside a transaction?");
});

test("a query in capitals with code names, and one with emoji, find the lesson", async () => {
  await assertFound("ECONNRESET on large S3 uploads comes from the proxy's idle timeout; use multipart uploads.", "ECONNRESET WHEN UPLOADING LARGE FILES TO S3");
  await assertFound("The deploy pipeline's smoke test must hit the health endpoint through the load balancer.", "🚀 deploy pipeline smoke test failing 🔥🔥");
  await assertFound("Emoji in commit messages break the changelog generator's parser; strip them first.", "changelog generator crashes on commits with 🎉 emoji");
});

test("a URL pasted as the query: its host and path words find the lesson, its scheme and query string do not drown them", async () => {
  await assertFound(
    "The Stripe webhook endpoint must answer 200 within ten seconds; hand the event to a queue and process it later.",
    "https://dashboard.stripe.com/test/webhooks/we_1Nx2Yz?tab=attempts shows timeouts",
  );
  await assertFound(
    "GitHub Actions cache keys must include the lockfile hash, or stale node_modules are restored.",
    "https://github.com/acme/shop/actions/runs/6677889900/job/1827364 cache restore stale",
  );
});

test("a diff whose header lines alone would fill the query's terms: the changed lines' words find the lesson", async () => {
  await assertFound(
    "A fetch with keepalive must still clear its abort timer once the response arrives, or the timer fires later and aborts a reused socket.",
    `diff --git a/src/lib/http/client.ts b/src/lib/http/client.ts
index 3f2a1c0..8b9d4e2 100644
--- a/src/lib/http/client.ts
+++ b/src/lib/http/client.ts
@@ -118,9 +118,11 @@ export async function request(url: string, init: RequestInit = {}) {
   const controller = new AbortController();
   const timer = setTimeout(() => controller.abort(), init.timeout ?? 10_000);
-  const res = await fetch(url, { ...init, signal: controller.signal });
+  const res = await fetch(url, { ...init, signal: controller.signal, keepalive: true });
+  clearTimeout(timer);
   return res;
 }`,
    PATH_HEAVY,
  );
});

test("a log line whose timestamp, process ids and trace ids come before its message: the message finds the lesson", async () => {
  await assertFound(
    "SQLAlchemy QueuePool exhausted in the report worker: each task must close its session, or raise pool_size with the worker count.",
    "2026-11-30 14:02:17,481 pid=3121 tid=140235 [worker-7] host=ip-10-0-3-17 trace=4bf92f3577b34da6a3ce929d0e0e4736 span=00f067aa0ba902b7 WARN sqlalchemy.pool.impl.QueuePool: Connection pool exhausted, overflow 10 reached, timeout 30.00",
  );
});

test("a URL with a percent-encoded query string: its encoded words find the lesson", async () => {
  await assertFound(
    "Checkout error spikes after a deploy are usually the payment provider's sandbox keys left in the release config.",
    "https://app.datadoghq.com/logs?query=service%3Acheckout%20status%3Aerror&cols=host%2Cservice&index=main&from_ts=1701352937000&to_ts=1701356537000&live=true spike after deploy",
  );
});

test("a single CJK character is a word: '锁' finds the lesson about '数据库锁超时', '鍵' the one about '鍵', whether the character starts, sits inside or ends its run", async () => {
  await assertFound("数据库锁超时的时候，先查看是哪个事务持有它。", "锁", CJK_BACKGROUND, 10, false);
  await assertFound("部署之前先检查门锁", "锁", CJK_BACKGROUND, 10, false);
  await assertFound("秘密鍵はリポジトリに入れてはいけない。", "鍵", CJK_BACKGROUND, 10, false);
  await assertFound("鍵の更新は毎月行う。", "鍵", CJK_BACKGROUND, 10, false);
  await assertFound("배포 전에 락을 확인한다", "락", [], 10, false);
});

/** Chinese lessons that each hold '的', the commonest character of written Chinese. */
const DE_LESSONS = ["数据库迁移的顺序不能改", "前端构建的缓存要定期清理", "日志里的手机号码要打码", "部署的时候先检查配置", "测试的数据库每天重建", "连接池的上限是二十", "缓存的过期时间是一小时", "发布的流程要两个人审批"];

test("one CJK character most lessons hold ('的') is a stop word beside other words, and still searched when it is the whole query", async () => {
  const sb = makeSandbox();
  const webhook = "The webhook signature must be verified against the raw request body.";
  await insertRaw(sb, [...BACKGROUND, ...DE_LESSONS, webhook, "数据库锁超时的时候，先查看是哪个事务持有它。"].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      const lessons = async (task: string) => (await cairn.recall({ task }, { limit: 10 })).map((h) => h.entry.lesson);
      const mixed = await lessons("webhook 的 signature");
      assert.equal(mixed[0], webhook);
      assert.deepEqual(mixed.filter((l) => l.includes("的")), [], "no lesson is found for its '的' alone");
      assert.deepEqual(await lessons("锁 的"), ["数据库锁超时的时候，先查看是哪个事务持有它。"]);
      // Alone, the character is what the user asked about.
      assert.equal((await lessons("的")).length, 9);
    },
    {},
    sb,
  );
});

test("a query that is only a file path finds the lesson about that module, Unix or Windows", async () => {
  const auth = "The auth middleware must check the token's expiry before it loads the user; an expired token reached the handlers.";
  await assertFound(auth, "src/auth/middleware.ts", PATH_HEAVY, 10);
  await assertFound(auth, "C:\\Users\\dev\\shop\\src\\auth\\middleware.ts", PATH_HEAVY, 10);
  await assertFound("The invoice PDF renderer leaks file handles on Windows; close the stream in a finally block.", "D:\\a\\shop\\shop\\src\\billing\\invoice-renderer.ts", PATH_HEAVY, 10);
});

test("a query that is only an error code finds the lesson that names it", async () => {
  const others = [
    "ECONNREFUSED in tests means the database container is not up yet; wait for its health check.",
    "Mongo E11001 is a duplicate key on an update; E11000 on an insert.",
    "ORA-01017 means the wallet holds stale credentials; rotate them in the vault.",
  ];
  await assertFound("ECONNRESET on large S3 uploads comes from the proxy's idle timeout; use multipart uploads.", "ECONNRESET", others, 10);
  await assertFound("MongoDB E11000 duplicate key error on the orders collection means the idempotency key index caught a retry; treat it as success.", "E11000", others, 10);
  await assertFound("ORA-00942 table or view does not exist in the reporting job: the schema owner prefix is missing from the query.", "ORA-00942", others, 10);
});

test("a stack frame line finds the lesson about the function it names", async () => {
  await assertFound(
    "TokenValidator.verifySignature throws on keys rotated within the last minute; retry once with the refreshed JWKS.",
    "    at TokenValidator.verifySignature (/app/src/auth/token-validator.ts:88:17)",
    PATH_HEAVY,
    10,
  );
  await assertFound(
    "The refund calculator's compute_partial_refund rounds before converting currency; convert first.",
    '  File "/srv/app/billing/refunds.py", line 212, in compute_partial_refund',
    PATH_HEAVY,
    10,
  );
});

test("a bare URL finds the lesson about the service and path it names", async () => {
  await assertFound("The orders API refunds endpoint is idempotent only with the Idempotency-Key header; send one on every retry.", "https://api.shop.example.com/v2/orders/8812/refunds", [], 10);
});

test("a shell command line with flags finds the lesson about that command", async () => {
  await assertFound(
    "docker compose up with --build keeps the old anonymous volumes; add --renew-anon-volumes when the node_modules volume is stale.",
    "docker compose up -d --build --force-recreate api",
    [],
    10,
  );
  await assertFound("git rebase --autosquash needs the fixup commits to name the exact subject line of their target.", "git rebase -i --autosquash HEAD~5", [], 10);
  await assertFound("npm ci fails with EUSAGE when package-lock.json is out of sync with package.json; run npm install and commit the lockfile.", "$ npm ci --omit=dev --ignore-scripts", [], 10);
});

test("an emoji-laden message finds the lesson about its words", async () => {
  await assertFound(
    "Payment webhooks fail after a key rotation until the signing secret is updated in the webhook settings.",
    "🔥🔥🔥 prod down 😱😱 payment webhooks failing AGAIN 💥💥 🙏🙏🙏",
    [],
    10,
  );
});

test("a query mixing English and Japanese finds the lesson in either language", async () => {
  await assertFound("The webhook signature must be verified against the raw request body.", "webhook の signature 検証が失敗する", CJK_BACKGROUND, 10);
  await assertFound("デプロイ時にmigrationが失敗したら、先にテーブルのロックを確認する。", "migration が失敗する", CJK_BACKGROUND, 10);
  await assertFound("デプロイ時にmigrationが失敗したら、先にテーブルのロックを確認する。", "deploy migration fails ロック", CJK_BACKGROUND, 10);
});

test("a query in uppercase finds the lesson written in lower case", async () => {
  await assertFound("A migration that adds an index to a large table must create it concurrently.", "MIGRATION LOCKS THE ORDERS TABLE WHILE ADDING AN INDEX", [], 10);
  await assertFound("Kubernetes liveness probes must not call the database; a slow query restarts every pod at once.", "LIVENESS PROBE", [], 10);
});

test("a typo in a short word: the rest of the query, or the mended word, finds the lesson", async () => {
  const docker = "Docker layer cache is invalidated by copying the whole repo before npm install; copy package.json first.";
  await assertFound(docker, "dokcer layer cache invalidated", [], 10, false);
  await assertFound(docker, "dokcer cache", [], 10, false);
  await assertFound("Redis keys without a TTL filled the cache node's memory; set an expiry on every key.", "reids ttl", [], 10, false);
  await assertFound("Redis keys without a TTL filled the cache node's memory; set an expiry on every key.", "reids", [], 10, false);
});

test("a short word is mended only by a swap or a doubled letter: 'rods' is not taken for 'pods', 'bake' not for 'cake'", async () => {
  const sb = makeSandbox();
  await insertRaw(sb, [...BACKGROUND, "Kubernetes pods restart when the liveness probe calls the database.", "The cake service caches rendered pages for a minute."].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      for (const task of ["rods", "bake", "fishing rods"]) assert.deepEqual(await cairn.recall({ task }, { limit: 10 }), [], task);
      assert.equal((await cairn.recall({ task: "posd" }, { limit: 10 }))[0]?.entry.lesson.startsWith("Kubernetes pods"), true, "a swap is mended");
    },
    {},
    sb,
  );
});

test("a slip is never mended into a stop word: 'wiht' is not 'with', 'withotu' not 'without', since every lesson holds those", async () => {
  const sb = makeSandbox();
  await insertRaw(sb, [...BACKGROUND, "Cache the user's session in redis with a short ttl.", "Never deploy on Friday without a rollback plan."].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      for (const task of ["wiht", "taht", "withotu"]) assert.deepEqual((await cairn.recall({ task }, { limit: 10 })).map((h) => h.entry.lesson), [], task);
    },
    {},
    sb,
  );
});

/** Lessons that hold "npm" and "git" more than once, as an agent's store does. */
const TOOL_LESSONS = [
  "npm audit fails the pipeline on high-severity advisories only; moderate ones are triaged weekly.",
  "Run npm ci, not npm install, on the build server so the lockfile is honoured.",
  "Never git push --force to main; use --force-with-lease on your own branch.",
  "Before a git rebase of a shared branch, tell the people who pulled it.",
];

test("a three-letter slip: 'nmp' finds the npm lessons and 'gti' the git ones when the index holds the swap in several lessons", async () => {
  await assertFound(TOOL_LESSONS[1]!, "nmp ci lockfile", TOOL_LESSONS.filter((l) => l !== TOOL_LESSONS[1]), 3, false);
  await assertFound(TOOL_LESSONS[0]!, "nmp", TOOL_LESSONS.slice(1), 3, false);
  await assertFound(TOOL_LESSONS[3]!, "gti", TOOL_LESSONS.slice(0, 3), 3, false);
});

test("a three-letter word is mended only to a word several lessons hold, never to a stop word, and never when the index holds it", async () => {
  const sb = makeSandbox();
  await insertRaw(sb, [...BACKGROUND, ...TOOL_LESSONS, "Kubernetes pods restart when the liveness probe calls the database.", "The tgi flag of the tagger is legacy."].map((lesson): RawEntry => ({ lesson })));
  await withWorld(
    async ({ cairn }) => {
      // "pod" is in one lesson: a PHP user's "pdo" is more likely a word the store does not hold than a slip.
      // "teh" is one swap from "the", a stop word every lesson holds; "tgi" is held, so never taken for "git".
      for (const task of ["pdo", "teh", "adn", "fishing pdo"]) assert.deepEqual(await cairn.recall({ task }, { limit: 10 }), [], task);
      const tgi = await cairn.recall({ task: "tgi" }, { limit: 10 });
      assert.deepEqual(tgi.map((h) => h.entry.lesson), ["The tgi flag of the tagger is legacy."]);
      // Injection never searches a guessed spelling.
      const block = await cairn.inject({ task: "nmp" }, { recordShown: false });
      assert.equal(block.entries.length, 0, block.text);
    },
    {},
    sb,
  );
});

test("a hyphenated word finds the lesson that writes it joined: 'pre-commit' finds 'precommit', 'e-mail' finds 'email'", async () => {
  const commits = ["Commit messages must name the ticket; the commit hook rejects others.", "Squash fixup commits before review."];
  await assertFound("The precommit hook runs prettier on staged files only; a full run takes minutes.", "pre-commit hook too slow", commits);
  await assertFound("The precommit hook runs prettier on staged files only; a full run takes minutes.", "pre-commit", commits);
  await assertFound("The email sender retries three times before it gives up.", "e-mail sender");
  await assertFound("Rerender loops come from a new object in the deps array.", "re-render loop");
});

test("a word written joined finds the lesson that writes it apart, and apart finds joined: 'precommit', 'lockfile', 'file system'", async () => {
  const commits = ["Commit messages must name the ticket; the commit hook rejects others.", "Squash fixup commits before review."];
  await assertFound("The pre-commit hook runs prettier on staged files only; a full run takes minutes.", "precommit", commits, 3, false);
  await assertFound("Use a lock file for the deploy script so two runs cannot overlap.", "lockfile", [], 3, false);
  await assertFound("The lockfile must be committed with every dependency change.", "lock file", [], 3, false);
  await assertFound("Filesystem watchers miss renames on macOS; poll the folder instead.", "file system watchers", [], 3, false);
  await assertFound("File system watchers miss renames on macOS; poll the folder instead.", "filesystem", [], 3, false);
});

test("a short word in the other English spelling finds the lesson: 'color' finds 'colour', 'colour' finds 'color', 'gray' finds 'grey'", async () => {
  await assertFound("Dark mode colour tokens must come from the palette, not hex literals.", "color", [], 3, false);
  await assertFound("Dark mode color tokens must come from the palette, not hex literals.", "colour", [], 3, false);
  await assertFound("Grey text on the dark theme fails the contrast check.", "gray", [], 3, false);
  await assertFound("Honor the Retry-After header before calling the payment API again.", "honour", [], 3, false);
});
