// Parsing and gating an import file, in a worker thread for large files so the main thread only does dedup and inserts.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Tier } from "../core/entry.js";
import { CairnError, type CairnErrorCode } from "../errors.js";
import { gateInput, type GateOutcome } from "../lifecycle/gate-input.js";
import { lessonVector } from "../quality/meaning.js";
import { lessonKey, profileText, type LessonKey } from "../quality/similarity.js";
import type { Services } from "../services.js";
import { derivedColumns, type DerivedColumns } from "../store/entry-columns.js";
import { compileRegexpsAtFirstRun } from "../core/native-regexps.js";
import { parseFile } from "./parse.js";
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
/** Items per message, and how many messages the worker may run ahead (bounds the memory a fast parser can fill). */
export const CHUNK_ITEMS = 256;
/**
 * Items in the first message; each next one holds twice as many, up to CHUNK_ITEMS. The thread
 * that stores the rows waits for the first message (~90 ms to start the worker, then its first
 * rows warm the gates and the model): a full chunk first kept it idle ~150 ms more.
 */
export const FIRST_CHUNK_ITEMS = 16;
/** Chunks the worker may have sent that the main thread has not yet taken. */
export const CREDIT_CHUNKS = 4;

/** How often the worker started or was passed over, per process: the worker tests read it. */
export const importWorkerStats = { started: 0, fellBack: 0 };

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
}

/**
 * Parsed (and, from a worker, gated) items of a file. Files of WORKER_MIN_BYTES or more are parsed
 * and gated in a worker thread (the two cores work at once: the main thread inserts while the next
 * rows are gated). CAIRN_IMPORT_WORKER=0 turns it off. When the worker cannot start or dies (Bun,
 * a bundle without the worker file), the rest of the file is parsed here, silently: same items.
 */
export async function* prepareFile(file: string, format: ImportFormat, ctx: PrepareContext, opts: PrepareOptions = {}): AsyncGenerator<PreparedItem> {
  // Before the worker starts: the patterns its modules make are then compiled at their first run (the flag is process-wide).
  compileRegexpsAtFirstRun();
  const size = fs.statSync(file).size;
  const wanted = size >= (opts.minBytes ?? WORKER_MIN_BYTES) && process.env.CAIRN_IMPORT_WORKER !== "0";
  // Bun's worker_threads differ in ways not worth a risk here; it parses on the main thread.
  const url = wanted && !("bun" in process.versions) ? (opts.workerUrl ?? workerEntry()) : undefined;
  let lastLine = 0;
  if (url) {
    const fromWorker = workerItems(url, file, format, ctx);
    try {
      for await (const item of fromWorker) {
        lastLine = item.ok ? item.record.line : item.bad.line;
        yield item;
      }
      return;
    } catch (e) {
      if (e instanceof CairnError) throw e;
      // The worker failed to start or died: carry on from the line after the last one it delivered.
      importWorkerStats.fellBack++;
    } finally {
      await fromWorker.return(undefined);
    }
  }
  for await (const item of parseFile(file, format)) {
    if ((item.ok ? item.record.line : item.bad.line) <= lastLine) continue;
    yield item;
  }
}

/** Messages from the worker (see prepare-worker.ts). */
export type WorkerMessage =
  | { items: TransferredItem[] }
  | { done: true }
  | { error: { code: string; message: string } };

/** The items a worker thread prepares, pulled a few chunks ahead; throws a plain Error when the worker fails. */
async function* workerItems(url: URL, file: string, format: ImportFormat, ctx: PrepareContext): AsyncGenerator<PreparedItem> {
  const { Worker } = await import("node:worker_threads");
  // From source (tests, benches under tsx) the worker must register the TypeScript loader itself:
  // a worker thread on Node 20 does not inherit the loader hooks of `--import tsx`.
  const worker = url.pathname.endsWith(".ts")
    ? new Worker(`import("tsx/esm/api").then((t) => { t.register(); return import(${JSON.stringify(url.href)}); });`, { eval: true, workerData: { file, format, ctx } })
    : new Worker(url, { workerData: { file, format, ctx } });
  const queue: WorkerMessage[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  worker.on("message", (m: WorkerMessage) => {
    queue.push(m);
    notify();
  });
  worker.on("error", (e: Error) => {
    failure = e;
    notify();
  });
  worker.on("exit", (code) => {
    failure ??= new Error(`import worker exited (${code})`);
    notify();
  });
  let counted = false;
  try {
    worker.postMessage({ credit: CREDIT_CHUNKS });
    for (;;) {
      const m = queue.shift();
      if (!m) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if ("error" in m) throw new CairnError(m.error.code as CairnErrorCode, m.error.message);
      if ("done" in m) return;
      if (!counted) {
        importWorkerStats.started++;
        counted = true;
      }
      worker.postMessage({ credit: 1 });
      for (const item of m.items) yield unpackItem(item);
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
