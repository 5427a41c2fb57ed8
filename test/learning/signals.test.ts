// Unit tests of the outcome signals: the implicit score against Memory Lane's table, and the memory-catcher extraction rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { implicitScore, OutcomeSchema, type OutcomeInput } from "../../src/learning/outcome.js";
import { entitiesFromPaths, extractionConfidence, extractLessons } from "../../src/learning/extract.js";
import path from "node:path";
import { withWorld } from "./helpers.js";

const MIN = 60_000;

/** The document's table read independently of the engine: fast < 5 min, medium 5–30, slow > 30. */
function documentScore(o: { success: boolean; duration_ms: number; error_count: number; retry_count: number }): number {
  const duration = o.duration_ms < 5 * MIN ? 1.0 : o.duration_ms <= 30 * MIN ? 0.6 : 0.2;
  const errors = o.error_count === 0 ? 1.0 : o.error_count <= 2 ? 0.6 : 0.2;
  const retries = o.retry_count === 0 ? 1.0 : o.retry_count === 1 ? 0.7 : 0.3;
  return (o.success ? 1 : 0) * 0.4 + duration * 0.2 + errors * 0.2 + retries * 0.2;
}

test("implicit score: every combination of signals matches the document's weights and thresholds", () => {
  const verdicts = new Map<string, number>();
  for (const success of [true, false]) {
    for (const duration_ms of [0, 4 * MIN, 5 * MIN, 30 * MIN, 31 * MIN]) {
      for (const error_count of [0, 1, 2, 3, 50]) {
        for (const retry_count of [0, 1, 2, 9]) {
          const o = { success, duration_ms, error_count, retry_count };
          const expected = documentScore(o);
          const got = implicitScore(o);
          assert.ok(Math.abs(got.score - expected) < 1e-9, `${JSON.stringify(o)}: ${got.score} vs ${expected}`);
          const want = expected >= 0.7 - 1e-9 ? "helpful" : expected <= 0.4 + 1e-9 ? "harmful" : "neutral";
          assert.equal(got.verdict, want, JSON.stringify(o));
          verdicts.set(want, (verdicts.get(want) ?? 0) + 1);
        }
      }
    }
  }
  assert.deepEqual([...verdicts.keys()].sort(), ["harmful", "helpful", "neutral"], "the grid reaches all three verdicts");
});

test("implicit score: the boundaries sit exactly at 0.7 (helpful) and the document's worked example is helpful", () => {
  // success, slow, two errors, one retry: 0.4 + 0.04 + 0.12 + 0.14 = 0.70 exactly.
  const edge = implicitScore({ success: true, duration_ms: 45 * MIN, error_count: 2, retry_count: 1 });
  assert.equal(edge.score, 0.7);
  assert.equal(edge.verdict, "helpful");
  // One step worse on retries drops below the threshold.
  assert.equal(implicitScore({ success: true, duration_ms: 45 * MIN, error_count: 2, retry_count: 2 }).verdict, "neutral");
  // Failure with medium duration, few errors, one retry: 0.38, harmful.
  const bad = implicitScore({ success: false, duration_ms: 10 * MIN, error_count: 1, retry_count: 1 });
  assert.equal(bad.score, 0.38);
  assert.equal(bad.verdict, "harmful");
  // A clean failure (fast, no errors, no retries) scores 0.6: neutral, so it blames nobody.
  assert.equal(implicitScore({ success: false, duration_ms: MIN, error_count: 0, retry_count: 0 }).verdict, "neutral");
  // §6.7.6: OAuth flow, 3 minutes, 2 errors, no retries, success.
  const oauth = implicitScore({ success: true, duration_ms: 180_000, error_count: 2, retry_count: 0 });
  assert.equal(oauth.verdict, "helpful");
});

const outcome = (o: OutcomeInput) => OutcomeSchema.parse({ id: "o-test", ...o });
const kinds = (o: OutcomeInput) => extractLessons(outcome(o)).map((l) => [l.kind, l.lesson]);

test("extraction: an error recovered becomes a correction, with the files' entities", () => {
  // The document's own example (§6.7.6).
  const o = outcome({
    task: "OAuth login flow implemented with JWT",
    success: true,
    duration_ms: 180_000,
    error_count: 2,
    files_touched: ["src/auth/service.ts", "src/auth/schema.ts"],
    evaluation: "Used 5min refresh buffer to prevent race conditions. Build initially failed with 2 TS errors, fixed by adding types.",
  });
  const lessons = extractLessons(o);
  assert.deepEqual(lessons.map((l) => l.kind), ["correction"]);
  assert.match(lessons[0]!.lesson, /fixed by adding types/);
  assert.deepEqual(lessons[0]!.entities, ["feature:auth"]);
  assert.equal(lessons[0]!.auto_generated, true);
  assert.deepEqual(lessons[0]!.derived_from, { kind: "outcome", ref: "o-test" });
  // The same sentence without an error recovered teaches nothing by this rule.
  assert.deepEqual(extractLessons({ ...o, error_count: 0 }), []);
  assert.deepEqual(extractLessons({ ...o, success: false }), []);
});

