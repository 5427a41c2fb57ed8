// One recall or injection timed as the interleaved A/B benches time it: after a turn of the event loop, CPU of the whole process and wall time.
export interface CallEngine {
  recall(q: string, o: { limit: number }): Promise<unknown>;
  inject(c: unknown): Promise<unknown>;
}

export async function timedCall(cairn: CallEngine, kind: "recall" | "inject", input: unknown): Promise<{ cpuMs: number; wallMs: number }> {
  // A turn of the event loop between calls, as a server has: deferred upkeep runs there, untimed.
  await new Promise((r) => setImmediate(r));
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  if (kind === "recall") await cairn.recall(input as string, { limit: 10 });
  else await cairn.inject(input);
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000, wallMs };
}
