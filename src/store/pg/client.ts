// The one place that talks to the PostgreSQL driver (`pg`): a small lazy pool, named statements, timeouts, masked errors.
import { createHash } from "node:crypto";
import fs from "node:fs";
import type { Pool, PoolClient, PoolConfig, QueryConfig } from "pg";
import { CairnError } from "../../errors.js";
import { maskUrl, scrub, teamUrlParts } from "./url.js";

export type PgTlsMode = "disable" | "require" | "verify-full";

export interface PgTls {
  /** disable: plain TCP; require: encrypted, server not verified; verify-full: encrypted, certificate and host name checked. */
  mode: PgTlsMode;
  /** PEM file of the CA that signed the server's certificate (verify-full); default: the system's CAs. */
  caFile?: string;
}

export interface PgConnectOptions {
  url: string;
  /** Connections per process: a CLI, a plugin and an MCP server each need very few. */
  poolMax?: number;
  connectTimeoutMs?: number;
  /** Server-side limit on any one statement, so a stuck query frees its connection. */
  statementTimeoutMs?: number;
  /** Unset: whatever the URL's `sslmode` says. */
  tls?: PgTls;
  applicationName?: string;
}

export interface ReadOptions {
  /**
   * Once a connection has the statement, give up after this long (UNAVAILABLE). An answer that comes
   * later is dropped where it lands: the rows die young instead of flowing on into entries and caches
   * nobody is waiting for, and the connection goes back to the pool (the driver's own query_timeout
   * would destroy it). Connecting is not timed here: the caller's own bound covers it.
   */
  readTimeoutMs?: number;
}

export interface Querier {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], opts?: ReadOptions): Promise<T[]>;
  /** Several statements without parameters (migrations); `waitMs` lifts the read timeout for a long one (an index build). */
  exec(sql: string, waitMs?: number): Promise<void>;
}

// Connection-level failures: the server is down, restarting, unreachable, or the link broke.
const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300", "57014"]);
const UNAVAILABLE_TEXT =
  /connection terminated|connection ended|terminating connection|timeout exceeded|Connection is closed|server closed the connection|the database system is (starting up|shutting down|in recovery mode)|Client was closed|not queryable|connection error/i;
const RETRY_STATES = new Set(["40001", "40P01"]);

