// Importing a file through the normal write path: bad lines reported by number, never fatal.
import fs from "node:fs";
import path from "node:path";
import { CairnError } from "../errors.js";
import { enforceCap } from "../lifecycle/caps.js";
import { NeighbourProfiles } from "../lifecycle/neighbours.js";
import { writeLesson, type WriteResult } from "../lifecycle/write.js";
import { BulkNeighbours } from "../lifecycle/bulk-neighbours.js";
import { InsertQueue } from "../lifecycle/insert-queue.js";
import { storeFor, type Services } from "../services.js";
import type { Store } from "../store/store.js";
import { detectFormat, formatHint } from "./detect.js";
import { linkImportedPromotions } from "./link-promotions.js";
import { readFirstLines } from "./lines.js";
import { prepareFile, recordTier, type PreparedItem } from "./prepare.js";
import { Restorer, type LateOutcomes, type RestoreGate } from "./restore.js";
import { IMPORT_FORMATS, type BadLine, type ImportFormat } from "./types.js";
import { gateInput, type GateOutcome } from "../lifecycle/gate-input.js";

export interface ImportOptions {
  format?: ImportFormat | "auto";
  /** Bulk load of existing data: skips the quality layer, keeps original ids as external_id. */
  trusted?: boolean;
  actor?: string;
  /**
   * Near-duplicate search from an in-memory index (BulkNeighbours) instead of a query per row.
   * Default: a trusted import of BULK_INDEX_MIN_BYTES or more (building the index reads the whole
   * tier once, which a handful of rows would not repay).
   */
  bulkNeighbours?: boolean;
  /**
   * New rows of a trusted import wait to be inserted with their batch (InsertQueue) instead of one
   * insert each. Default: on wherever the neighbour index is; false stores them row by row.
   */
  queueInserts?: boolean;
  /** Called after each committed batch (≤ 1,000 records or ¼ s) with the count processed and committed so far. */
  onProgress?: (processed: number) => void;
  /** Stops the import after the batch in flight commits (Ctrl-C): the report says `interrupted`, the rest of the file is not read. */
  signal?: AbortSignal;
}

export interface ImportReport {
  format: ImportFormat;
  imported: number;
  reinforced: number;
  rejected: number;
  /** Lossless entries whose id is already present. */
  unchanged: number;
  skipped_lines: BadLine[];
  /** Why records were rejected, with their line numbers (first 100). */
  rejections: Array<{ line: number; reason: string }>;
  /** What the parser repaired in a record, e.g. an unreadable date dropped (first 100). */
  warnings: Array<{ line: number; warning: string }>;
  /**
   * Rows an import without --trusted refused only at gates a trusted import skips (length, advice, vagueness,
   * JSON records): a person who trusts the file can keep them with --trusted. Secrets and injections never count.
   */
  refused_untrusted_only: number;
  /** Entries evicted because imported lessons took a tier past its cap (lowest utility first, as on add; once, at the end of a trusted import). */
  evicted: number;
  /** Present (true) when `signal` stopped the import before the end of the file; what it counts was committed. */
  interrupted?: true;
}

/** Lines read to tell a file's format. */
const DETECT_LINES = 20;

async function resolveFormat(file: string, format: ImportOptions["format"]): Promise<ImportFormat> {
  if (format && format !== "auto") {
    if (!IMPORT_FORMATS.includes(format)) {
      throw new CairnError("INVALID_INPUT", `Unknown import format "${format}"; use one of auto, ${IMPORT_FORMATS.join(", ")}.`);
    }
    return format;
  }
  const first = await readFirstLines(file, DETECT_LINES);
  // Fewer lines than asked for is the whole file: all blank, it holds nothing in any format.
  if (first.length < DETECT_LINES && first.every((l) => !l.trim())) {
    throw new CairnError("IMPORT_ERROR", `${path.basename(file)} is empty: there is nothing to import. Check that it is the file you meant (an export always holds at least its header line).`);
  }
  const detected = detectFormat(file, first);
  if (!detected) {
    throw new CairnError("IMPORT_ERROR", `Cannot tell the format of ${path.basename(file)}: ${formatHint(first)}`);
  }
  return detected;
}

