// Numbered schema migrations for the SQLite store; applied in order, each exactly once.
import { CJK_SQL_CLASS, cjkIndexTokens } from "../core/cjk.js";
import type { Entry } from "../core/entry.js";
import type { SqliteDriver } from "./driver.js";
import { searchTextOf } from "./entry-columns.js";
import { readOnlyError } from "./faults.js";

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** A step SQL cannot express (text the engine derives in JavaScript), run after `sql` in the same transaction. */
  run?: (db: SqliteDriver) => void;
}

/**
 * Rows whose search text holds CJK characters get the search text this version derives: their runs'
 * character pairs (core/cjk.ts). The update trigger takes the old tokens out of the index and puts
 * the new ones in. Other rows are not read into JavaScript; their text is unchanged.
 */
function reindexCjkRows(db: SqliteDriver): void {
  const rows = db.all<{ seq: number; data: string; search_text: string }>(
    `SELECT seq, data, search_text FROM entries WHERE search_text GLOB '*${CJK_SQL_CLASS}*'`,
  );
  for (const r of rows) db.run("UPDATE entries SET search_text = ? WHERE seq = ?", [cjkSearchText(r.data, r.search_text), r.seq]);
}

/** The search text a row's entry gives now; a row whose JSON this version cannot read keeps its text, the pairs added. */
function cjkSearchText(data: string, old: string): string {
  try {
    return searchTextOf(JSON.parse(data) as Entry);
  } catch {
    return `${old}\n${cjkIndexTokens(old).join(" ")}`;
  }
}

/**
 * Rows whose search text holds CJK characters get the search text this version derives (their runs'
 * pairs and characters, core/cjk.ts). A row whose JSON cannot be read keeps its text: it already has
 * its pairs (reindexCjkRows), and appending again would count them twice.
 */
function reindexCjkCharacters(db: SqliteDriver): void {
  rederiveSearchText(db, `search_text GLOB '*${CJK_SQL_CLASS}*'`);
}

/**
 * Rows whose search text holds "indices" or "vertices" (any case: LIKE folds ASCII) get the search text this
 * version derives, the singular beside the plural (core/irregular-plurals.ts indexedSingulars).
 */
function reindexIndexedSingulars(db: SqliteDriver): void {
  rederiveSearchText(db, "search_text LIKE '%indices%' OR search_text LIKE '%vertices%'");
}

/** The rows `where` selects get the search text this version derives from their JSON; a row whose JSON cannot be read keeps its text. */
function rederiveSearchText(db: SqliteDriver, where: string): void {
  const rows = db.all<{ seq: number; data: string }>(`SELECT seq, data FROM entries WHERE ${where}`);
  for (const r of rows) {
    let text: string;
    try {
      text = searchTextOf(JSON.parse(r.data) as Entry);
    } catch {
      continue;
    }
    db.run("UPDATE entries SET search_text = ? WHERE seq = ?", [text, r.seq]);
  }
}

/** The creator kind of a row ("agent" of "agent:claude"), as the tallies key it; SQL over a JSON column. */
function creatorKind(data: string): string {
  const by = `json_extract(${data}, '$.provenance.created_by')`;
  return `COALESCE(NULLIF(substr(${by}, 1, instr(${by} || ':', ':') - 1), ''), 'unknown')`;
}

function tallyAdd(row: "new" | "old"): string {
  return `INSERT INTO entry_tallies(status, source, entries, shown, applied, consulted, prevented)
    VALUES (${row}.status, ${creatorKind(`${row}.data`)}, 1, ${row}.shown, ${row}.applied, ${row}.consulted, ${row}.prevented)
    ON CONFLICT(status, source) DO UPDATE SET entries = entries + 1, shown = shown + excluded.shown,
      applied = applied + excluded.applied, consulted = consulted + excluded.consulted, prevented = prevented + excluded.prevented;`;
}

function tallySubtract(row: "new" | "old"): string {
  return `UPDATE entry_tallies SET entries = entries - 1, shown = shown - ${row}.shown, applied = applied - ${row}.applied,
      consulted = consulted - ${row}.consulted, prevented = prevented - ${row}.prevented
    WHERE status = ${row}.status AND source = ${creatorKind(`${row}.data`)};`;
}

