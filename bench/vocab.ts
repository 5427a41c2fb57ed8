// Word lists for generated benchmark lessons: stacks, domains, identifiers, symptoms and fixes of real projects.

export interface Stack {
  name: string;
  ext: string;
  tools: readonly string[];
}

export const STACKS: readonly Stack[] = [
  { name: "typescript", ext: "ts", tools: ["tsc", "vitest", "eslint", "zod", "prisma", "tsx", "esbuild", "pnpm", "jest", "ts-node"] },
  { name: "react", ext: "tsx", tools: ["useEffect", "useMemo", "React Query", "Redux", "Next.js", "Vite", "Storybook", "Testing Library", "Zustand", "Suspense"] },
  { name: "node", ext: "js", tools: ["express", "fastify", "undici", "BullMQ", "pino", "node:test", "worker_threads", "npm ci", "libsql", "better-sqlite3"] },
  { name: "python", ext: "py", tools: ["pytest", "FastAPI", "SQLAlchemy", "pydantic", "asyncio", "celery", "mypy", "ruff", "poetry", "uvicorn"] },
  { name: "go", ext: "go", tools: ["goroutines", "context.Context", "sqlx", "gRPC", "go test -race", "golangci-lint", "errgroup", "cobra", "chi", "pgx"] },
  { name: "rust", ext: "rs", tools: ["tokio", "serde", "sqlx", "clippy", "cargo nextest", "axum", "anyhow", "rayon", "tracing", "reqwest"] },
  { name: "java", ext: "java", tools: ["Spring Boot", "Hibernate", "JUnit 5", "Gradle", "Maven", "Jackson", "Flyway", "Testcontainers", "Kafka Streams", "Micrometer"] },
  { name: "ruby", ext: "rb", tools: ["Rails", "RSpec", "Sidekiq", "ActiveRecord", "Bundler", "Puma", "rubocop", "Devise", "Capybara", "Rake"] },
  { name: "postgres", ext: "sql", tools: ["pg_dump", "EXPLAIN ANALYZE", "pgbouncer", "VACUUM", "partial indexes", "advisory locks", "logical replication", "jsonb", "CTEs", "statement_timeout"] },
  { name: "kubernetes", ext: "yaml", tools: ["kubectl", "Helm", "readiness probes", "HPA", "ConfigMaps", "init containers", "PodDisruptionBudget", "kustomize", "Argo CD", "liveness probes"] },
  { name: "terraform", ext: "tf", tools: ["terraform plan", "state locking", "modules", "workspaces", "tflint", "remote backends", "for_each", "data sources", "import blocks", "provider pinning"] },
  { name: "docker", ext: "Dockerfile", tools: ["multi-stage builds", "BuildKit", "docker compose", "layer caching", "healthchecks", ".dockerignore", "distroless images", "buildx", "volumes", "non-root users"] },
];

export const DOMAINS = [
  "auth", "billing", "checkout", "invoices", "payments", "ledger", "search", "catalog", "inventory", "shipping",
  "notifications", "email", "webhooks", "sessions", "uploads", "media", "reports", "analytics", "metrics", "audit",
  "scheduler", "queue", "cache", "gateway", "profiles", "permissions", "tenancy", "pricing", "discounts", "refunds",
  "exports", "imports", "sync", "onboarding", "feature-flags", "rate-limits", "geo", "i18n", "comments", "chat",
];

export const MODULE_KINDS = ["service", "handler", "client", "worker", "repository", "middleware", "controller", "resolver", "adapter", "schema", "mapper", "store"];

export const VERBS = ["get", "fetch", "load", "parse", "validate", "build", "sync", "resolve", "render", "create", "update", "apply", "compute", "normalize", "serialize", "refresh", "retry", "flush", "merge", "enqueue"];
export const NOUNS = ["User", "Order", "Invoice", "Session", "Account", "Payment", "Tenant", "Report", "Event", "Webhook", "Cart", "Price", "Job", "Profile", "Permission", "Upload", "Message", "Schema", "Config", "Snapshot"];
export const SUFFIXES = ["", "ById", "Async", "Handler", "Batch", "Cached", "WithRetry", "ForTenant", "Stream", "Safe"];

export const SYMPTOMS = [
  "times out under load", "returns stale data after a deploy", "double-writes rows on retry", "leaks connections when the request is aborted",
  "drops events during a rebalance", "deadlocks with the nightly batch job", "crashes on an empty payload", "reports the wrong timezone",
  "blocks the event loop for seconds", "hangs when the upstream closes the socket", "loses the last message on shutdown", "fails only on CI runners",
  "produces flaky snapshots", "exhausts the connection pool", "silently swallows the error", "reads a null before the guard runs",
  "serialises dates as strings", "orders results nondeterministically", "retries forever on a 4xx", "runs the migration twice",
  "ignores the tenant filter", "caches across tenants", "overflows a 32-bit counter", "throws on unicode file names",
];

export const CONDITIONS = [
  "two workers pick up the same job", "the cache is cold", "the clock jumps during DST", "the payload exceeds the body limit",
  "the replica lags behind the primary", "a request is cancelled mid-flight", "the feature flag is toggled at runtime", "tests run in parallel",
  "the container restarts", "the token expires during a long upload", "the network partitions for a few seconds", "the table has millions of rows",
  "the locale is not en-US", "the queue backs up", "an index is missing", "a retry races the original request",
];

export const FIXES = [
  "wrap the call in a transaction", "add an idempotency key", "set an explicit timeout", "check for null before dereferencing",
  "pass the tenant id down explicitly", "use a unique constraint instead of a read-then-write", "add a partial index", "pin the dependency version",
  "await the promise instead of firing and forgetting", "close the handle in a finally block", "batch the writes", "add jitter to the backoff",
  "validate the input with a schema at the boundary", "move the work to a background queue", "invalidate the cache key on write", "use UTC everywhere in storage",
  "add a regression test that reproduces it", "log the correlation id", "guard the handler with a circuit breaker", "stream the response instead of buffering it",
  "use a monotonic clock for durations", "make the consumer commit offsets after processing", "read the config once at startup", "sort by a unique column as a tiebreaker",
];

export const REASONS = [
  "it halves p99 latency", "it keeps retries safe", "the old approach broke under concurrency", "support tickets dropped after the change",
  "it makes failures visible in the logs", "the schema stays the single source of truth", "it survived a week of production traffic", "reviewers kept missing it",
];

export const PHASES = ["Setup", "Design", "Implementation", "Testing", "Hardening", "Performance", "Integration", "Release", "Debugging", "Refactor", "Migration", "Security review"];

export const USER_MESSAGES = [
  "the tests are failing again on CI, can you look", "why is this endpoint so slow", "please add retries but keep it idempotent",
  "we decided to move this to the queue", "this broke after the last deploy", "can you refactor this without changing behaviour",
  "make sure we do not leak tenant data", "the migration ran twice in staging", "add a test for the null case", "keep the public API stable",
];

export const PROJECTS = [
  "storefront", "ledger-core", "mobile-api", "data-platform", "ops-portal", "search-svc", "billing-v2", "identity", "growth-web", "infra-live",
  "partner-api", "warehouse", "notif-hub", "design-system", "analytics-etl", "support-desk", "pricing-engine", "geo-tiles", "media-svc", "cli-tools",
];
