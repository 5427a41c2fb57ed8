// Moving a hive between a file and a team database (`cairn hive push` / `pull`): lossless, idempotent, merging by dedup.
import fs from "node:fs";
import path from "node:path";
import type { CairnConfig } from "../config.js";
import { CairnError } from "../errors.js";
import { PostgresStore } from "../store/pg/pg-store.js";
import { isPostgresUrl, maskUrl } from "../store/pg/url.js";
import { assertNotOtherFile } from "../store/sqlite-file.js";
import { SqliteStore } from "../store/sqlite-store.js";
import type { Store, VectorSpace } from "../store/store.js";
import { postgresOptions } from "./open.js";

export interface CopyReport {
  from: string;
  to: string;
  /** New rows in the target (id kept). */
  inserted: number;
  /** Folded into the target's entry holding the same lesson (confirmations united, usage added). */
  merged: number;
  /** Already there from an earlier run: unchanged. */
  unchanged: number;
  /** Entries whose handle was taken in the target and got a new one. */
  renumbered: Array<{ id: string; from: string; to: string }>;
  events: number;
  /** Entry vectors copied (per model space), so the target needs no re-embedding. */
  vectors: number;
  /** Why vectors were not copied (the source cannot read them out): `cairn reindex` re-creates them. */
  vectorsSkipped?: string;
  /** Stopped by the signal: the entries counted were copied whole (with their vectors), the rest of `total` not. */
  interrupted?: true;
  /** The source's entries, said when interrupted. */
  total?: number;
}

/** Entries per vector read: one query per space and batch on each side. */
const VECTOR_BATCH = 200;

/**
 * Vectors of copied entries, into the entry each became in the target (its own id, or the twin it
 * merged into); only those the target lacks are written, so a second run writes none.
 */
async function copyVectors(from: Store, to: Store, spaces: readonly VectorSpace[], pairs: ReadonlyArray<{ from: string; to: string }>): Promise<number> {
  if (!from.vectorsOf || pairs.length === 0) return 0;
  let n = 0;
  for (const space of spaces) {
    const have = await from.vectorsOf(space, pairs.map((p) => p.from));
    if (have.size === 0) continue;
    const already = to.vectorsOf ? await to.vectorsOf(space, pairs.map((p) => p.to)) : new Map<string, Float32Array>();
    const rows = pairs.flatMap((p) => {
      const v = have.get(p.from);
      return v && !already.has(p.to) ? [{ id: p.to, vector: v }] : [];
    });
    if (rows.length) await to.putVectors(space, rows);
    n += rows.length;
  }
  return n;
}

/**
 * Every entry of `from`, with its whole history, into `to`; a second run changes nothing. Aborting `signal`
 * stops it between two entries (each copied whole), their vectors copied first: running it again finishes.
 */
export async function copyHive(from: Store, to: Store, onProgress?: (n: number) => void, signal?: AbortSignal): Promise<CopyReport> {
  const report: CopyReport = { from: from.location, to: to.location, inserted: 0, merged: 0, unchanged: 0, renumbered: [], events: 0, vectors: 0 };
  // The target is reached (and given the schema) first: a copy of nothing must not report success for a database it never saw.
  await to.schemaVersion();
  const spaces: VectorSpace[] = (await from.vectorCounts()).map(({ modelId, dimension }) => ({ modelId, dimension }));
  if (spaces.length && !from.vectorsOf) report.vectorsSkipped = `${from.location} cannot read its vectors out; run \`cairn reindex\` on the target`;
  let pairs: Array<{ from: string; to: string }> = [];
  let n = 0;
  for await (const e of from.iterateEntries()) {
    // A SQLite source and target answer without a turn of the event loop: give the signal's handler one.
    if (signal) await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted) {
      report.interrupted = true;
      break;
    }
    const events = await from.listEvents(e.id, 1_000_000);
    const r = await to.copyEntry(e, events);
    if (r.action === "inserted") {
      report.inserted++;
      report.events += events.length;
      if (r.entry.handle !== e.handle) report.renumbered.push({ id: e.id, from: e.handle, to: r.entry.handle });
    } else if (r.action === "merged") {
      report.merged++;
      report.events += events.length;
    } else report.unchanged++;
    pairs.push({ from: e.id, to: r.entry.id });
    if (pairs.length >= VECTOR_BATCH) {
      report.vectors += await copyVectors(from, to, spaces, pairs);
      pairs = [];
    }
    onProgress?.(++n);
  }
  report.vectors += await copyVectors(from, to, spaces, pairs);
  if (report.interrupted) report.total = await from.totalEntries();
  return report;
}

/** `flag` names the end in a refusal of another application's database. */
function openEnd(where: string, flag: string, config: CairnConfig): Store {
  return isPostgresUrl(where) ? new PostgresStore(postgresOptions(where, config), "hive") : new SqliteStore(path.resolve(where), "hive", { from: { setting: flag } });
}

/** Copies the hive at `from` (a file or postgres:// URL) into `to`; both are opened here and closed after. */
export async function transferHive(from: string, to: string, config: CairnConfig, onProgress?: (n: number) => void, signal?: AbortSignal): Promise<CopyReport> {
  const same = isPostgresUrl(from) && isPostgresUrl(to) ? from === to : path.resolve(from) === path.resolve(to);
  if (same) throw new CairnError("INVALID_INPUT", `Source and target are the same hive (${isPostgresUrl(to) ? maskUrl(to) : to}).`);
  // Opening a missing file would create an empty hive there and report a push of nothing as done.
  if (!isPostgresUrl(from) && !fs.existsSync(path.resolve(from))) {
    throw new CairnError("NOT_FOUND", `No hive file at ${path.resolve(from)}: nothing to copy. Check the path (--from), or skip the push if you never had a hive of your own.`);
  }
  // A user's notes.md given as either file is refused before SQLite opens (and writes into) either end.
  for (const [where, flag] of [[from, "--from"], [to, "--to"]] as const) if (!isPostgresUrl(where)) assertNotOtherFile(path.resolve(where), flag);
  const source = openEnd(from, "--from", config);
  let target: Store;
  try {
    target = openEnd(to, "--to", config);
  } catch (e) {
    await source.close();
    throw e;
  }
  try {
    return await copyHive(source, target, onProgress, signal);
  } finally {
    await source.close();
    await target.close();
  }
}
