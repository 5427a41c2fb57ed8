// Worker thread entry of an import: parses and gates its share of the file, sending items a chunk at a time as the main thread asks for them.
import { parentPort, workerData } from "node:worker_threads";
import { CairnError } from "../errors.js";
import { chunkOfLine, ownsLine, type Shard } from "./chunk-plan.js";
import { itemLine, parseFile } from "./parse.js";
import { prepareItem, type PrepareContext, type WorkerMessage } from "./prepare.js";
import { packItem, type TransferredItem } from "./prepared-transfer.js";
import type { ImportFormat } from "./types.js";

const port = parentPort;
const { file, format, ctx, shard } = workerData as { file: string; format: ImportFormat; ctx: PrepareContext; shard: Shard };

// Credits: chunks the main thread is ready for. Without them a fast parser would queue the whole file in its memory.
let credit = 0;
let wake: (() => void) | undefined;
port?.on("message", (m: { credit?: number }) => {
  credit += m.credit ?? 0;
  wake?.();
  wake = undefined;
});

async function send(chunk: number, items: TransferredItem[]): Promise<void> {
  while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  port!.postMessage({ chunk, items } satisfies WorkerMessage);
}

/** Sends the items of this worker's chunks, in file order; a chunk without items is not sent (the main thread skips it). */
async function run(): Promise<void> {
  let items: TransferredItem[] = [];
  let chunk = 0;
  const owns = shard.count > 1 ? (line: number) => ownsLine(shard, line) : undefined;
  for await (const item of parseFile(file, format, { owns })) {
    const k = chunkOfLine(itemLine(item));
    if (k !== chunk && items.length) {
      await send(chunk, items);
      items = [];
    }
    chunk = k;
    items.push(packItem(prepareItem(item, ctx, { ahead: true })));
  }
  if (items.length) await send(chunk, items);
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
