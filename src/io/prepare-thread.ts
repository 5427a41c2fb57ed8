// One prepare worker thread as the main thread sees it: started on its share of the file, its messages read one at a time, its failure rethrown.
import type { Worker } from "node:worker_threads";
import type { Shard } from "./chunk-plan.js";
import type { PrepareContext, WorkerMessage } from "./prepare.js";
import type { ImportFormat } from "./types.js";

/** What a prepare worker is started with (prepare-worker.ts reads it as its workerData). */
export interface PrepareWork {
  file: string;
  format: ImportFormat;
  ctx: PrepareContext;
  shard: Shard;
}

export class PrepareThread {
  private readonly queue: WorkerMessage[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  private constructor(private readonly worker: Worker) {
    const notify = () => {
      this.wake?.();
      this.wake = undefined;
    };
    worker.on("message", (m: WorkerMessage) => {
      this.queue.push(m);
      notify();
    });
    worker.on("error", (e: Error) => {
      this.failure = e;
      notify();
    });
    worker.on("exit", (code) => {
      this.failure ??= new Error(`import worker exited (${code})`);
      notify();
    });
  }

  /** Starts the worker at `url` and grants it `credit` chunks ahead. */
  static async start(url: URL, work: PrepareWork, credit: number): Promise<PrepareThread> {
    const { Worker } = await import("node:worker_threads");
    // From source (tests, benches under tsx) the worker must register the TypeScript loader itself:
    // a worker thread on Node 20 does not inherit the loader hooks of `--import tsx`.
    const worker = url.pathname.endsWith(".ts")
      ? new Worker(`import("tsx/esm/api").then((t) => { t.register(); return import(${JSON.stringify(url.href)}); });`, { eval: true, workerData: work })
      : new Worker(url, { workerData: work });
    const thread = new PrepareThread(worker);
    thread.grant(credit);
    return thread;
  }

  /** The next message, left in place (take() removes it); throws a plain Error when the worker failed before sending it. */
  async peek(): Promise<WorkerMessage> {
    for (;;) {
      const m = this.queue[0];
      if (m) return m;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Removes the message peek() returned and lets the worker send one more chunk. */
  take(): void {
    this.queue.shift();
    this.grant(1);
  }

  private grant(credit: number): void {
    this.worker.postMessage({ credit });
  }

  async stop(): Promise<void> {
    this.worker.removeAllListeners();
    await this.worker.terminate();
  }
}
