// Tests for the near-duplicate / contradiction decision between lessons, its parts, speed and the labelled pairs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  compareLessons, lessonKey, lessonTokens, meaningfulValues, polarity, profileLesson, similarity, stem,
} from "../../src/quality/similarity.js";
import { lessonSpecifics } from "../../src/quality/specifics.js";
import { growth } from "../helpers/cost.js";

test("stem meets inflections of the same word", () => {
  for (const group of [["cache", "caching", "cached", "caches"], ["retry", "retries", "retried"], ["index", "indexes"], ["run", "running"], ["stop", "stopped"], ["install", "installed"]]) {
    assert.equal(new Set(group.map(stem)).size, 1, group.join("/"));
  }
  assert.equal(stem("status"), "status");
  assert.equal(stem("v18"), "v18");
});

test("lessonTokens lowercases, splits identifiers, drops stop words and stems", () => {
  assert.deepEqual(lessonTokens("Always check the fetchUserById result"), ["check", "fetch", "user", "id", "result"]);
  assert.deepEqual(lessonTokens("Don't use the DB repo"), ["databas", "repository"]);
  assert.deepEqual(lessonTokens("the and of"), []);
});

test("meaningfulValues normalises durations, sizes and versions", () => {
  assert.deepEqual(meaningfulValues("timeout 30s"), meaningfulValues("timeout 30 seconds"));
  assert.deepEqual(meaningfulValues("wait 5min"), ["dur:300000"]);
  assert.deepEqual(meaningfulValues("a 5-minute buffer"), ["dur:300000"]);
  assert.deepEqual(meaningfulValues("limit uploads to 10MB"), ["size:10000000"]);
  assert.deepEqual(meaningfulValues("pin v1.2.3 and node 18.x"), ["ver:1.2.3", "ver:18.x"]);
  assert.deepEqual(meaningfulValues("Node v18"), meaningfulValues("Node 18"));
  assert.deepEqual(meaningfulValues("use 95% of memory"), ["pct:95"]);
  assert.deepEqual(meaningfulValues("retry 5,000 times"), ["num:5000"]);
  assert.deepEqual(meaningfulValues("retry three times"), ["num:3"]);
});

test("meaningfulValues finds flags, code, quotes, status codes and ports but not names with digits", () => {
  assert.deepEqual(meaningfulValues("git push --force-with-lease"), ["flag:--force-with-lease"]);
  assert.deepEqual(meaningfulValues("gh api -F x"), ["flag:-F"]);
  assert.deepEqual(meaningfulValues("run `npm ci` in CI"), ["code:npm ci"]);
  assert.deepEqual(meaningfulValues(`handle the 'error' event and "fatal: boom"`), ["quote:fatal boom", "quote:error"]);
  assert.deepEqual(meaningfulValues("return 401 not 403"), ["num:401", "num:403"]);
  assert.deepEqual(meaningfulValues("listen on localhost:5432"), ["num:5432"]);
  assert.deepEqual(meaningfulValues("utf8 sha256 base64 gpt-4o 0o755 end-to-end don't"), []);
});

test("polarity reads the direction of the main advice", () => {
  assert.equal(polarity("Always use pnpm in this repo."), "positive");
  assert.equal(polarity("Never use pnpm in this repo."), "negative");
  assert.equal(polarity("Don't mock the database."), "negative");
  assert.equal(polarity("Do not commit .env files."), "negative");
  assert.equal(polarity("Avoid SELECT * in production."), "negative");
  assert.equal(polarity("Disable source maps in production."), "negative");
  assert.equal(polarity("Enable strict mode."), "positive");
  assert.equal(polarity("Prefer composition over inheritance."), "positive");
  assert.equal(polarity("Use CREATE INDEX CONCURRENTLY to avoid locking writes."), "positive");
  assert.equal(polarity("Don't forget to close the pool."), "positive");
  assert.equal(polarity("Postgres NOW() returns the transaction start time."), "neutral");
  assert.equal(polarity("Read the value in a useEffect."), "neutral", "the use in useEffect is no advice");
  assert.equal(polarity("Use X for reads, but never for writes."), "negative", "a prohibition outweighs use");
});

test("similarity is symmetric, in [0,1], 1 for normalised-identical text", () => {
  const a = "Always run `npm ci` in CI so the lockfile is respected.";
  const b = "In CI, run npm ci so that the lockfile is respected.";
  assert.equal(similarity(a, b), similarity(b, a));
  assert.equal(similarity(a, "  always RUN `npm ci` in ci, so the lockfile is respected "), 1);
  assert.ok(similarity(a, b) > 0.6);
  assert.ok(similarity(a, "Set resource limits on Kubernetes containers.") < 0.2);
  assert.equal(similarity("the and of", "to a in"), 0);
});