/** ~200 rows of a knowledge file: below this a trusted import queries the store per row (see bulkNeighbours). */
const BULK_INDEX_MIN_BYTES = 64 * 1024;

/** Rows per commit, and the longest a batch holds the write lock (other writers wait for it). */
const BATCH_ROWS = 1000;
const BATCH_MS = 250;

/** Runs `fn` with the writes to every open tier grouped into one commit each. */
function inBatch(s: Services, fn: () => Promise<void>): Promise<void> {
  const hive = s.hive;
  return s.swarm.writeBatch(hive ? () => hive.writeBatch(fn) : fn);
}

/** Runs `fn` with every open tier's store in its bulk-load mode, where it has one (Store.bulkLoad). */
function inBulkLoad(s: Services, fn: () => Promise<void>): Promise<void> {
  const stores = s.hive ? [s.swarm, s.hive] : [s.swarm];
  return stores.reduce<() => Promise<void>>((inner, store) => (store.bulkLoad ? () => store.bulkLoad!(inner) : inner), fn)();
}

export async function importFile(s: Services, file: string, opts: ImportOptions = {}): Promise<ImportReport> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    throw new CairnError("IMPORT_ERROR", `Cannot import ${file}: no such file.`);
  }
  const format = await resolveFormat(file, opts.format);
  const actor = opts.actor ?? "import";
  const report: ImportReport = { format, imported: 0, reinforced: 0, rejected: 0, unchanged: 0, skipped_lines: [], rejections: [], warnings: [], refused_untrusted_only: 0, evicted: 0 };
  // Tiers a lossless restore or a trusted load added to: their caps are enforced once at the end
  // (a cap check per row was a read per row; an untrusted import keeps writeLesson's check per row).
  const addedInto = new Set<Store>();
  const deferCap = opts.trusted ?? false;
  let processed = 0;
  const neighbourProfiles = new NeighbourProfiles();
  const restorer = new Restorer(s, actor);
  // Built at a tier's first write-path row (a lossless restore needs none), closed when the import ends.
  const useIndex = opts.bulkNeighbours ?? ((opts.trusted ?? false) && fs.statSync(file).size >= BULK_INDEX_MIN_BYTES);
  const indexes = new Map<Store, BulkNeighbours | undefined>();
  const indexFor = (store: Store): BulkNeighbours | undefined => {
    if (!useIndex) return undefined;
    if (!indexes.has(store)) indexes.set(store, BulkNeighbours.for(store));
    return indexes.get(store);
  };

  const countLate = (late: LateOutcomes): void => {
    report.imported -= late.reinforced + late.unchanged;
    report.reinforced += late.reinforced;
    report.unchanged += late.unchanged;
  };

  const countWrite = (result: WriteResult, line: number, store: Store): void => {
    if (result.action === "added") {
      report.imported++;
      if (deferCap) addedInto.add(store);
    }
    else if (result.action === "reinforced") report.reinforced++;
    else {
      report.rejected++;
      if (report.rejections.length < 100) report.rejections.push({ line, reason: result.reason ?? "rejected" });
    }
  };

  // Queued rows wait for a flush: inside the batch, before any other write, before a restored row.
  const queue = useIndex && deferCap && (opts.queueInserts ?? true) ? new InsertQueue(indexFor) : undefined;
  /** Line and tier of each queued row, for the report should its insert be refused after all. */
  const queuedRows = new Map<string, { line: number; store: Store }>();
  const countQueueLate = (): void => {
    if (!queue) return;
    for (const { id, result } of queue.takeLate()) {
      const row = queuedRows.get(id)!;
      report.imported--;
      countWrite(result, row.line, row.store);
    }
    if (!queue.pending) queuedRows.clear();
  };
  const flushQueue = async (): Promise<void> => {
    await queue?.flush();
    countQueueLate();
  };

  const importItem = async (item: PreparedItem): Promise<void> => {
    processed++;
    if (!item.ok) {
      report.skipped_lines.push(item.bad);
      return;
    }
    const { record } = item;
    for (const warning of record.warnings ?? []) if (report.warnings.length < 100) report.warnings.push({ line: record.line, warning });
    if (record.entry) {
      // The restorer reads the tier's keys from the database: queued rows must be in it, in their order.
      if (queue?.pending) await flushQueue();
      const r = await restorer.restore(record.entry, item.gate as RestoreGate | undefined, item.derived);
      if (r === "imported") addedInto.add(storeFor(s, record.entry.tier));
      if (typeof r === "string") report[r]++;
      else {
        report.rejected++;
        if (report.rejections.length < 100) report.rejections.push({ line: record.line, reason: r.rejected });
      }
      return;
    }
    // The write path reads the store: restored rows queued before this one must be in it.
    if (restorer.pending) countLate(await restorer.flush());
    const tier = recordTier(record, Boolean(s.hive));
    const gated = item.gate as GateOutcome | undefined;
    if (gated?.ok) neighbourProfiles.offer(gated.lesson, item.key, item.vector);
    const store = storeFor(s, tier);
    const result = await writeLesson(s, record.input, {
      tier, actor, source: "import", trusted: opts.trusted ?? false, neighbourProfiles, gated, deferCap, neighbourIndex: indexFor(store), insertQueue: queue,
      ...(record.history ? { imported: record.history } : {}),
    });
    if (result.id && queue?.holds(result.id)) queuedRows.set(result.id, { line: record.line, store });
    countWrite(result, record.line, store);
    // Re-gated only when refused, so the cost falls on rows already lost; the trusted gate itself says what it would keep.
    if (result.action === "rejected" && !opts.trusted && result.issues.some((i) => i.severity === "reject") && gateInput(s, record.input, tier, true).ok) {
      report.refused_untrusted_only++;
    }
    // This row's writeLesson may have flushed the queue (before another write).
    countQueueLate();
  };

  // Rows go through the same per-row path as before, but commit in batches: a commit per row was
  // most of a bulk load's cost. Reads inside a batch see its earlier rows, so dedup is unchanged.
  const items = prepareFile(file, format, { config: s.config, trusted: opts.trusted ?? false, hive: Boolean(s.hive) })[Symbol.asyncIterator]();
  let done = false;
  // An error ends the import as before; the file stream is closed rather than left open.
  const stop = () => items.return?.(undefined);
  // A trusted import is a bulk load: its stores tuned for it until it ends (an untrusted one, the full write path a row at a time, keeps their usual settings).
  const load = async (): Promise<void> => {
    while (!done) {
      // A batch's awaits settle as microtasks (the driver is synchronous), so a signal handler would
      // wait for the whole file: one turn of the event loop per batch lets a Ctrl-C in.
      if (opts.signal) await new Promise((resolve) => setImmediate(resolve));
      if (opts.signal?.aborted) {
        await stop();
        report.interrupted = true;
        return;
      }
      await inBatch(s, async () => {
        const started = Date.now();
        try {
          for (let n = 0; n < BATCH_ROWS && Date.now() - started < BATCH_MS; n++) {
            const next = await items.next();
            if (next.done) {
              done = true;
              return;
            }
            await importItem(next.value);
          }
        } finally {
          // Inside the batch: the queued rows commit with it, and what completed before an error stays written.
          countLate(await restorer.flush());
          await flushQueue();
        }
      }).catch(async (e: unknown) => {
        await stop();
        throw e;
      });
      // After the commit: a count reported is a count a crash cannot take back.
      if (!done) opts.onProgress?.(processed);
    }
  };
  try {
    await (opts.trusted ? inBulkLoad(s, load) : load());
  } finally {
    for (const index of indexes.values()) index?.close();
  }
  opts.onProgress?.(processed);
  for (const store of addedInto) report.evicted += (await enforceCap(s, store)).evicted.length;
  if (format === "opencode-swarm") await linkImportedPromotions(s, actor);
  return report;
}
