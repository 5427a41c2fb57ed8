// PostgreSQL contexts and the lessons each should surface.
import { caseFactory, type CaseSpec } from "../spec.js";

const c = caseFactory("pg", ["postgres"]);

export const postgresCases: CaseSpec[] = [
  c(1, "Phase 3: Search speed", "Add an index on events.account_id without downtime", ["db/migrations/20250301_events_account_idx.sql"], "", ["pg.concurrent-index", "pg.lock-timeout"]),
  c(2, "Phase 4: Migration safety", "Yesterday's ALTER TABLE made the whole API hang for minutes", ["db/migrations/20250214_orders_add_note.sql"], "", ["pg.lock-timeout"]),
  c(3, "Phase 5: Scaling out", "New pods cannot connect to the database after scaling the API to 40 replicas", ["k8s/api/deployment.yaml", "src/db/pool.ts"], "FATAL: sorry, too many clients already", ["pg.pool-size"]),
  c(4, "Phase 5: Connection pooling", "Queries fail now and then since we put the pooler in front of Postgres", ["src/db/pool.ts", "infra/pgbouncer.ini"], "ERROR: prepared statement \"s3\" does not exist", ["pg.pgbouncer-prepared"]),
  c(5, "Phase 3: Slow queries", "The customer search query is slow; work out which index to add", ["db/queries/customer_search.sql"], "", ["pg.explain-analyze"]),
  c(6, "Phase 3: Product attributes", "Filtering products by a key inside the attributes json column scans the whole table", ["db/queries/products_by_attr.sql"], "", ["pg.jsonb-gin"]),
  c(7, "Phase 2: Schema design", "Create the appointments table with start and end times", ["db/migrations/20250110_appointments.sql"], "", ["pg.timestamptz"]),
  c(8, "Phase 2: Schema design", "Choose the primary key type for the high-volume telemetry table", ["db/migrations/20250112_telemetry.sql"], "", ["pg.uuid-v7"]),
  c(9, "Phase 5: Disk usage", "The jobs table keeps growing although rows are deleted", ["db/jobs.sql"], "pg_stat_activity shows a session idle in transaction since Monday", ["pg.vacuum-bloat"]),
  c(10, "Phase 4: Background jobs", "Several workers pulling from the jobs table block each other", ["src/jobs/queue.sql", "src/jobs/worker.ts"], "", ["pg.skip-locked"]),
  c(11, "Phase 3: Reports", "The customers-without-orders report comes back empty although such customers exist", ["db/queries/inactive_customers.sql"], "", ["pg.not-in-null"]),
  c(12, "Phase 4: GDPR deletion", "Deleting one customer account takes several minutes", ["db/queries/delete_customer.sql"], "", ["pg.fk-index"]),
  c(13, "Phase 4: Consistency", "Users do not see their own comment right after posting it", ["src/db/router.ts"], "", ["pg.read-replica-lag"]),
  c(14, "Phase 2: Multi-tenancy", "Guarantee one customer can never read another customer's rows, even if a query forgets its filter", ["db/migrations/20250120_tenant_policies.sql"], "", ["pg.rls-tenants"]),
  c(15, "Phase 4: Transfers", "The balance transfer job fails intermittently under load", ["src/jobs/transfers.sql"], "ERROR: deadlock detected", ["pg.deadlock-order"]),
  c(16, "Phase 3: Autocomplete", "Prefix search on product names does not use the index", ["db/queries/autocomplete.sql"], "", ["pg.like-index"]),
  c(17, "Phase 2: Status values", "Add a 'refunded' state to the order status type", ["db/migrations/20250220_order_status_refunded.sql"], "", ["pg.enum-alter"], { context_only: true }),
];