function sqlState(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

export function isUnavailableError(e: unknown): boolean {
  if (e instanceof CairnError) return e.code === "UNAVAILABLE";
  const code = sqlState(e);
  if (code && (UNAVAILABLE_ERRNOS.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith("08"))) return true;
  return UNAVAILABLE_TEXT.test((e as Error | null)?.message ?? "");
}

/** No NUL can be stored in PostgreSQL text; it becomes U+FFFD rather than failing the write. */
function bindable(v: unknown): unknown {
  if (typeof v === "string") return v.includes("\u0000") ? v.replace(/\u0000/g, "\ufffd") : v;
  if (Array.isArray(v)) return v.map(bindable);
  return v;
}

const names = new Map<string, string>();
/** Statements are prepared once per connection under a name derived from their text. */
function statementName(sql: string): string {
  let n = names.get(sql);
  if (!n) {
    n = `cairn_${createHash("sha1").update(sql).digest("hex").slice(0, 20)}`;
    if (names.size > 5000) names.clear();
    names.set(sql, n);
  }
  return n;
}

function sslOption(tls: PgTls | undefined): PoolConfig["ssl"] | undefined {
  if (!tls) return undefined;
  if (tls.mode === "disable") return false;
  if (tls.mode === "require") return { rejectUnauthorized: false };
  return { rejectUnauthorized: true, ...(tls.caFile ? { ca: fs.readFileSync(tls.caFile, "utf8") } : {}) };
}

async function run<T>(target: Pool | PoolClient, sql: string, params: readonly unknown[]): Promise<T[]> {
  const r = await target.query({ name: statementName(sql), text: sql, values: params.map(bindable) });
  return r.rows as T[];
}

function querier(c: PoolClient): Querier {
  return {
    query: <R>(sql: string, params: readonly unknown[] = []) => run<R>(c, sql, params),
    exec: async (sql: string, waitMs?: number) => {
      // The driver reads a per-query query_timeout its types do not declare.
      const long: QueryConfig & { query_timeout?: number } = { text: sql, query_timeout: waitMs };
      await c.query(waitMs ? long : sql);
    },
  };
}

export class PgClient implements Querier {
  /** The URL with its password masked: the only form that is ever shown. */
  readonly location: string;
  /** Answers that came after their read timeout and were dropped unread (doctor and tests read it). */
  lateAnswersDropped = 0;
  private poolPromise: Promise<Pool> | undefined;
  private closed = false;

  constructor(private readonly opts: PgConnectOptions) {
    this.location = maskUrl(opts.url);
  }

  /** The driver is loaded and the pool made on first use: SQLite-only users never load `pg`. */
  private pool(): Promise<Pool> {
    if (this.closed) return Promise.reject(new CairnError("UNAVAILABLE", `The connection to the team hive ${this.location} is closed.`));
    this.poolPromise ??= (async () => {
      const pg = (await import("pg")).default;
      const ssl = sslOption(this.opts.tls);
      const pool = new pg.Pool({
        connectionString: this.opts.url,
        max: this.opts.poolMax ?? 3,
        connectionTimeoutMillis: this.opts.connectTimeoutMs ?? 3000,
        statement_timeout: this.opts.statementTimeoutMs ?? 5000,
        query_timeout: (this.opts.statementTimeoutMs ?? 5000) + 1000,
        idleTimeoutMillis: 10_000,
        allowExitOnIdle: true,
        keepAlive: true,
        // A URL's own application_name (teams tell their clients apart by it) is kept.
        ...(/[?&]application_name=/.test(this.opts.url) ? {} : { application_name: this.opts.applicationName ?? "cairn" }),
        ...(ssl !== undefined ? { ssl } : {}),
      });
      // A connection the server drops (restart, pg_terminate_backend) must not crash the host process:
      // idle ones report to the pool, checked-out ones to their client; the next query then fails and is retried.
      pool.on("error", () => {});
      pool.on("connect", (client) => client.on("error", () => {}));
      return pool;
    })().catch((e: unknown) => {
      // A bad CA file or a driver that failed to load is reported, and tried again on the next call.
      this.poolPromise = undefined;
      throw new CairnError("INVALID_CONFIG", `Cannot set up the connection to the team hive ${this.location}: ${scrub((e as Error).message, this.opts.url)}`);
    });
    return this.poolPromise;
  }

  /** A driver error as a CairnError whose message never carries the password. */
  fail(e: unknown): CairnError {
    if (e instanceof CairnError) return e;
    const message = scrub((e as Error)?.message ?? String(e), this.opts.url);
    const state = sqlState(e);
    if (isUnavailableError(e)) {
      return new CairnError("UNAVAILABLE", `The team hive ${this.location} is unreachable: ${message}`, { sqlstate: state });
    }
    return new CairnError("STORE_ERROR", `The team hive ${this.location} refused a query: ${message}${whatToDo(state, this.opts.url)}`, { sqlstate: state });
  }

  async query<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = [], opts: ReadOptions = {}): Promise<T[]> {
    try {
      const pool = await this.pool();
      return await (opts.readTimeoutMs ? this.timedRead<T>(pool, sql, params, opts.readTimeoutMs) : run<T>(pool, sql, params));
    } catch (e) {
      throw this.fail(e);
    }
  }

  /**
   * The driver's callback form under our own timer: a promise chain would carry a late answer on
   * through every `await` behind it; here the callback sees the deadline passed and drops the rows.
   */
  private timedRead<T>(pool: Pool, sql: string, params: readonly unknown[], ms: number): Promise<T[]> {
    return new Promise<T[]>((resolve, reject) => {
      pool.connect((connectError, client, release) => {
        if (connectError || !client) return reject(connectError ?? new Error("connection error: no client"));
        let late = false;
        const timer = setTimeout(() => {
          late = true;
          reject(new CairnError("UNAVAILABLE", `The team hive ${this.location} is unreachable: no answer within ${ms} ms`, { readTimeoutMs: ms }));
        }, ms);
        const query: QueryConfig = { name: statementName(sql), text: sql, values: params.map(bindable) };
        client.query(query, (error: Error | null, result: { rows: unknown[] } | undefined) => {
          clearTimeout(timer);
          if (late) this.lateAnswersDropped++;
          // A connection that broke is discarded; one that merely answered late (or refused a statement) is kept.
          release(error && isUnavailableError(error) ? error : undefined);
          if (late) return;
          if (error) reject(error);
          else resolve((result?.rows ?? []) as T[]);
        });
      });
    });
  }

  async exec(sql: string): Promise<void> {
    try {
      await (await this.pool()).query(sql);
    } catch (e) {
      throw this.fail(e);
    }
  }

  /**
   * One transaction on one connection; re-run from the start on a serialization failure or
   * deadlock, so `fn` must have no effects outside the database. A connection that broke is discarded.
   */
  async transaction<T>(fn: (q: Querier) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let client: PoolClient | undefined;
      let broken: Error | undefined;
      try {
        client = await (await this.pool()).connect();
        const c = client;
        await c.query("BEGIN");
        const result = await fn(querier(c));
        await c.query("COMMIT");
        return result;
      } catch (e) {
        if (client) await client.query("ROLLBACK").catch((err: Error) => (broken = err));
        if (isUnavailableError(e)) broken = e as Error;
        if (RETRY_STATES.has(sqlState(e) ?? "") && attempt < 5) continue;
        throw this.fail(e);
      } finally {
        client?.release(broken);
      }
    }
  }

  /** Runs `fn` on one dedicated connection (session-level advisory locks live on a connection). */
  async withConnection<T>(fn: (q: Querier) => Promise<T>): Promise<T> {
    let client: PoolClient | undefined;
    let broken: Error | undefined;
    try {
      client = await (await this.pool()).connect();
      const c = client;
      return await fn(querier(c));
    } catch (e) {
      if (isUnavailableError(e)) broken = e as Error;
      throw this.fail(e);
    } finally {
      client?.release(broken);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.poolPromise;
    this.poolPromise = undefined;
    if (pending) await (await pending.catch(() => undefined))?.end().catch(() => undefined);
  }
}

/** What to do about a refusal a person can fix once, by its SQLSTATE ("" when there is nothing to add). */
function whatToDo(state: string | undefined, url: string): string {
  const parts = state === "3D000" ? teamUrlParts(url) : undefined;
  if (!parts?.database) return "";
  const { database: db, user } = parts;
  const ident = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`);
  return `. Create it once, as a PostgreSQL superuser: CREATE DATABASE ${ident(db)}${user ? ` OWNER ${ident(user)}` : ""}; — then run the command again`;
}
