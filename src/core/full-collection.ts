// A full garbage collection on demand (Node without --expose-gc, or Bun): for moments off the hot path that must leave the heap collected.
import v8 from "node:v8";
import vm from "node:vm";

/**
 * Runs a full (major) collection of the whole heap now; false when the runtime offers no way to.
 * Node exposes gc() only with --expose-gc: the flag is turned on just long enough for a new context
 * to receive the function (which collects the whole isolate, not only that context), then off again,
 * so contexts made later do not find a gc global they did not have.
 */
export function collectGarbageNow(): boolean {
  try {
    const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
    if (bun) {
      bun.gc(true);
      return true;
    }
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === "function") {
      exposed();
      return true;
    }
    v8.setFlagsFromString("--expose-gc");
    try {
      const gc = vm.runInNewContext("gc") as (() => void) | undefined;
      if (typeof gc !== "function") return false;
      gc();
      return true;
    } finally {
      v8.setFlagsFromString("--no-expose-gc");
    }
  } catch {
    return false;
  }
}