test("extraction: a config or setup file touched turns a choice into a decision", () => {
  const summary = "Switched the dev server to port 5174 so it no longer clashes with the Storybook instance.";
  for (const file of ["vite.config.ts", "jest.config.js", "config/database.yml", "src/config/db.ts", "setup.py", ".eslintrc.json"]) {
    assert.deepEqual(kinds({ task: "dev server port", success: true, files_touched: [file], summary }), [["decision", summary]], file);
  }
  assert.deepEqual(kinds({ task: "dev server port", success: true, files_touched: ["src/server/index.ts"], summary }), [], "not a config file");
});

test("extraction: discovery, commitment and gap words pick their kinds; a plain summary yields nothing", () => {
  const files = ["src/payments/charge.ts"];
  assert.deepEqual(
    kinds({ task: "sandbox", success: true, files_touched: files, evaluation: "Discovered that the payment sandbox rejects amounts below 50 cents with a generic error." }).map((k) => k[0]),
    ["insight"],
  );
  assert.deepEqual(
    kinds({ task: "types", success: true, files_touched: files, evaluation: "Unexpected: the webhook retries arrive out of order after a deploy." }).map((k) => k[0]),
    ["insight"],
  );
  assert.deepEqual(
    kinds({ task: "types", success: true, files_touched: files, evaluation: "Always regenerate the API types before committing a schema change." }).map((k) => k[0]),
    ["commitment"],
  );
  assert.deepEqual(
    kinds({ task: "types", success: true, files_touched: files, evaluation: "Prefer the idempotency key header over client-side dedup for retried charges." }).map((k) => k[0]),
    ["commitment"],
  );
  assert.deepEqual(
    kinds({ task: "failover", success: true, files_touched: files, evaluation: "The staging cluster is missing the Redis sentinel config, so failover cannot be rehearsed there." }).map((k) => k[0]),
    ["gap"],
  );
  assert.deepEqual(
    kinds({ task: "failover", success: true, files_touched: files, evaluation: "The SDK is lacking a streaming upload API for files above 5 GB." }).map((k) => k[0]),
    ["gap"],
  );
  assert.deepEqual(kinds({ task: "endpoint", success: true, files_touched: files, summary: "Implemented the refund endpoint and its tests." }), []);
});

test("extraction: entities from paths — features under src/lib/app, projects under packages/apps/services", () => {
  assert.deepEqual(entitiesFromPaths(["src/auth/login.ts", "./src/auth/session.ts"]), ["feature:auth"]);
  assert.deepEqual(entitiesFromPaths(["packages/billing/README.md"]), ["project:billing"]);
  assert.deepEqual(entitiesFromPaths(["packages/billing/src/invoices/pdf.ts"]).sort(), ["feature:invoices", "project:billing"]);
  assert.deepEqual(entitiesFromPaths(["apps/Web/pages/index.tsx", "services/api/main.go"]).sort(), ["project:api", "project:web"]);
  assert.deepEqual(entitiesFromPaths(["src\\search\\index.ts"]), ["feature:search"], "Windows separators");
  assert.deepEqual(entitiesFromPaths(["README.md", "src/index.ts"]), [], "files directly under src name no feature");
});

test("extraction: entities from nested and Windows paths name the feature folder, never src, lib or app themselves", () => {
  // A monorepo package whose own code sits under src/: the feature is the folder under that src.
  assert.deepEqual(entitiesFromPaths(["packages/app/src/auth/session.ts"]).sort(), ["feature:auth", "project:app"]);
  assert.deepEqual(entitiesFromPaths(["packages/lib/src/db/pool.ts"]).sort(), ["feature:db", "project:lib"]);
  assert.deepEqual(entitiesFromPaths(["app/src/auth/session.ts"]), ["feature:auth"]);
  assert.deepEqual(entitiesFromPaths(["src/lib/auth/session.ts"]), ["feature:auth"]);
  // A Windows path of a checkout that itself lives in a folder called app.
  assert.deepEqual(entitiesFromPaths(["C:\\Users\\me\\repos\\app\\src\\auth\\session.ts"]), ["feature:auth"]);
});

test("extraction: absolute paths inside the project (as agents pass them) give project-relative globs and entities", async () => {
  await withWorld(async ({ cairn, sb }) => {
    await cairn.recordOutcome({
      id: "o-abs", task: "session refresh", success: true, error_count: 1, duration_ms: 20_000,
      files_touched: [path.join(sb.projectDir, "src", "auth", "session.ts")],
      evaluation: "The build failed because SessionData lacked refreshToken; fixed by adding the field to the auth types.",
    });
    await cairn.reflect();
    const [lesson] = await cairn.list();
    assert.ok(lesson, "the outcome became a lesson");
    assert.deepEqual(lesson.applicability.file_globs, ["src/auth/**"], "globs are written relative to the project, as advisories and injection match them");
    assert.deepEqual(lesson.entities, ["feature:auth"]);
    const block = await cairn.inject({ task: "rework the session refresh", files: ["src/auth/session.ts"] });
    assert.ok(block.entries.some((e) => e.id === lesson.id), "the lesson comes back when its files are in play again");
  });
});

