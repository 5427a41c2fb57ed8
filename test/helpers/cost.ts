// Cost of a call for "linear, not quadratic" tests: CPU time, not wall time, so other processes on a busy machine barely move it.

/** CPU microseconds (user + system) of this process spent in `f`, per call: the cheapest of several batches. */
export function cpuMicros(f: () => void, opts: { calls?: number; batches?: number } = {}): number {
  const calls = opts.calls ?? 4;
  let best = Infinity;
  for (let b = 0; b < (opts.batches ?? 9); b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) f();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / calls);
  }
  return best;
}

/** The same for async work. */
export async function cpuMicrosAsync(f: () => Promise<unknown>, opts: { calls?: number; batches?: number } = {}): Promise<number> {
  const calls = opts.calls ?? 3;
  let best = Infinity;
  for (let b = 0; b < (opts.batches ?? 5); b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await f();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / calls);
  }
  return best;
}

/**
 * How much more a call on the large input costs than on the small one, each warmed first. With
 * inputs 4× apart, linear work gives ~4 and quadratic ~16; tests assert well below 16. A ratio past
 * `recheckAbove` is measured again, up to twice, and the least kept: on a loaded machine one burst
 * (another process's cache traffic, a GC landing in the large batch) lifted a linear ratio to 10,
 * whereas quadratic work stays near 16 on every try, so the tests still catch it.
 */
export function growth(small: () => void, large: () => void, opts?: { calls?: number; batches?: number; recheckAbove?: number }): number {
  small();
  large();
  const once = () => cpuMicros(large, opts) / Math.max(cpuMicros(small, opts), FLOOR_MICROS);
  let least = once();
  for (let retry = 0; retry < 2 && least > (opts?.recheckAbove ?? 6); retry++) least = Math.min(least, once());
  return least;
}

/** Below it CPU accounting is too coarse for a ratio to mean anything. */
const FLOOR_MICROS = 20;

/**
 * CPU cost of `numerator` over `denominator` per call, for async work. A ratio past `recheckAbove`
 * is measured again, up to twice, and the least kept, as in `growth`: one burst of another
 * process's load lifted a steady 2.4 to 4.3 in a CI run, whereas the slow code this guards against
 * stays high on every try.
 */
export async function costRatioAsync(
  numerator: () => Promise<unknown>,
  denominator: () => Promise<unknown>,
  opts: { calls?: number; batches?: number; recheckAbove: number },
): Promise<number> {
  const once = async () => (await cpuMicrosAsync(numerator, opts)) / Math.max(await cpuMicrosAsync(denominator, opts), FLOOR_MICROS);
  let least = await once();
  for (let retry = 0; retry < 2 && least > opts.recheckAbove; retry++) least = Math.min(least, await once());
  return least;
}
