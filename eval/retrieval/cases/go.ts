// Go contexts and the lessons each should surface.
import { caseFactory, type CaseSpec } from "../spec.js";

const c = caseFactory("go", ["go"]);

export const goCases: CaseSpec[] = [
  c(1, "Phase 2: Parallel ingest", "Every goroutine in the shard loader ends up processing the same shard", ["internal/ingest/loader.go", "go.mod"], "go.mod still says go 1.21", ["go.loopvar"]),
  c(2, "Phase 3: Ingest stability", "The goroutine count keeps climbing in the importer", ["internal/ingest/importer.go"], "go vet mentions lostcancel somewhere", ["go.ctx-cancel"]),
  c(3, "Phase 3: Error handling", "Callers log 'failed: <nil>' even though the charge succeeded", ["internal/payments/charge.go"], "", ["go.nil-interface"]),
  c(4, "Phase 4: Sync client", "The sync client runs out of connections after a few hours", ["internal/sync/client.go"], "netstat shows lots of sockets in CLOSE_WAIT", ["go.http-body-close"]),
  c(5, "Phase 4: Upstream resilience", "Handlers block forever when the pricing service stops answering", ["internal/api/pricing.go"], "", ["go.default-http-client"]),
  c(6, "Phase 2: Fan-out", "Call the three enrichment services concurrently and give up on the first error", ["internal/enrich/enrich.go"], "", ["go.errgroup"]),
  c(7, "Phase 5: Caching", "The service crashes under load since we added the in-memory price cache", ["internal/cache/prices.go"], "fatal error: concurrent map writes", ["go.map-concurrent", "go.race-detector"]),
  c(8, "Phase 3: Error handling", "Retry logic no longer notices missing rows after the errors refactor", ["internal/storage/invoices.go"], "", ["go.errors-wrap"]),
  c(9, "Phase 3: Batching", "Batches of ids get corrupted when we split a slice into chunks", ["internal/ingest/batch.go"], "", ["go.slices-aliasing"]),
  c(10, "Phase 1: Architecture review", "Mocks for the storage layer are enormous; rethink where our interfaces are declared", ["internal/models/repository.go", "internal/api/handlers.go"], "", ["go.interface-consumer"]),
  c(11, "Phase 2: Lint setup", "Add static analysis to the repository", [".golangci.yml", "Makefile"], "", ["go.golangci"], { context_only: true }),
  c(12, "Phase 4: Database stability", "The service hangs once open database connections reach the limit", ["internal/storage/orders.go"], "", ["go.sql-rows-close"]),
  c(13, "Phase 6: Kubernetes deploy", "Handle pod termination cleanly in the API binary", ["cmd/api/main.go"], "", ["go.graceful-shutdown"], { context_only: true }),
  c(14, "Phase 5: Packaging", "HTML templates cannot be found when the binary runs inside the container", ["internal/web/templates.go", "Dockerfile"], "", ["go.embed"]),
  c(15, "Phase 2: Local development", "CI fails to build since I pointed the shared library at my local checkout", ["go.mod"], "", ["go.module-replace"]),
  c(16, "Phase 3: Partner API", "The partner thinks notifications are on for accounts where we switched them off", ["internal/partner/payload.go"], "", ["go.json-omitempty"]),
  c(17, "Phase 3: Worker pool", "go vet complains about the worker pool struct", ["internal/scheduler/pool.go"], "passes lock by value: scheduler.Pool contains sync.Mutex", ["go.struct-copy-mutex"]),
  c(18, "Phase 6: Shutdown", "The event pipeline panics while the service shuts down", ["internal/events/pipeline.go"], "panic: send on closed channel", ["go.channel-close"]),
];
