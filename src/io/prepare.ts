// Parsing and gating an import file, in a worker thread for large files so the main thread only does dedup and inserts.
import fs from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import type { Tier } from "../core/entry.js";
import { CairnError, type CairnErrorCode } from "../errors.js";
import { gateInput, type GateOutcome } from "../lifecycle/gate-input.js";
import { lessonVector } from "../quality/meaning.js";
import { lessonKey, profileText, type LessonKey } from "../quality/similarity.js";
import type { Services } from "../services.js";
import { derivedColumns, type DerivedColumns } from "../store/entry-columns.js";
import { itemLine, parseFile } from "./parse.js";
import { PrepareThread } from "./prepare-thread.js";
import { unpackItem, type TransferredItem } from "./prepared-transfer.js";
import { gateRestoredEntry, restoredEntry, type RestoreGate } from "./restore.js";
import type { ImportFormat, ParseItem } from "./types.js";

/**
 * A parsed item, with its gates' verdict when they already ran (in the worker), and for a lesson the
 * write path will compare with its neighbours, its vector (meaning.ts lessonVector) and its key
 * (similarity.ts lessonKey) when computed ahead; for a restored entry that passed, the columns its
 * store derives from it (entry-columns.ts derivedColumns).
 */
export type PreparedItem = ParseItem & { gate?: GateOutcome | RestoreGate; vector?: Float32Array | null; key?: LessonKey; derived?: DerivedColumns };

/** What the gates need to know, the same in either thread. */
export interface PrepareContext {
  config: Services["config"];
  trusted: boolean;
  /** Whether a hive tier is open: a record for the hive is gated as a swarm one when it is not. */
  hive: boolean;
}

/** Smaller files are not worth a thread's start-up (~30–60 ms to load the parsers and gates). */
export const WORKER_MIN_BYTES = 1024 * 1024;
/** How many messages each worker may run ahead (bounds the memory a fast parser can fill). */
const CREDIT_CHUNKS = 4;

/** Imports whose items came from worker threads, the threads they started, and the imports that fell back to the main thread, per process: the worker tests read it. */
export const importWorkerStats = { started: 0, threads: 0, fellBack: 0 };

/** The tier a parsed record is written to (hive records go to the swarm tier when no hive is open). */
export function recordTier(record: { tier?: Tier }, hive: boolean): Tier {
  return record.tier === "hive" && hive ? "hive" : "swarm";
}

/**
 * Runs the gates a row will meet on the write path, so their verdict can travel with it; with
 * `ahead`, also what the thread that stores it would compute next (in the worker: that thread then
 * need not): a new lesson's vector and key for dedup, a restored entry's derived columns.
 */
export function prepareItem(item: ParseItem, ctx: PrepareContext, opts: { ahead?: boolean } = {}): PreparedItem {
  if (!item.ok) return item;
  const { record } = item;
  if (record.entry) {
    const gate = gateRestoredEntry(record.entry);
    return { ...item, gate, ...(opts.ahead && gate.ok ? { derived: derivedColumns(restoredEntry(record.entry, gate)) } : {}) };
  }
  const gate = gateInput(ctx, record.input, recordTier(record, ctx.hive), ctx.trusted);
  return { ...item, gate, ...(opts.ahead && gate.ok ? { ...vectorOf(gate.lesson), key: lessonKey(gate.lesson) } : {}) };
}

/** The dedup vector of a lesson, or nothing when the model cannot be read (the main thread then tries, and says so). */
function vectorOf(lesson: string): { vector?: Float32Array | null } {
  try {
    return { vector: lessonVector(profileText(lesson)) };
  } catch {
    return {};
  }
}

/**
 * The worker entry beside this module: src/io/prepare-worker.ts when run from source,
 * dist/import-worker.js when built (this code then sits in dist/ or dist/chunks/).
 * Undefined when none is on disk (bundled into another program): the main thread does the work.
 */