test("compareLessons: exact and paraphrased lessons are duplicates", () => {
  const r = compareLessons("Use pnpm workspaces for the monorepo.", "use pnpm workspaces for the monorepo");
  assert.deepEqual([r.similarity, r.duplicate, r.contradiction], [1, true, false]);
  assert.equal(
    compareLessons(
      "Kubernetes containers should always have resource requests and limits set.",
      "Always set resource requests and limits on Kubernetes containers.",
    ).duplicate,
    true,
  );
  assert.equal(
    compareLessons(
      "Don't use `any` in TypeScript; use `unknown` and narrow the type.",
      "Do not use `any` in TypeScript. Use `unknown` and narrow it instead.",
    ).duplicate,
    true,
  );
});

test("compareLessons: one verb swapped for its synonym is the same advice, another word swapped is not", () => {
  for (const [a, b] of [
    ["Delete the stale package-lock.json before running npm ci on the runner.", "Remove the stale package-lock.json before running npm ci on the runner."],
    ["Edit the generated schema.prisma only through the migration script.", "Change the generated schema.prisma only through the migration script."],
  ] as const) {
    const r = compareLessons(a, b);
    assert.equal(r.duplicate, true, `${a} / ${b}: ${JSON.stringify(r)}`);
  }
  // A swapped tool or value is still the point of the second lesson.
  assert.equal(compareLessons("Use Vitest for the unit tests in packages/api.", "Use Jest for the unit tests in packages/api.").duplicate, false);
  assert.equal(compareLessons("Delete the stale package-lock.json before running npm ci.", "Commit the stale package-lock.json before running npm ci.").duplicate, false);
});

test("compareLessons: different values are not duplicates", () => {
  const pairs: Array<[string, string]> = [
    ["Retry failed webhook deliveries 3 times with backoff.", "Retry failed webhook deliveries 10 times with backoff."],
    ["The Postgres container listens on port 5432.", "The Postgres container listens on port 5433."],
    ["Pin eslint to v8.57.0 for the legacy config.", "Pin eslint to v8.56.0 for the legacy config."],
    ["Use `git push --force-with-lease` on rebased branches.", "Use `git push --force` on rebased branches."],
    ["Run migrations before deploying the app.", "Run migrations after deploying the app."],
    ["Return 401 when the token is missing and 403 when it lacks the scope.", "Return 403 when the token is missing and 401 when it lacks the scope."],
    ["Use Vitest for unit tests in the web package.", "Use Jest for unit tests in the web package."],
    ["Use `gh api -F in_reply_to=ID` for replies.", "Use `gh api -f in_reply_to=ID` for replies."],
  ];
  for (const [a, b] of pairs) {
    const r = compareLessons(a, b);
    assert.equal(r.duplicate, false, `${a} | ${b}: ${r.reason}`);
  }
});

test("compareLessons: opposite advice is a contradiction, not a duplicate", () => {
  for (const [a, b] of [
    ["Always use `git rebase` to update feature branches.", "Never use `git rebase` to update feature branches."],
    ["Enable `noUncheckedIndexedAccess` in tsconfig.", "Disable `noUncheckedIndexedAccess` in tsconfig."],
    ["Mock the database in unit tests.", "Don't mock the database in unit tests."],
    ["Use pnpm instead of npm in this monorepo.", "Use npm instead of pnpm in this monorepo."],
    ["Store uploads in S3, not on the local disk.", "Store uploads on the local disk, not in S3."],
  ] as const) {
    const r = compareLessons(a, b);
    assert.equal(r.duplicate, false, r.reason);
    assert.equal(r.contradiction, true, `${a} | ${b}: ${r.reason}`);
  }
});

test("compareLessons: a setting with a different value is a contradiction candidate", () => {
  const r = compareLessons("Set the timeout to 30s for the payments API.", "Set the timeout to 5s for the payments API.");
  assert.equal(r.duplicate, false);
  assert.equal(r.contradiction, true);
  assert.match(r.reason, /dur:/);
  const unrelated = compareLessons("Set the timeout to 30s for the payments API.", "Rebase feature branches onto main.");
  assert.deepEqual([unrelated.duplicate, unrelated.contradiction], [false, false]);
});

