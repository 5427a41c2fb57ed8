// New lessons of a trusted bulk import held back and inserted together: one statement, so one full-text flush, per batch instead of per row.
import type { Entry } from "../core/entry.js";
import { handleFor } from "../core/ids.js";
import { derivedColumns, type DerivedColumns } from "../store/entry-columns.js";
import { SqliteStore } from "../store/sqlite-store.js";
import type { EventInput, Store } from "../store/store.js";
import type { BulkNeighbours } from "./bulk-neighbours.js";
import type { WriteResult } from "./write.js";

interface Held {
  entry: Entry;
  /** Its derived columns, computed once for the in-memory index and the insert. */
  derived: DerivedColumns;
  /** Decides the row again, without the queue: for a row its insert refused after all. */
  replay: () => Promise<WriteResult>;
}

/** A queued row whose insert found it was not new after all, and what deciding it again did instead. */
export interface LateResult {
  id: string;
  result: WriteResult;
}

/**
 * The rows writeLesson decided to add, per tier, waiting for one insertEntries. Only inserts wait:
 * every other write of the import (a reinforcement, a supersede, a row stored on its own, a
 * rejection) flushes the queue first, so the database receives the same writes in the same order as
 * row by row, and each row the seq (handle) it would have had. Meanwhile a queued row is a neighbour
 * of the rows after it through its tier's in-memory index (BulkNeighbours.stage), exact twins
 * included. Only for a tier with such an index (SQLite), and only when the caller enforces the cap
 * after the load (a cap read per row would not count queued rows).
 */
export class InsertQueue {
  /** Per tier: the event its rows share (and its JSON, which the next row's event is compared by), the seq before them, the rows. */
  private readonly held = new Map<SqliteStore, { event: EventInput; eventJson: string; base: number; rows: Held[] }>();
  private readonly ids = new Set<string>();
  private late: LateResult[] = [];

  constructor(private readonly indexFor: (store: Store) => BulkNeighbours | undefined) {}

  /** Whether rows wait for flush(). */
  get pending(): boolean {
    return this.ids.size > 0;
  }

  /** Whether the entry with this id waits for flush(): a write that touches it must flush first. */
  holds(id: string): boolean {
    return this.ids.has(id);
  }

  /**
   * Queues `entry` to be inserted into `store` with `event`; returns the handle it will have, or
   * undefined when this tier cannot queue (no in-memory index): the caller inserts it now.
   */
  async add(store: Store, entry: Entry, event: EventInput, replay: () => Promise<WriteResult>): Promise<string | undefined> {
    const index = this.indexFor(store);
    if (!index || !(store instanceof SqliteStore)) return undefined;
    let queue = this.held.get(store);
    const eventJson = JSON.stringify(event);
    // One insertEntries writes one event for all its rows: another event waits for the next one.
    if (queue && queue.eventJson !== eventJson) {
      await this.flush();
      queue = undefined;
    }
    // Every other write flushes the queue first, so its rows take the seqs after the last one used when it began.
    if (!queue) this.held.set(store, (queue = { event, eventJson, base: store.lastSeq(), rows: [] }));
    const seq = queue.base + queue.rows.length + 1;
    const handle = handleFor(store.tier, seq);
    const derived = derivedColumns(entry);
    index.stage(seq, { ...entry, tier: store.tier, handle }, derived);
    queue.rows.push({ entry, derived, replay });
    this.ids.add(entry.id);
    return handle;
  }

  /** Inserts every queued row. A row refused as a twin after all (another writer of this process stored it) is decided again: see takeLate(). */
  async flush(): Promise<void> {
    if (!this.pending) return;
    const queues = [...this.held];
    this.held.clear();
    this.ids.clear();
    for (const [store, { event, rows }] of queues) {
      let outcomes;
      try {
        outcomes = await store.insertEntries(rows.map((r) => r.entry), event, { unique: true, derived: rows.map((r) => r.derived) });
      } finally {
        this.indexFor(store)?.settle();
      }
      for (let i = 0; i < rows.length; i++) {
        if (outcomes[i]!.action !== "inserted") this.late.push({ id: rows[i]!.entry.id, result: await rows[i]!.replay() });
      }
    }
  }

  /** Rows reported added that a flush did not insert, with what happened to them instead; each is returned once. */
  takeLate(): LateResult[] {
    const late = this.late;
    this.late = [];
    return late;
  }
}