/** Migration 17: the promoted_to column, filled from each entry's latest promoted event, its index and the trigger that keeps it. */
function addPromotedTo(db: SqliteDriver): void {
  const columns = db.all<{ name: string }>("PRAGMA table_info(entries)");
  if (!columns.some((c) => c.name === "promoted_to")) db.exec("ALTER TABLE entries ADD COLUMN promoted_to TEXT");
  db.exec(`
UPDATE entries SET promoted_to = (
  SELECT json_extract(ev.data, '$.hive_id') FROM events ev
  WHERE ev.entry_id = entries.id AND ev.type = 'promoted' AND json_type(ev.data, '$.hive_id') = 'text'
  ORDER BY ev.seq DESC LIMIT 1
) WHERE id IN (SELECT entry_id FROM events WHERE type = 'promoted');
CREATE INDEX IF NOT EXISTS entries_promoted_to ON entries(promoted_to) WHERE promoted_to IS NOT NULL;
CREATE TRIGGER IF NOT EXISTS events_promoted_to_ai AFTER INSERT ON events
WHEN new.type = 'promoted' AND json_type(new.data, '$.hive_id') = 'text' BEGIN
  UPDATE entries SET promoted_to = json_extract(new.data, '$.hive_id') WHERE id = new.entry_id;
END;
`);
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "entries, fts, events, rejected",
    sql: `
CREATE TABLE entries (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,
  tier             TEXT NOT NULL,
  lesson           TEXT NOT NULL,
  category         TEXT NOT NULL,
  kind             TEXT NOT NULL,
  status           TEXT NOT NULL,
  scope            TEXT NOT NULL,
  priority         TEXT NOT NULL,
  confidence       REAL NOT NULL,
  utility          REAL,
  fingerprint      TEXT NOT NULL,
  external_id      TEXT,
  source_project_id TEXT,
  phases_alive     INTEGER NOT NULL DEFAULT 0,
  max_phases       INTEGER,
  auto_generated   INTEGER NOT NULL DEFAULT 0,
  shown            INTEGER NOT NULL DEFAULT 0,
  applied          INTEGER NOT NULL DEFAULT 0,
  ignored          INTEGER NOT NULL DEFAULT 0,
  violated         INTEGER NOT NULL DEFAULT 0,
  prevented        INTEGER NOT NULL DEFAULT 0,
  helpful          REAL NOT NULL DEFAULT 0,
  harmful          REAL NOT NULL DEFAULT 0,
  last_shown_at    TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  search_text      TEXT NOT NULL,
  data             TEXT NOT NULL
);
CREATE INDEX entries_status ON entries(status, category);
CREATE INDEX entries_fingerprint ON entries(fingerprint);
CREATE INDEX entries_external_id ON entries(external_id) WHERE external_id IS NOT NULL;
CREATE INDEX entries_eviction ON entries(status, utility, created_at);

CREATE VIRTUAL TABLE entries_fts USING fts5(
  search_text, content='entries', content_rowid='seq', tokenize='porter unicode61'
);
CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
  INSERT INTO entries_fts(rowid, search_text) VALUES (new.seq, new.search_text);
  UPDATE meta SET value = value + 1 WHERE key = 'entry_count';
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
  UPDATE meta SET value = value - 1 WHERE key = 'entry_count';
END;
CREATE TRIGGER entries_au AFTER UPDATE OF search_text ON entries BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
  INSERT INTO entries_fts(rowid, search_text) VALUES (new.seq, new.search_text);
END;

CREATE TABLE events (
  seq      INTEGER PRIMARY KEY,
  entry_id TEXT NOT NULL,
  type     TEXT NOT NULL,
  at       TEXT NOT NULL,
  actor    TEXT NOT NULL,
  data     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_entry ON events(entry_id, seq);
-- Append-only: history is never rewritten.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

CREATE TABLE rejected (
  seq    INTEGER PRIMARY KEY,
  lesson TEXT NOT NULL,
  reason TEXT NOT NULL,
  codes  TEXT NOT NULL,
  source TEXT NOT NULL,
  at     TEXT NOT NULL
);
CREATE INDEX rejected_lesson ON rejected(lesson);
`,
  },
  {
    version: 2,
    name: "reflection queue and idempotency ledger",
    sql: `
CREATE TABLE reflection_queue (
  id           TEXT PRIMARY KEY,
  payload      TEXT NOT NULL,
  status       TEXT NOT NULL DEFAULT 'pending',
  attempts     INTEGER NOT NULL DEFAULT 0,
  last_error   TEXT,
  enqueued_at  TEXT NOT NULL,
  lease_until  TEXT,
  processed_at TEXT,
  result       TEXT
);
CREATE INDEX reflection_queue_ready ON reflection_queue(status, enqueued_at);
-- One row per side effect already applied, so re-processing an outcome changes nothing.
CREATE TABLE applied_effects (
  key TEXT PRIMARY KEY,
  at  TEXT NOT NULL
);
`,
  },
  {
    version: 3,
    name: "governance: consultations, advisory rules index and version",
    sql: `
ALTER TABLE entries ADD COLUMN consulted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN last_consulted_at TEXT;
-- Derived from the entry JSON, so no write path has to remember to set it.
ALTER TABLE entries ADD COLUMN advisory INTEGER GENERATED ALWAYS AS (
  CASE WHEN json_array_length(data, '$.applicability.file_globs') > 0
         OR length(json_extract(data, '$.prevention.detection_pattern')) > 0 THEN 1 ELSE 0 END
) VIRTUAL;
CREATE INDEX entries_advisory ON entries(advisory, status);
CREATE INDEX events_type_at ON events(type, at);

-- The advisory rule cache reloads only when this moves; counter-only updates (usage) never touch data or status.
INSERT OR IGNORE INTO meta(key, value) VALUES ('rules_version', 0);
CREATE TRIGGER entries_rules_ai AFTER INSERT ON entries WHEN new.advisory = 1 BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'rules_version';
END;
CREATE TRIGGER entries_rules_au AFTER UPDATE OF data, status ON entries WHEN old.advisory = 1 OR new.advisory = 1 BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'rules_version';
END;
CREATE TRIGGER entries_rules_ad AFTER DELETE ON entries WHEN old.advisory = 1 BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'rules_version';
END;
`,
  },
  {
    version: 4,
    name: "eviction order index",
    sql: `
-- The cap evicts in this order on every write over the cap; the index makes that one step, not a sort.
CREATE INDEX entries_eviction_order ON entries(
  (CASE status WHEN 'archived' THEN 0 WHEN 'quarantined' THEN 0 WHEN 'superseded' THEN 0 ELSE 1 END),
  (COALESCE(utility, 0.5)),
  seq
) WHERE status <> 'promoted';
`,
  },
  {
    version: 5,
    name: "applicability columns for filtering candidates in SQL",
    sql: `
-- ",a,b," lower-cased, '' for "any": who an entry is for, testable with instr() on the FTS candidates.
ALTER TABLE entries ADD COLUMN for_agents TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN for_tools TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN for_projects TEXT NOT NULL DEFAULT '';
UPDATE entries SET
  for_agents = COALESCE((SELECT ',' || group_concat(replace(lower(value), ',', ' '), ',') || ',' FROM json_each(entries.data, '$.applicability.agents')), ''),
  for_tools = COALESCE((SELECT ',' || group_concat(replace(lower(value), ',', ' '), ',') || ',' FROM json_each(entries.data, '$.applicability.tools')), ''),
  for_projects = COALESCE((SELECT ',' || group_concat(replace(lower(value), ',', ' '), ',') || ',' FROM json_each(entries.data, '$.applicability.projects')), '');
`,
  },
  {
    version: 6,
    name: "handles are never reused",
    sql: `
-- A handle (S-12) is its row's seq, and SQLite hands the seq of a deleted last row to the next insert:
-- a RETRACT: S-12 in a plan, or a mirror file name, would then point at another lesson. The highest seq
-- ever used is kept here, every insert takes the next one, and an insert that does not is refused.
INSERT OR IGNORE INTO meta(key, value) VALUES ('last_seq', (SELECT COALESCE(max(seq), 0) FROM entries));
CREATE TRIGGER entries_seq_fresh BEFORE INSERT ON entries
  WHEN new.seq <= (SELECT value FROM meta WHERE key = 'last_seq')
BEGIN
  SELECT RAISE(ABORT, 'entries.seq must come from meta.last_seq: handles are never reused');
END;
CREATE TRIGGER entries_seq_used AFTER INSERT ON entries BEGIN
  UPDATE meta SET value = new.seq WHERE key = 'last_seq';
END;
`,
  },
  {
    version: 7,
    name: "browsing and dashboard: sort indexes, tag rows, contradiction index, daily event counts, usage per project",
    sql: `
-- Sort keys of the lessons page: keyset pagination walks one of these, never sorts the table.
CREATE INDEX entries_by_created ON entries(created_at, seq);
CREATE INDEX entries_by_updated ON entries(updated_at, seq);
CREATE INDEX entries_by_confidence ON entries(confidence, seq);
CREATE INDEX entries_by_shown ON entries(shown, seq);
CREATE INDEX entries_by_applied ON entries(applied, seq);
CREATE INDEX entries_source_project ON entries(source_project_id, status);
-- Usage totals (the dashboard, per status or overall) read this index alone, never the rows' JSON.
CREATE INDEX entries_usage ON entries(status, shown, applied, consulted, prevented);
-- Tags as rows, kept by triggers from the entry JSON, so a tag filter is an index lookup at any size.
CREATE TABLE entry_tags (tag TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (tag, seq)) WITHOUT ROWID;
CREATE INDEX entry_tags_seq ON entry_tags(seq);
INSERT OR IGNORE INTO entry_tags(tag, seq) SELECT t.value, e.seq FROM entries e, json_each(e.data, '$.tags') t;
CREATE TRIGGER entry_tags_ai AFTER INSERT ON entries BEGIN
  INSERT OR IGNORE INTO entry_tags(tag, seq) SELECT value, new.seq FROM json_each(new.data, '$.tags');
END;
CREATE TRIGGER entry_tags_au AFTER UPDATE OF data ON entries
  WHEN json_extract(old.data, '$.tags') IS NOT json_extract(new.data, '$.tags') BEGIN
  DELETE FROM entry_tags WHERE seq = old.seq;
  INSERT OR IGNORE INTO entry_tags(tag, seq) SELECT value, new.seq FROM json_each(new.data, '$.tags');
END;
CREATE TRIGGER entry_tags_ad AFTER DELETE ON entries BEGIN
  DELETE FROM entry_tags WHERE seq = old.seq;
END;
-- Entries flagged as contradicting another (the review queue); the WHERE must match the store's query text.
CREATE INDEX entries_contradicted ON entries(seq) WHERE instr(json_extract(data, '$.lifecycle.flags'), '"contradicts:') > 0;
-- Events per day and type, kept by a trigger, so charts over weeks read days, not events.
CREATE TABLE event_days (day TEXT NOT NULL, type TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (day, type)) WITHOUT ROWID;
INSERT INTO event_days(day, type, n) SELECT substr(at, 1, 10), type, count(*) FROM events GROUP BY 1, 2;
CREATE TRIGGER events_days_ai AFTER INSERT ON events BEGIN
  INSERT INTO event_days(day, type, n) VALUES (substr(new.at, 1, 10), new.type, 1)
    ON CONFLICT(day, type) DO UPDATE SET n = n + 1;
END;
-- Which project was shown / applied which entry (events carry data.project_id), for the hive's usage map.
CREATE TABLE project_usage (
  project_id TEXT NOT NULL,
  entry_id   TEXT NOT NULL,
  shown      INTEGER NOT NULL DEFAULT 0,
  applied    INTEGER NOT NULL DEFAULT 0,
  last_at    TEXT NOT NULL,
  PRIMARY KEY (project_id, entry_id)
) WITHOUT ROWID;
CREATE INDEX project_usage_entry ON project_usage(entry_id);
CREATE TRIGGER events_project_usage_ai AFTER INSERT ON events
  WHEN new.type IN ('shown', 'applied') AND json_extract(new.data, '$.project_id') IS NOT NULL BEGIN
  INSERT INTO project_usage(project_id, entry_id, shown, applied, last_at)
    VALUES (json_extract(new.data, '$.project_id'), new.entry_id, new.type = 'shown', new.type = 'applied', new.at)
    ON CONFLICT(project_id, entry_id) DO UPDATE SET
      shown = shown + (new.type = 'shown'), applied = applied + (new.type = 'applied'), last_at = max(last_at, new.at);
END;
`,
  },
  {
    version: 8,
    name: "outbox of writes bound for the team hive",
    sql: `
-- Hive writes made while the team hive (PostgreSQL) was unreachable, replayed oldest first when it is back.
CREATE TABLE hive_outbox (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  id          TEXT NOT NULL UNIQUE,
  op          TEXT NOT NULL,
  payload     TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'pending',
  attempts    INTEGER NOT NULL DEFAULT 0,
  last_error  TEXT,
  enqueued_at TEXT NOT NULL
);
CREATE INDEX hive_outbox_status ON hive_outbox(status, seq);
`,
  },
  {
    version: 9,
    name: "tallies per status and creator kind, kept by triggers; low-utility index",
    sql: `
-- Entries and usage per (status, creator kind): cairn stats, the dashboard and the governance metrics
-- read these few rows, never the entries. Rows that fall to zero stay (a handful at most).
CREATE TABLE entry_tallies (
  status    TEXT NOT NULL,
  source    TEXT NOT NULL,
  entries   INTEGER NOT NULL DEFAULT 0,
  shown     INTEGER NOT NULL DEFAULT 0,
  applied   INTEGER NOT NULL DEFAULT 0,
  consulted INTEGER NOT NULL DEFAULT 0,
  prevented INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (status, source)
) WITHOUT ROWID;
INSERT INTO entry_tallies(status, source, entries, shown, applied, consulted, prevented)
  SELECT status, ${creatorKind("data")}, count(*), sum(shown), sum(applied), sum(consulted), sum(prevented)
    FROM entries GROUP BY 1, 2;
CREATE TRIGGER entry_tallies_ai AFTER INSERT ON entries BEGIN
  ${tallyAdd("new")}
END;
CREATE TRIGGER entry_tallies_ad AFTER DELETE ON entries BEGIN
  ${tallySubtract("old")}
END;
-- The flagged count (low utility after enough use) reads this index alone: the utility column
-- prefilters, the counters recompute utility, without a row lookup per low-utility entry.
CREATE INDEX entries_low_utility ON entries(status, utility, applied, shown, ignored, violated, helpful, harmful, prevented)
  WHERE utility IS NOT NULL;
-- Counter bumps (recordUsage) fire this too: only the columns the tally holds, and only when one moved.
CREATE TRIGGER entry_tallies_au AFTER UPDATE OF status, shown, applied, consulted, prevented, data ON entries
  WHEN old.status IS NOT new.status OR old.shown IS NOT new.shown OR old.applied IS NOT new.applied
    OR old.consulted IS NOT new.consulted OR old.prevented IS NOT new.prevented OR old.data IS NOT new.data
BEGIN
  ${tallySubtract("old")}
  ${tallyAdd("new")}
END;
`,
  },
  {
    version: 10,
    name: "vectors per entry and model",
    sql: `
-- One vector per entry and vector space (model id + dimension): a model change never mixes spaces.
-- int8 components with one scale per vector (a quarter of f32's size, same ranking). Every put takes
-- a new id, so an in-memory copy of a space loads only the rows past the last id it has seen.
CREATE TABLE IF NOT EXISTS entry_vectors (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  seq   INTEGER NOT NULL,
  model TEXT NOT NULL,
  dim   INTEGER NOT NULL,
  scale REAL NOT NULL,
  vec   BLOB NOT NULL,
  UNIQUE (model, dim, seq)
);
CREATE INDEX IF NOT EXISTS entry_vectors_space ON entry_vectors(model, dim, id);
CREATE INDEX IF NOT EXISTS entry_vectors_seq ON entry_vectors(seq);
CREATE TRIGGER IF NOT EXISTS entry_vectors_ad AFTER DELETE ON entries BEGIN
  DELETE FROM entry_vectors WHERE seq = old.seq;
END;
`,
  },
  {
    version: 11,
    name: "vector counts per space",
    sql: `
-- How many entries carry a vector of each space, kept by triggers: stats and doctor read one row per
-- space instead of counting entry_vectors (8 ms at 100k + 100k). putVectors replaces a vector by
-- DELETE then INSERT, since INSERT OR REPLACE's implicit delete fires no trigger.
CREATE TABLE IF NOT EXISTS entry_vector_counts (
  model   TEXT NOT NULL,
  dim     INTEGER NOT NULL,
  entries INTEGER NOT NULL,
  PRIMARY KEY (model, dim)
) WITHOUT ROWID;
INSERT OR REPLACE INTO entry_vector_counts(model, dim, entries) SELECT model, dim, count(*) FROM entry_vectors GROUP BY model, dim;
CREATE TRIGGER IF NOT EXISTS entry_vector_counts_ai AFTER INSERT ON entry_vectors BEGIN
  INSERT INTO entry_vector_counts(model, dim, entries) VALUES (new.model, new.dim, 1)
    ON CONFLICT(model, dim) DO UPDATE SET entries = entries + 1;
END;
CREATE TRIGGER IF NOT EXISTS entry_vector_counts_ad AFTER DELETE ON entry_vectors BEGIN
  UPDATE entry_vector_counts SET entries = entries - 1 WHERE model = old.model AND dim = old.dim;
END;
`,
  },
  {
    version: 12,
    name: "reflection shares",
    sql: `
-- How an outcome's verdict is shared among the lessons the task saw, decided before any is applied,
-- so a run resumed after a crash applies the same shares (learning/reflect.ts).
ALTER TABLE reflection_queue ADD COLUMN shares TEXT;
`,
  },
  {
    version: 13,
    name: "last swept phase",
    sql: `
-- The phase the TTL sweep last ran for (one row): \`cairn sweep --phase X\` twice in a row, or the plugin
-- and the CLI both completing X, would otherwise age every lesson twice. Only the last one is kept, so
-- a later plan's phase of the same title ages again once another phase came between.
CREATE TABLE IF NOT EXISTS last_sweep (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  phase TEXT NOT NULL,
  at    TEXT NOT NULL
);
`,
  },
  {
    version: 14,
    name: "vote totals to the thousandth",
    sql: `
-- Helpful/harmful totals are kept to the thousandth (lifecycle/feedback.ts roundSum); versions before
-- that stored sums such as 1.99999993, shown as such. The columns win over the entry JSON on every read,
-- so they are rounded here, and utility (lifecycle/utility.ts) recomputed from the rounded totals.
UPDATE entries SET
  helpful = round(helpful, 3),
  harmful = round(harmful, 3),
  utility = CASE
    WHEN applied + round(helpful, 3) + prevented + ignored + violated * 1.5 + round(harmful, 3) * 1.5 = 0 THEN NULL
    ELSE (applied + round(helpful, 3) + prevented)
      / (applied + round(helpful, 3) + prevented + ignored + violated * 1.5 + round(harmful, 3) * 1.5)
  END
WHERE helpful <> round(helpful, 3) OR harmful <> round(harmful, 3);
`,
  },
  {
    version: 15,
    name: "CJK runs indexed as character pairs",
    sql: `
-- A run of CJK characters is one unicode61 token, so a word inside it ("连接池" in "数据库连接池超时")
-- matched nothing. The search text now carries each run's character pairs; rows written before get
-- theirs in the migration's JavaScript step (reindexCjkRows).
SELECT 1;
`,
    run: reindexCjkRows,
  },
  {
    version: 16,
    name: "CJK characters indexed one by one beside their pairs",
    sql: `
-- One CJK character is a word ("锁", "鍵"), and one that ends its run ("死锁") starts no pair, so a query
-- of one character found nothing. The search text now also carries each character of a run (core/cjk.ts);
-- rows written before get theirs in the migration's JavaScript step (reindexCjkCharacters).
SELECT 1;
`,
    run: reindexCjkCharacters,
  },
  {
    version: 17,
    name: "promoted_to: the hive lesson an entry last went up as",
    sql: `
-- Listings pair a promoted original with its hive copy: they read every promotion event of the tier to
-- find what each went up as, a read that grew with the store. The hive id of an entry's latest
-- \`promoted\` event is kept in a column of its own, set by a trigger as the event is written (every
-- path that writes one: promotion, copies, imports), read by key; rows written before get theirs in the
-- migration's JavaScript step (addPromotedTo), which can run again over a schema that has it.
SELECT 1;
`,
    run: addPromotedTo,
  },
  {
    version: 18,
    name: "the singular indexed beside 'indices' and 'vertices'",
    sql: `
-- Porter stems "indices" as "indic" (the stem of "indicate") and "vertices" as "vertic" (of "vertical"), so a
-- query for "index" or "vertex" never met a lesson writing the plural, and asking for the plural's stem would
-- bring in every lesson about indicating. The search text now carries the singular beside such a plural; rows
-- written before get theirs in the migration's JavaScript step (reindexIndexedSingulars).
SELECT 1;
`,
    run: reindexIndexedSingulars,
  },
  {
    version: 19,
    name: "the singular indexed beside 'indices' and 'vertices' inside a name",
    sql: `
-- Migration 18's singular was added only beside the plural written as a word: a name holding it ("getIndices",
-- "getVertices") had its pieces indexed ("get indices") but no singular, so "index" never met it. The same
-- rows are derived again (reindexIndexedSingulars); a row 18 gave its singular gets the same text.
SELECT 1;
`,
    run: reindexIndexedSingulars,
  },
];

