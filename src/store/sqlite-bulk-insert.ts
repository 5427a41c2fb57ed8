// SQLite bulk insert: many entries through one INSERT … SELECT from a staging table, so FTS5 indexes them in one pass.
import type { Status } from "../core/entry.js";
import type { SqliteDriver, SqlValue } from "./driver.js";
import { DEDUP_STATUSES, type EventInput } from "./store.js";

/**
 * entries' columns after seq, in the order a row's values are bound. FTS5 flushes its pending terms
 * to a new segment at every statement savepoint, so one INSERT per row writes (and later merges) a
 * segment per row: ~95 µs of a ~160 µs insert at the bench's lesson size. One statement for a
 * thousand rows indexes them in one flush (~50 µs a row in all, staging included).
 */
export const ENTRY_INSERT_COLUMNS = [
  "id", "tier", "created_at", "consulted", "last_consulted_at", "lesson", "category", "kind", "status", "scope", "priority",
  "confidence", "utility", "fingerprint", "external_id", "source_project_id", "phases_alive", "max_phases", "auto_generated",
  "shown", "applied", "ignored", "violated", "prevented", "helpful", "harmful", "last_shown_at", "updated_at", "search_text",
  "for_agents", "for_tools", "for_projects", "data",
] as const;

/** One entry to insert: its values in ENTRY_INSERT_COLUMNS order, and what the checks read. */
export interface StagedRow {
  id: string;
  fingerprint: string;
  status: Status;
  values: SqlValue[];
}

/** Per row, in order: the seq it was stored under, or why it was not. */
export type StagedOutcome = number | "duplicate" | "exists";

const STAGING = "temp.cairn_staged_entries";
/**
 * Staged rows per INSERT: one statement per row cost ~20 µs a row in its call and binding, more
 * than the whole INSERT … SELECT that follows. 25 rows bind 850 values, under SQLite's oldest
 * limit of 999 per statement.
 */
const STAGE_GROUP = 25;
const COLUMNS = ENTRY_INSERT_COLUMNS.join(", ");
const STAGED = ENTRY_INSERT_COLUMNS.map((c) => `s.${c}`).join(", ");
const DEDUP_LIST = DEDUP_STATUSES.map((s) => `'${s}'`).join(", ");

/**
 * Inserts `rows` as insertEntry would one by one — the same columns, triggers and created events,
 * seqs handed out in order after the highest ever used — inside the caller's write transaction.
 * A row whose id is stored is "exists"; with `unique`, a live row whose lesson a live entry (or an
 * earlier row of this call) holds is "duplicate". Both are decided inside the write, never before it.
 */
export function insertStagedRows(driver: SqliteDriver, rows: readonly StagedRow[], event: EventInput, unique: boolean): StagedOutcome[] {
  const outcomes: StagedOutcome[] = new Array<StagedOutcome>(rows.length);
  const stored = new Set(
    driver.all<{ id: string }>("SELECT id FROM entries WHERE id IN (SELECT value FROM json_each(?))", [JSON.stringify(rows.map((r) => r.id))]).map((r) => r.id),
  );
  // Twins inside the call: the INSERT's checks read the table as it was before the statement.
  const ids = new Set<string>();
  const fingerprints = new Set<string>();
  const staged: number[] = [];
  rows.forEach((r, i) => {
    const live = unique && DEDUP_STATUSES.includes(r.status);
    if (stored.has(r.id) || ids.has(r.id)) outcomes[i] = "exists";
    else if (live && fingerprints.has(r.fingerprint)) outcomes[i] = "duplicate";
    else {
      ids.add(r.id);
      if (live) fingerprints.add(r.fingerprint);
      staged.push(i);
    }
  });
  if (staged.length === 0) return outcomes;

  driver.run(`CREATE TEMP TABLE IF NOT EXISTS cairn_staged_entries(ord INTEGER PRIMARY KEY, ${COLUMNS})`);
  driver.run(`DELETE FROM ${STAGING}`);
  const tuple = `(?, ${ENTRY_INSERT_COLUMNS.map(() => "?").join(", ")})`;
  // Whole groups share one statement; the rest go one by one (two statement texts, whatever the count).
  const grouped = staged.length - (staged.length % STAGE_GROUP);
  const groupSql = `INSERT INTO ${STAGING}(ord, ${COLUMNS}) VALUES ${Array.from({ length: STAGE_GROUP }, () => tuple).join(", ")}`;
  for (let g = 0; g < grouped; g += STAGE_GROUP) {
    const values: SqlValue[] = [];
    for (const i of staged.slice(g, g + STAGE_GROUP)) values.push(i, ...rows[i]!.values);
    driver.run(groupSql, values);
  }
  for (const i of staged.slice(grouped)) driver.run(`INSERT INTO ${STAGING}(ord, ${COLUMNS}) VALUES ${tuple}`, [i, ...rows[i]!.values]);

  const base = driver.get<{ value: number }>("SELECT value FROM meta WHERE key = 'last_seq'")?.value ?? 0;
  const twinCheck = unique
    ? `AND (s.status NOT IN (${DEDUP_LIST}) OR NOT EXISTS (SELECT 1 FROM entries e WHERE e.fingerprint = s.fingerprint AND e.status IN (${DEDUP_LIST})))`
    : "";
  // Rows go in ord order, so each seq is above the last one used (the entries_seq_fresh trigger checks it).
  driver.run(
    `INSERT INTO entries(seq, ${COLUMNS})
     SELECT ? + row_number() OVER (ORDER BY s.ord), ${STAGED} FROM ${STAGING} s
      WHERE 1 ${twinCheck}
      ORDER BY s.ord`,
    [base],
  );
  // This connection holds the write lock: every seq above base is a row of this statement.
  driver.run(
    "INSERT INTO events(entry_id, type, at, actor, data) SELECT id, ?, created_at, ?, ? FROM entries WHERE seq > ? ORDER BY seq",
    [event.type, event.actor, JSON.stringify(event.data ?? {}), base],
  );
  const seqs = new Map<number, number>();
  for (const r of driver.all<{ ord: number; seq: number }>(`SELECT s.ord, e.seq FROM ${STAGING} s JOIN entries e ON e.id = s.id WHERE e.seq > ?`, [base])) {
    seqs.set(r.ord, r.seq);
  }
  driver.run(`DELETE FROM ${STAGING}`);
  // A staged row not stored had a live twin in the store.
  for (const i of staged) outcomes[i] = seqs.get(i) ?? "duplicate";
  return outcomes;
}
