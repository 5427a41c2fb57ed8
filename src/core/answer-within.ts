// Waiting a bounded time for a promise: its value when it answers in time, else nothing (it is left to settle on its own).

/** `{ value }` when `p` answers within `ms`, undefined when it has not; a rejection within `ms` is passed on. */
export function answerWithin<T>(p: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  // A promise that loses the race still settles later; its result (or error) is not wanted.
  p.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([p.then((value) => ({ value })), late]).finally(() => clearTimeout(timer));
}