/** Brings a database to the newest schema version inside one write transaction. */
export function migrate(db: SqliteDriver): number {
  if (db.readOnly) return checkReadOnlySchema(db);
  // An up-to-date file is opened with reads only: the statements below take the write lock even when they
  // change nothing, so a server starting (cairn ui, cairn mcp, the plugin) would wait on any other writer.
  const upToDate = isCurrent(db);
  if (upToDate !== undefined) return upToDate;
  db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  db.exec("INSERT OR IGNORE INTO meta(key, value) VALUES ('entry_count', 0)");
  const current = db.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0;
  const pending = MIGRATIONS.filter((m) => m.version > current);
  if (pending.length === 0) return current;
  return db.transaction(() => {
    // Another process may have migrated while we waited for the write lock.
    const now = db.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0;
    let version = now;
    for (const m of MIGRATIONS) {
      if (m.version <= now) continue;
      db.exec(m.sql);
      m.run?.(db);
      version = m.version;
      db.exec(`PRAGMA user_version = ${version}`);
    }
    return version;
  });
}

/** The schema version when the file needs nothing written (current schema, meta row present), else undefined. */
function isCurrent(db: SqliteDriver): number | undefined {
  const current = db.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0;
  if (current < LATEST_SCHEMA_VERSION) return undefined;
  const meta = db.get<{ n: number }>("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = 'meta'")?.n ?? 0;
  if (meta === 0) return undefined;
  return db.get("SELECT 1 AS ok FROM meta WHERE key = 'entry_count'") ? current : undefined;
}

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** A database this user cannot write is read as it is, when its schema is current; it cannot be upgraded. */
function checkReadOnlySchema(db: SqliteDriver): number {
  const current = db.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0;
  if (current < LATEST_SCHEMA_VERSION) {
    throw readOnlyError(db.file, `${db.readOnly}, and its schema (v${current}) needs upgrading to v${LATEST_SCHEMA_VERSION} before this version of Cairn can read it`);
  }
  return current;
}
