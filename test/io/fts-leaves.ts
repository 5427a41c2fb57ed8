// Counting the leaf pages FTS5 wrote: how bulk-load tests tell one full-text pass per batch from one per row.
import assert from "node:assert/strict";
import type { SqliteStore } from "../../src/store/sqlite-store.js";

/**
 * Leaf pages FTS5 has written to its index since the table was made: the write counter in its
 * structure record (rowid 10 of the _data table: a 4-byte cookie, an optional V2 marker, then
 * varints nLevel, nSegment, nWriteCounter). FTS5 flushes its pending terms at every statement, so
 * a row per statement writes at least one leaf per row.
 */
export function ftsLeavesWritten(store: SqliteStore): number {
  const block = store.driver.get<{ block: Uint8Array }>("SELECT block FROM entries_fts_data WHERE id = 10")?.block;
  assert.ok(block, "FTS5 structure record");
  const bytes = Buffer.from(block);
  let at = bytes.subarray(4, 8).equals(Buffer.from([0xff, 0x00, 0x00, 0x01])) ? 8 : 4;
  const varint = (): number => {
    let v = 0;
    for (let i = 0; i < 9; i++) {
      const b = bytes[at++]!;
      if (i === 8) return v * 256 + b;
      v = v * 128 + (b & 0x7f);
      if (!(b & 0x80)) return v;
    }
    return v;
  };
  varint(); // nLevel
  varint(); // nSegment
  return varint();
}
