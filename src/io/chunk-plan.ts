// How an import file is cut into chunks by line number, and which prepare worker owns each: chunk k goes to worker k % count.

/**
 * Lines in the first chunk; each next one holds twice as many, up to CHUNK_LINES. The thread that
 * stores the rows waits for the first chunk (~90 ms to start a worker, then its first rows warm the
 * gates and the model): a full chunk first kept it idle ~150 ms more.
 */
export const FIRST_CHUNK_LINES = 16;
/** Lines per chunk (a message from a worker): ~a row each in the line formats. */
export const CHUNK_LINES = 256;

/** One worker's share of a file: the chunks k with k % count === index. */
export interface Shard {
  index: number;
  count: number;
}

/** The chunk (from 0) a line (from 1) falls in. */
export function chunkOfLine(line: number): number {
  let first = 1;
  let size = FIRST_CHUNK_LINES;
  for (let k = 0; ; k++) {
    if (size >= CHUNK_LINES) return k + Math.floor((line - first) / CHUNK_LINES);
    if (line < first + size) return k;
    first += size;
    size = Math.min(CHUNK_LINES, size * 2);
  }
}

/** Whether `line` is in a chunk `shard` owns. */
export function ownsLine(shard: Shard, line: number): boolean {
  return chunkOfLine(line) % shard.count === shard.index;
}
