// Worker thread entry of an import: parses and gates the file, sending items in chunks as the main thread asks for them.
import { parentPort, workerData } from "node:worker_threads";
import { CairnError } from "../errors.js";
import { parseFile } from "./parse.js";
import { CHUNK_ITEMS, FIRST_CHUNK_ITEMS, prepareItem, type PrepareContext, type WorkerMessage } from "./prepare.js";
import { packItem, type TransferredItem } from "./prepared-transfer.js";
import type { ImportFormat } from "./types.js";

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

async function run(): Promise<void> {
  let chunk: TransferredItem[] = [];
  let size = FIRST_CHUNK_ITEMS;
  for await (const item of parseFile(file, format)) {
    chunk.push(packItem(prepareItem(item, ctx, { ahead: true })));
    if (chunk.length >= size) {
      await send(chunk);
      chunk = [];
      size = Math.min(CHUNK_ITEMS, size * 2);
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
