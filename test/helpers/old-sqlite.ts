// A SQLite store file as an older schema version left it, for migration tests: its migrations run (SQL and JavaScript steps), rows written as that version wrote them.
import type { Entry } from "../../src/core/entry.js";
import { SqliteDriver } from "../../src/store/driver.js";
import { MIGRATIONS } from "../../src/store/migrations.js";

/** A new file at schema `version`, open: the caller writes its rows, then closes it for a store to open. */
export function sqliteAtVersion(file: string, version: number): SqliteDriver {
  const driver = new SqliteDriver(file);
  driver.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  driver.exec("INSERT OR IGNORE INTO meta(key, value) VALUES ('entry_count', 0)");
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) {
    driver.exec(m.sql);
    m.run?.(driver);
  }
  driver.exec(`PRAGMA user_version = ${version}`);
  return driver;
}

/** Writes `e` as a row of the next seq, its search text as the old version derived it (the lesson alone by default). */
export function insertOldRow(driver: SqliteDriver, e: Entry, opts: { status?: string; searchText?: string; fingerprint: string }): void {
  driver.run(
    `INSERT INTO entries(seq, id, tier, created_at, lesson, category, kind, status, scope, priority, confidence, fingerprint, updated_at, search_text, data)
     VALUES ((SELECT value + 1 FROM meta WHERE key = 'last_seq'), ?, ?, ?, ?, ?, ?, ?, 'global', 'medium', 0.5, ?, ?, ?, ?)`,
    [e.id, e.tier, e.created_at, e.lesson, e.category, e.kind, opts.status ?? "established", opts.fingerprint, e.updated_at, opts.searchText ?? e.lesson, JSON.stringify(e)],
  );
}