test("extraction: confidence is 70 + 15 (recovered) + 10 (under 30 s) + 15 (over two sentences) + kind boost, clamped", () => {
  const base = outcome({ task: "t", success: true });
  assert.equal(extractionConfidence(base, 1, 0), 0.7);
  assert.equal(extractionConfidence({ ...base, error_count: 1 }, 1, 0), 0.85);
  assert.equal(extractionConfidence({ ...base, error_count: 1, success: false }, 1, 0), 0.7, "errors without success are no recovery");
  assert.equal(extractionConfidence({ ...base, duration_ms: 29_999 }, 1, 0), 0.8);
  assert.equal(extractionConfidence({ ...base, duration_ms: 30_000 }, 1, 0), 0.7);
  assert.equal(extractionConfidence(base, 3, 0), 0.85);
  assert.equal(extractionConfidence(base, 2, 0), 0.7);
  assert.equal(extractionConfidence({ ...base, error_count: 1, duration_ms: 1000 }, 3, 15), 1, "125 clamps to 100");
  assert.equal(extractionConfidence(base, 0, -200), 0, "clamped at 0 too");
  // Stored confidence stays below certainty: an automatic lesson is never 100% sure.
  const [lesson] = extractLessons(
    outcome({
      task: "t", success: true, error_count: 1, duration_ms: 1000, files_touched: ["src/a/b.ts"],
      evaluation: "Never call the ledger API without an idempotency key. The first run failed twice. It passed after the fix.",
    }),
  );
  assert.equal(lesson!.kind, "commitment");
  assert.equal(lesson!.confidence, 0.95);
});

test("extraction: kind boosts follow the document's table (commitment +15, gap +10, decision +10, insight +5)", () => {
  const one = (evaluation: string, files: string[] = ["src/x/y.ts"]) =>
    extractLessons(outcome({ task: "t", success: true, files_touched: files, evaluation }))[0]!;
  assert.equal(one("Always pin the Terraform provider version in the lock file.").confidence, 0.85);
  assert.equal(one("The CLI is missing a dry-run flag for destructive migrations.").confidence, 0.8);
  assert.equal(one("Discovered that the image CDN strips EXIF data from uploads.").confidence, 0.75);
  assert.equal(one("Switched the test runner to run files in parallel shards.", ["vitest.config.ts"]).confidence, 0.8);
});

test("a lesson extracted from a task in a feature-folder layout (src/features/<name>/, src/modules/<name>/) is about that feature, not feature:features", async () => {
  // Seed 003 Phase 3: "extract project/feature slugs from files_touched" — features/ and modules/ only hold features.
  await withWorld(async ({ cairn }) => {
    await cairn.recordOutcome({
      id: "o-feature-folders",
      task: "Fix the login redirect",
      success: true,
      duration_ms: 60_000,
      files_touched: ["src/features/auth/login.ts", "packages/billing/src/modules/invoices/pdf.ts"],
      evaluation: "Always run prisma generate before starting the API dev server after editing schema.prisma.",
    });
    assert.equal((await cairn.reflect()).lessons_added, 1);
    const [lesson] = await cairn.list({});
    assert.deepEqual([...lesson!.entities].sort(), ["feature:auth", "feature:invoices", "project:billing"]);
  });
  assert.deepEqual(entitiesFromPaths(["src/features/index.ts"]), [], "a file directly in features/ names no feature");
  assert.deepEqual(entitiesFromPaths(["src/components/Button.tsx"]), ["feature:components"], "other folders under src are unchanged");
});

test("extraction: the memory-catcher's words count in the forms people write them (prefers, preferred, lacked, discovery, unexpectedly)", () => {
  const files = ["src/payments/charge.ts"];
  const kindOf = (evaluation: string) => kinds({ task: "t", success: true, files_touched: files, evaluation }).map((k) => k[0]);
  // Without the exact word the sentence carried no signal and the lesson was lost (a plain summary yields nothing).
  assert.deepEqual(kindOf("The team prefers named exports in the payments module so tree-shaking drops unused charge helpers."), ["commitment"]);
  assert.deepEqual(kindOf("Reviewers preferred the idempotency key header over client-side dedup for retried charges."), ["commitment"]);
  assert.deepEqual(kindOf("The staging cluster lacked the Redis sentinel config, so failover could not be rehearsed there."), ["gap"]);
  assert.deepEqual(kindOf("Key discovery: the payment sandbox rejects amounts below 50 cents with a generic error."), ["insight"]);
  assert.deepEqual(kindOf("The webhook retries unexpectedly arrive out of order after a deploy of the charge worker."), ["insight"]);
});
