// A figure read from the server and served from memory: past its TTL it is re-read beside the caller's work, past its stale limit the caller waits.
export class RefreshedFigure<T> {
  private value: { at: number; v: T } | undefined;
  private reading: Promise<T> | undefined;

  /**
   * `ttlMs`: served as is. Up to `maxStaleMs`: still served, while one fresh read runs beside the caller
   * (so a search does not wait on that round trip). Older, or never read: the caller waits for the read.
   */
  constructor(private readonly ttlMs: number, private readonly maxStaleMs: number, private readonly read: () => Promise<T>) {}

  /** The last figure read, however old; undefined before the first read. Never reads. */
  peek(): T | undefined {
    return this.value?.v;
  }

  async get(): Promise<T> {
    const age = this.value ? Date.now() - this.value.at : Infinity;
    if (age < this.ttlMs) return this.value!.v;
    const reading = (this.reading ??= this.read()
      .then((v) => {
        this.value = { at: Date.now(), v };
        return v;
      })
      .finally(() => (this.reading = undefined)));
    if (age < this.maxStaleMs) {
      reading.catch(() => {});
      return this.value!.v;
    }
    return reading;
  }
}
