// Change subscribers of one store: told after a change commits, and a failing one never undoes the change.
import type { StoreChange, StoreListener } from "./store.js";

export class StoreListeners {
  private readonly listeners = new Set<StoreListener>();

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The change is committed; a failing listener must not make it look as if it were not. */
  async emit(change: StoreChange): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(change);
      } catch (e) {
        process.stderr.write(`cairn: a change listener failed: ${(e as Error).message}\n`);
      }
    }
  }
}
