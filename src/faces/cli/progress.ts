// Import progress on stderr: a bar on a terminal, an occasional plain line otherwise, nothing for --json on a pipe.
import { createReadStream } from "node:fs";
import cliProgress from "cli-progress";

export interface Progress {
  update(processed: number): void;
  stop(): void;
}

/** Lines in the file, as the bar's (approximate) total; records and lines are one-to-one for JSONL. */
async function countLines(file: string): Promise<number> {
  let n = 0;
  let last = 10;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) n++;
    if (chunk.length) last = chunk[chunk.length - 1]!;
  }
  return last === 10 ? n : n + 1;
}

/** Rows per second since the import started, for people judging how long the rest will take. */
function rateSince(startedAt: number, n: number): string {
  const seconds = (Date.now() - startedAt) / 1000;
  return seconds > 0 ? Math.round(n / seconds).toLocaleString("en-US") : "–";
}

/** A bar redraws its line with cursor escapes: only on a terminal that does not call itself dumb (Emacs shells, some CI logs). */
function canRedraw(): boolean {
  return Boolean(process.stderr.isTTY) && process.env.TERM !== "dumb";
}

export async function importProgress(file: string, quiet: boolean): Promise<Progress> {
  let startedAt = Date.now();
  if (canRedraw()) {
    const total = await countLines(file).catch(() => 0);
    startedAt = Date.now();
    const bar = new cliProgress.SingleBar(
      { stream: process.stderr, format: "importing [{bar}] {value}/{total} records, {rate} rows/s", hideCursor: true, clearOnComplete: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(Math.max(total, 1), 0, { rate: "–" });
    return {
      update: (n) => {
        if (n > bar.getTotal()) bar.setTotal(n);
        bar.update(n, { rate: rateSince(startedAt, n) });
      },
      stop: () => bar.stop(),
    };
  }
  if (quiet) return { update: () => {}, stop: () => {} };
  // Logs and CI get a line every few seconds, so a long import is visibly alive but not noisy.
  let last = Date.now();
  return {
    update: (n) => {
      if (Date.now() - last < 3000) return;
      last = Date.now();
      process.stderr.write(`importing… ${n} records, ${rateSince(startedAt, n)} rows/s\n`);
    },
    stop: () => {},
  };
}

/** Progress of a job whose total is known up front (`cairn reindex`): a bar on a terminal, a line every few seconds otherwise. */
export function countProgress(label: string, quiet: boolean): { update(done: number, total: number): void; stop(): void } {
  if (canRedraw()) {
    const bar = new cliProgress.SingleBar(
      { stream: process.stderr, format: `${label} [{bar}] {value}/{total}`, hideCursor: true, clearOnComplete: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update: (done, total) => {
        if (!started) bar.start(Math.max(total, 1), done);
        started = true;
        if (total !== bar.getTotal()) bar.setTotal(Math.max(total, 1));
        bar.update(done);
      },
      stop: () => bar.stop(),
    };
  }
  if (quiet) return { update: () => {}, stop: () => {} };
  // The first batch's line at once (the job has started, and how big it is), then one every few seconds.
  let last = 0;
  return {
    update: (done, total) => {
      if (Date.now() - last < 3000) return;
      last = Date.now();
      process.stderr.write(`${label}… ${done}/${total}\n`);
    },
    stop: () => {},
  };
}
