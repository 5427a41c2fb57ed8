// A module loaded on first use and then held: later calls await a settled promise instead of import().
/**
 * `await import()` of a module that is already loaded is not free: under loader hooks (tsx, which
 * the bench and the tests use) every call crosses to the hooks thread and back, ~0.5 ms idle and
 * a turn of the event loop, so a timer (the idle WAL checkpoint) could run inside a hot call.
 * Hot operations keep the promise instead; awaiting it again costs only a microtask.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((e: unknown) => {
      // A failed load (a missing optional module) must be retried, not remembered.
      loading = undefined;
      throw e;
    });
    return loading;
  };
}
