// Worker thread entry of an import: parses and gates the file, sending items in chunks as the main thread asks for them.
import { parentPort, workerData } from "node:worker_threads";
import { shortcuts } from "../core/shortcuts.js";
import { CairnError } from "../errors.js";
import { parseFile } from "./parse.js";
import { CHUNK_ITEMS, CREDIT_CHUNKS, FIRST_CHUNK_ITEMS, prepareItem, type PrepareContext, type WorkerMessage } from "./prepare.js";
import { packItem, type TransferredItem } from "./prepared-transfer.js";
import type { ImportFormat } from "./types.js";

// This thread gates thousands of rows: what pays back over many is built at its first use (shortcuts.ts).
shortcuts.eager = true;

const port = parentPort;
const { file, format, ctx } = workerData as { file: string; format: ImportFormat; ctx: PrepareContext };

// Credits: chunks the main thread is ready for. Without them a fast parser would queue the whole file in its memory.
let credit = 0;
let wake: (() => void) | undefined;
port?.on("message", (m: { credit?: number }) => {
  credit += m.credit ?? 0;
  wake?.();
  wake = undefined;
});

async function send(items: TransferredItem[]): Promise<void> {
  while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  port!.postMessage({ items } satisfies WorkerMessage);
}

/**
 * Whether this thread should also work out what the main thread would compute next for a row (its
 * derived columns, or its dedup key and vector): yes, unless the main thread has taken every chunk
 * but at most one and so is about to wait for this one. Then it does that work itself, and the two
 * threads share the rows' cost instead of one idling while the other runs behind. Either way the
 * same function computes the same values.
 */
function workAhead(): boolean {
  return credit < CREDIT_CHUNKS - 1;
}

async function run(): Promise<void> {
  let chunk: TransferredItem[] = [];
  let size = FIRST_CHUNK_ITEMS;
  let ahead = workAhead();
  for await (const item of parseFile(file, format)) {
    chunk.push(packItem(prepareItem(item, ctx, { ahead })));
    if (chunk.length >= size) {
      await send(chunk);
      chunk = [];
      size = Math.min(CHUNK_ITEMS, size * 2);
      ahead = workAhead();
    }
  }
  if (chunk.length) await send(chunk);
  port!.postMessage({ done: true } satisfies WorkerMessage);
}

run().then(
  () => port?.close(),
  (e: unknown) => {
    // A CairnError (an unreadable file) is the import's answer; anything else makes the main thread take over.
    if (e instanceof CairnError) port?.postMessage({ error: { code: e.code, message: e.message } } satisfies WorkerMessage);
    else throw e;
    port?.close();
  },
);
