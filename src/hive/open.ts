// Where the hive lives (a file, or a team database on PostgreSQL) and how a PostgreSQL store is opened from config.
import type { CairnConfig } from "../config.js";
import { PostgresStore, type PgStoreOptions } from "../store/pg/pg-store.js";
import type { Store } from "../store/store.js";
import { TeamHiveStore } from "./team-hive.js";

/** Connection settings for a PostgreSQL hive from the `hive_postgres` config. */
export function postgresOptions(url: string, config: CairnConfig): PgStoreOptions {
  const p = config.hive_postgres;
  return {
    url,
    schema: p.schema,
    poolMax: p.pool_max,
    connectTimeoutMs: p.connect_timeout_ms,
    statementTimeoutMs: p.statement_timeout_ms,
    ...(p.tls !== "url" ? { tls: { mode: p.tls, ...(p.tls_ca_file ? { caFile: p.tls_ca_file } : {}) } } : {}),
  };
}

/** The team hive for one project: PostgreSQL behind timeouts and a cache, with that project's outbox. */
export function openTeamHive(url: string, config: CairnConfig, outbox: Store): TeamHiveStore {
  const p = config.hive_postgres;
  return new TeamHiveStore(new PostgresStore(postgresOptions(url, config), "hive"), {
    readTimeoutMs: p.read_timeout_ms,
    connectTimeoutMs: p.connect_timeout_ms,
    retryAfterMs: p.retry_after_ms,
    cacheEntries: p.cache_entries,
    outbox,
  });
}