test("compareLessons: a count changed in the same advice conflicts; words only added at its end refine it", () => {
  const base = "Retry the payments webhook delivery 3 times with exponential backoff before alerting";
  // How many times, how long to wait, how long to keep: values of a setting as much as "set X to N".
  for (const [a, b] of [
    [base, base.replace("3 times", "10 times")],
    ["Wait 30 seconds for the search index to refresh before asserting in e2e tests", "Wait 5 seconds for the search index to refresh before asserting in e2e tests"],
    ["Keep 7 days of WAL archives on the backup volume", "Keep 30 days of WAL archives on the backup volume"],
  ] as const) {
    const r = compareLessons(a, b);
    assert.deepEqual([r.duplicate, r.contradiction], [false, true], `${a} / ${b}: ${r.reason}`);
  }
  const refined = compareLessons(base, `${base} the on-call channel in Slack`);
  assert.deepEqual([refined.duplicate, refined.contradiction], [false, false], refined.reason);
  // Words put inside the advice change how it is done: still a conflict.
  const method = compareLessons("Use bun publish to release the package", "Use bun pm pack and then npm publish to release the package");
  assert.deepEqual([method.duplicate, method.contradiction], [false, true], method.reason);
});

test("compareLessons: threshold is honoured and profiles give the same answer as strings", () => {
  const a = "Use transaction.atomic() around multi-step writes in Django.";
  const b = "In Django, wrap multi-step writes in transaction.atomic() so failures roll back.";
  const r = compareLessons(a, b);
  assert.deepEqual(compareLessons(profileLesson(a), profileLesson(b)), r);
  assert.equal(compareLessons(a, b, 0.99).duplicate, false);
  assert.equal(compareLessons(a, b, 0.01).duplicate, true);
});

test("regression 16.4: compareLessons from keys (as an import's worker sends them) decides every labelled pair, and pairs across them, exactly as from the texts", () => {
  const pairs = readFileSync(new URL("../../eval/dedup-pairs.jsonl", import.meta.url), "utf8")
    .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as { a: string; b: string });
  // A key crosses a thread by structured clone: a copy, not the object the text was keyed by.
  const key = (text: string) => structuredClone(lessonKey(text));
  let pastKeys = 0;
  pairs.forEach((p, i) => {
    // Each pair, and the pair's first lesson against the next pair's second: mostly other subjects.
    for (const [a, b] of [[p.a, p.b], [p.a, pairs[(i + 1) % pairs.length]!.b]] as const) {
      for (const threshold of [0.45, 0.6, 0.8]) {
        let built = 0;
        const byKeys = compareLessons(key(a), key(b), threshold, (k) => {
          built++;
          return profileLesson(k.text);
        });
        assert.deepEqual(byKeys, compareLessons(a, b, threshold), `${a} | ${b} at ${threshold}`);
        if (built) pastKeys++;
      }
    }
  });
  // Both ways out are taken: pairs told apart by their keys alone, and pairs compared in full.
  assert.ok(pastKeys > 200 && pastKeys < pairs.length * 6 - 200, `${pastKeys} comparisons needed whole profiles`);
});

test("compareLessons is linear on hostile input: four times the text costs far less than sixteen times as much", () => {
  // Quadratic work would make 4× the text cost ~16× as much; linear ~4×. CPU time in the same run, so load barely matters.
  for (const unit of ["1 ", "'a ", "aA", "`", "1.", "-a ", "1"]) {
    const small = unit.repeat(Math.ceil(1250 / unit.length));
    const large = unit.repeat(Math.ceil(5000 / unit.length));
    const ratio = growth(() => compareLessons(small, small + "x"), () => compareLessons(large, large + "x"));
    assert.ok(ratio < 10, `${JSON.stringify(unit)}: 4× the text cost ${ratio.toFixed(1)}× as much`);
  }
});

test("lessonSpecifics is linear on one long run of a file name's characters (\"a.a.a…\", hyphen-joined ids)", () => {
  // The file-name pattern tried every start of such a run to its end: 4 KB 39 ms, 16 KB 507 ms (×13). A trusted lesson may be 16 KB.
  for (const unit of ["a.", "alpha-", "3f2a9c1e-7b4d-4f6a-8b9c-0d1e2f3a4b5c-", "a.b-"]) {
    const small = unit.repeat(Math.ceil(4096 / unit.length));
    const large = unit.repeat(Math.ceil(16384 / unit.length));
    const ratio = growth(() => lessonSpecifics(small), () => lessonSpecifics(large), { calls: 1, batches: 3 });
    assert.ok(ratio < 10, `${JSON.stringify(unit)}: 4× the text cost ${ratio.toFixed(1)}× as much`);
  }
  // Names in ordinary runs are still found; a run longer than any file name is a blob, not a name.
  assert.ok(lessonSpecifics("Keep src/config/app.settings.json and db.sql in sync.").has("file:app.settings.json"));
  assert.ok(!lessonSpecifics(`Pasted ${"a.".repeat(200)}ts here.`).has(`file:${"a.".repeat(200)}ts`));
});