function workerEntry(): URL | undefined {
  const candidates = import.meta.url.endsWith(".ts")
    ? ["./prepare-worker.ts"]
    : ["./import-worker.js", "../import-worker.js"];
  for (const c of candidates) {
    try {
      const url = new URL(c, import.meta.url);
      if (url.protocol === "file:" && fs.existsSync(fileURLToPath(url))) return url;
    } catch {
      // A non-file URL (a bundle loaded from memory): no worker.
    }
  }
  return undefined;
}

export interface PrepareOptions {
  /** Worker entry to start (tests point it at one that fails); default: the one beside this module. */
  workerUrl?: URL;
  /** Use a worker from this file size up (default WORKER_MIN_BYTES). */
  minBytes?: number;
  /** Worker threads to share the file (default: prepareThreads). */
  threads?: number;
}

/**
 * Worker threads for a file: two where the machine has two cores or more, so that parsing and gating
 * (the larger part of a restored row's cost) run on both while the main thread stores; one for
 * context-md, which is not split by lines (each worker would parse the whole file).
 */
export function prepareThreads(format: ImportFormat): number {
  return format !== "context-md" && os.availableParallelism() >= 2 ? 2 : 1;
}

/**
 * Parsed (and, from a worker, gated) items of a file, in file order. Files of WORKER_MIN_BYTES or
 * more are parsed and gated in worker threads (prepareThreads), each taking every other chunk of the
 * file, while the main thread inserts. CAIRN_IMPORT_WORKER=0 turns them off. When a worker cannot
 * start or dies (Bun, a bundle without the worker file), the rest of the file is parsed here,
 * silently: same items.
 */
export async function* prepareFile(file: string, format: ImportFormat, ctx: PrepareContext, opts: PrepareOptions = {}): AsyncGenerator<PreparedItem> {
  const size = fs.statSync(file).size;
  const wanted = size >= (opts.minBytes ?? WORKER_MIN_BYTES) && process.env.CAIRN_IMPORT_WORKER !== "0";
  // Bun's worker_threads differ in ways not worth a risk here; it parses on the main thread.
  const url = wanted && !("bun" in process.versions) ? (opts.workerUrl ?? workerEntry()) : undefined;
  let lastLine = 0;
  if (url) {
    const fromWorkers = workerItems(url, file, format, ctx, opts.threads ?? prepareThreads(format));
    try {
      for await (const item of fromWorkers) {
        lastLine = itemLine(item);
        yield item;
      }
      return;
    } catch (e) {
      if (e instanceof CairnError) throw e;
      // A worker failed to start or died: carry on from the line after the last one delivered.
      importWorkerStats.fellBack++;
    } finally {
      await fromWorkers.return(undefined);
    }
  }
  for await (const item of parseFile(file, format)) {
    if (itemLine(item) <= lastLine) continue;
    yield item;
  }
}

/** Messages from a worker (see prepare-worker.ts): the items of one chunk it owns, in file order, then done. */
export type WorkerMessage =
  | { chunk: number; items: TransferredItem[] }
  | { done: true }
  | { error: { code: string; message: string } };

/**
 * The items `threads` workers prepare, in file order: chunk k comes from worker k % threads (a
 * worker sends only chunks that hold items; one whose next message is a later chunk, or done, had
 * none in chunk k). Throws a plain Error when a worker fails.
 */
async function* workerItems(url: URL, file: string, format: ImportFormat, ctx: PrepareContext, threads: number): AsyncGenerator<PreparedItem> {
  const workers: PrepareThread[] = [];
  try {
    for (let index = 0; index < threads; index++) {
      workers.push(await PrepareThread.start(url, { file, format, ctx, shard: { index, count: threads } }, CREDIT_CHUNKS));
      importWorkerStats.threads++;
    }
    let counted = false;
    const done = new Set<PrepareThread>();
    for (let k = 0; done.size < workers.length; k++) {
      const worker = workers[k % workers.length]!;
      const m = await worker.peek();
      if ("error" in m) throw new CairnError(m.error.code as CairnErrorCode, m.error.message);
      if ("done" in m) {
        done.add(worker);
        continue;
      }
      if (m.chunk !== k) continue;
      if (!counted) {
        importWorkerStats.started++;
        counted = true;
      }
      worker.take();
      for (const item of m.items) yield unpackItem(item);
    }
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}
