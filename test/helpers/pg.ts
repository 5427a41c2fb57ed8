// PostgreSQL for tests: the server from CAIRN_TEST_PG (in CI the local one, required), one throwaway schema per use.
import { randomBytes } from "node:crypto";
import pg from "pg";

const CI_DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** Where PostgreSQL tests connect, or undefined when they are not enabled (outside CI, without CAIRN_TEST_PG). */
export function pgTestUrl(): string | undefined {
  const url = process.env.CAIRN_TEST_PG?.trim();
  if (url) return url;
  return process.env.CI === "true" || process.env.CI === "1" ? CI_DEFAULT_URL : undefined;
}

let announced = false;
/**
 * `{ skip: reason }` when PostgreSQL tests are not enabled here, printing the one line that says
 * how to enable them; `{}` when they run. In CI they always run, and fail if the server is down.
 */
export function pgTestOptions(): { skip?: string } {
  if (pgTestUrl()) return {};
  const reason = "PostgreSQL tests skipped: set CAIRN_TEST_PG=postgres://postgres@127.0.0.1:5432/postgres (or run with CI=true) to run them";
  if (!announced) {
    announced = true;
    process.stderr.write(`${reason}\n`);
  }
  return { skip: "PostgreSQL not enabled (set CAIRN_TEST_PG)" };
}

/** A schema name no other run uses: tests of several engineers share one server. */
export function uniqueSchema(tag: string): string {
  return `cairn_t_${tag}_${process.pid}_${randomBytes(4).toString("hex")}`.toLowerCase().slice(0, 63);
}

/** Drops a schema this run created (and only that: the name must carry the test prefix). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  if (!/^cairn_t_[a-z0-9_]+$/.test(schema)) throw new Error(`refusing to drop ${schema}: not a test schema`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** One statement as the test's superuser (inspecting rows, terminating backends). */
export async function adminQuery<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