test("the labelled pairs keep precision at or above 0.98, and semantic dedup finds more paraphrases than words alone did", () => {
  // Issue 13's bar on all pairs (eval/dedup-eval.ts prints the full table). Words alone found 53 of the 107 paraphrases.
  const pairs = readFileSync(new URL("../../eval/dedup-pairs.jsonl", import.meta.url), "utf8")
    .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as { a: string; b: string; label: string; type: string });
  assert.ok(pairs.length >= 290);
  let tp = 0;
  let fp = 0;
  let paraphrases = 0;
  for (const p of pairs) {
    if (!compareLessons(p.a, p.b).duplicate) continue;
    if (p.label === "duplicate") tp++;
    else fp++;
    if (p.type === "paraphrase") paraphrases++;
  }
  assert.ok(tp / (tp + fp) >= 0.98, `precision ${tp / (tp + fp)}`);
  assert.ok(paraphrases > 53, `paraphrases detected: ${paraphrases}`);
});

test("a named file or identifier is mentioned only as a whole name", async () => {
  const { mentions, lessonSpecifics } = await import("../../src/quality/specifics.js");
  assert.ok(mentions("add .env to .gitignore.", ".env"));
  assert.ok(!mentions("add .env.example to .gitignore.", ".env"), "a longer dotfile name is another file");
  assert.ok(mentions("delete process.env.swarm_mail_socket first", "process.env"), "an object is named by its member's path");
  assert.ok(!mentions("run migrations through client.executemultiple().", "client.execute"));
  assert.ok(mentions("see src/billing/worker.ts", "worker.ts"), "a path names the file it ends in");
  assert.ok(mentions("set strict in tsconfig.json.", "tsconfig"), "a plain name may sit inside a file name");
  assert.ok(lessonSpecifics("Keep a .dockerignore next to the Dockerfile.").has("file:.dockerignore"));
});

test("negation blocks a merge only when what it negates is something the other lesson states", () => {
  // "not safe" vs "unsafe": neither negates what the other says.
  const unsafe = compareLessons(
    "Go maps are not safe for concurrent writes; guard them with a sync.Mutex or use sync.Map.",
    "Concurrent writes to a Go map are unsafe — protect the map with a sync.Mutex, or switch to sync.Map.",
  );
  assert.ok(!unsafe.contradiction && !/negates/.test(unsafe.reason), unsafe.reason);
  const reversed = compareLessons("Mock the ORM query builder in adapter unit tests.", "Do not mock the ORM query builder in adapter unit tests; use a fake adapter.");
  assert.ok(!reversed.duplicate && reversed.contradiction);
  const swapped = compareLessons("Run npm ci in CI and Docker builds, never npm install.", "Run npm install in CI and Docker builds, never npm ci.");
  assert.ok(!swapped.duplicate && swapped.contradiction_kind === "reversed", swapped.reason);
  assert.ok(!compareLessons("Always pass bind parameters as an array, never as a lone value.", "Never pass a lone bind value; always pass the parameters as an array.").contradiction, "the same refusal, reworded");
});

test("closeness in meaning merges a clear paraphrase, never a related lesson, and never makes a contradiction", () => {
  const r = compareLessons(
    "Give every outbound fetch an AbortSignal.timeout(); undici has no overall deadline.",
    "Outgoing fetch calls need a deadline via AbortSignal.timeout(), because undici never times a request out on its own.",
  );
  assert.ok(r.duplicate && r.meaning !== undefined && r.meaning >= 0.7, r.reason);
  // Related, on one topic, close enough for the blend to pass the plain threshold: the margin keeps them apart.
  const related = compareLessons(
    "Run terraform plan with -lock-timeout=60s in CI so a held state lock fails clearly.",
    "Pass -lock-timeout=60s to terraform apply in the deploy job so parallel runs wait for the state lock.",
  );
  assert.ok(related.meaning !== undefined && related.meaning >= 0.6 && !related.duplicate, related.reason);
  // Close in meaning, few shared words, a guard that vetoes: no merge, and no contradiction (that needs shared words).
  const vetoed = compareLessons(
    "Add a request timeout to every outbound HTTP call to the payment provider.",
    "Add an idempotency key to every outbound HTTP call to the payment provider so retries never charge twice.",
  );
  assert.ok(vetoed.meaning !== undefined && vetoed.meaning >= 0.7, `meaning ${vetoed.meaning}`);
  assert.ok(!vetoed.duplicate && !vetoed.contradiction, vetoed.reason);
});

test("lessons made mostly of names the model does not know never merge on meaning", () => {
  // Only the generic words ("building", "service", "generate", "config") would be left in the vectors, and they match.
  const r = compareLessons(
    "Before building the qwhfzkd service, run pzkqmwe generate and check the jvoxa brelm tsiku config for ghoqe yuzzi.",
    "Before building the lmtrexo service, run akvdoip generate and check the wrunz obecl miqad config for safux nelvo.",
  );
  assert.equal(r.meaning, undefined, r.reason);
  assert.ok(!r.duplicate, r.reason);
});
