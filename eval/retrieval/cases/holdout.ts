// Held-out contexts, written after the ranking was tuned and never tuned against: the honest check on overfitting.
import { caseFactory, type CaseSpec } from "../spec.js";

const ts = caseFactory("ho-ts", ["typescript", "node"]);
const re = caseFactory("ho-re", ["react", "typescript"]);
const py = caseFactory("ho-py", ["python", "django"]);
const go = caseFactory("ho-go", ["go"]);
const rs = caseFactory("ho-rs", ["rust"]);
const pg = caseFactory("ho-pg", ["postgres"]);
const k8s = caseFactory("ho-k8s", ["docker", "kubernetes"]);
const ci = caseFactory("ho-ci", ["git", "github-actions"]);
const sec = caseFactory("ho-sec", ["typescript", "node"]);
const mem = caseFactory("ho-mem", ["typescript", "bun"]);

export const holdoutCases: CaseSpec[] = [
  ts(1, "Phase 2: Routing table", "Type the map of route names to handlers without losing the literal route keys", ["src/routes/table.ts"], "autocomplete stopped working on route names", ["ts.satisfies"]),
  ts(2, "Phase 4: Error reporting", "Sentry only shows our wrapper message, the database error underneath is gone", ["src/lib/errors.ts", "src/db/client.ts"], "", ["ts.error-cause"]),
  ts(3, "Phase 3: Invoice totals", "Invoice totals are off by a cent compared with the line items", ["src/billing/totals.ts"], "we multiply price by quantity and add tax", ["ts.decimal-money"]),
  ts(4, "Phase 1: Dev tooling", "The dev server breaks every time we bump Node; pick a different way to run TypeScript directly", ["package.json"], "currently ts-node --esm", ["ts.hot-reload-tsx"]),
  re(1, "Phase 4: Lazy routes", "The whole layout goes blank while the reports page chunk loads", ["src/app/routes.tsx"], "", ["re.suspense-boundary"]),
  re(2, "Phase 5: Landing page speed", "Lighthouse flags content jumping around while images load on the landing page", ["src/pages/Landing.tsx"], "CLS is 0.31", ["re.image-layout-shift"]),
  re(3, "Phase 3: Storybook", "Stories for the invoice list show different data than the component tests use", [".storybook/preview.ts", "src/mocks/handlers.ts"], "", ["re.storybook-msw"], { context_only: true }),
  py(1, "Phase 2: Typing", "Turn on strict static type checking for the new payments module", ["payments/service.py", "mypy.ini"], "", ["py.type-hints-mypy"]),
  py(2, "Phase 3: Activity feed API", "The activity feed endpoint times out on page 400 for big accounts", ["feed/api.py"], "we use PageNumberPagination", ["py.drf-pagination"]),
  py(3, "Phase 4: Container image", "Shrink the Django API image, it is over a gigabyte", ["Dockerfile"], "", ["py.venv-docker"]),
  go(1, "Phase 3: Tests", "Restructure the parser tests so a failure says which input broke", ["internal/parser/parser_test.go"], "", ["go.table-tests"]),
  go(2, "Phase 5: Allocation profile", "The event loop's select allocates a timer on every iteration according to the memory profile", ["internal/events/loop.go"], "", ["go.time-ticker"]),
  go(3, "Phase 5: Performance", "One endpoint got slow after the last release; find out where the CPU goes", ["cmd/api/main.go"], "", ["go.pprof"]),
  rs(1, "Phase 4: Lint gate", "Make warnings fail the Rust build in CI", [".github/workflows/ci.yml"], "", ["rs.clippy-ci"]),
  rs(2, "Phase 5: Throughput", "Spawned tasks each copy the big settings struct and it shows in the profile", ["crates/gateway/src/main.rs"], "", ["rs.clone-arc"]),
  rs(3, "Phase 2: App state", "Borrow checker errors everywhere after storing a &str in the long-lived connection state", ["crates/gateway/src/state.rs"], "", ["rs.lifetimes-owned"]),
  pg(1, "Phase 3: Reporting role", "A report query ran for an hour and held locks; put a ceiling on how long app queries may run", ["db/roles.sql"], "", ["pg.statement-timeout"]),
  pg(2, "Phase 4: Badge counts", "The unread badge needs the number of audit rows and the count query is slow", ["db/queries/audit_count.sql"], "", ["pg.count-slow"]),
  pg(3, "Phase 5: Retention", "The nightly purge of old events takes hours and leaves the table bloated", ["db/jobs/purge_events.sql"], "", ["pg.partition-events"]),
  pg(4, "Phase 2: Staging data", "Load last night's production dump into staging", ["scripts/restore-staging.sh"], "pg_restore fails with 'role does not exist'", ["pg.pg-dump-restore"]),
  k8s(1, "Phase 6: Rollouts", "A bad rollout briefly left us with fewer API pods than we need", ["k8s/api/deployment.yaml"], "", ["k8s.rolling-update-surge"]),
  k8s(2, "Phase 6: Image pinning", "Production pods started behaving differently although nobody deployed", ["k8s/api/deployment.yaml"], "image: registry.internal/api:latest", ["dk.latest-tag"]),
  ci(1, "Phase 3: Merge policy", "git bisect keeps landing on huge merge commits; change how PRs get merged", [], "", ["ci.rebase-vs-merge"]),
  ci(2, "Phase 4: Storage quota", "Artifact uploads in Actions fail because the organisation is out of storage", [".github/workflows/build.yml"], "", ["ci.artifact-retention"]),
  ci(3, "Phase 2: CI minutes", "Docs-only pull requests still run the whole backend test suite", [".github/workflows/backend.yml"], "", ["ci.monorepo-paths"]),
  sec(1, "Phase 4: Hardening headers", "Stop inline scripts from running if someone manages to inject markup", ["src/middleware/headers.ts"], "", ["sec.csp"]),
  sec(2, "Phase 3: Admin accounts", "Require a second factor for admin logins", ["src/admin/auth.ts"], "", ["sec.2fa-backup"]),
  mem(1, "Phase 3: Daemon", "Two CLI processes opening the embedded Postgres at once corrupt its data directory", ["src/daemon/server.ts"], "", ["d47252c9-654a-4dea-913b-991951101d2a"]),
  mem(2, "Phase 3: Ready queue", "Closing a blocking cell leaves its dependents listed as blocked", ["src/hive/handlers.ts"], "", ["1ffca519-0ca2-4df7-b6bf-603c2001327f"]),
  mem(3, "Phase 2: Decomposition", "Subtask dependencies break when the coordinator reorders or inserts subtasks", ["src/swarm/decompose.ts"], "", ["e84c9135-1eb8-417b-a753-6ff71b0becda"]),
  mem(4, "Phase 4: Memory tests", "The memory adapter tests fail with no such table although the in-memory DB helper ran", ["src/memory/adapter.test.ts"], "I use createInMemoryDb()", ["7854d43a-abae-4b11-84cd-c24165d81999"]),
  mem(5, "Phase 4: PR review", "Triage a pull request with sixty bot review comments without blowing the context window", [], "", ["a43fb38d-b67c-40df-9a28-02d5e5ca529b"]),
];
