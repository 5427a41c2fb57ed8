// Benchmark: bulk import throughput (rows/s) into a fresh project — a lossless restore and a trusted opencode-swarm load.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openCairn } from "../src/index.js";
import { generatedLesson } from "./corpus.js";
import { makeRng } from "./rng.js";
import { makeEntry } from "./seed.js";

export interface ImportRate {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  /** CPU (user + system) per row, ms, all threads of the process. */
  cpuMsPerRow: number;
  /** CPU of the main thread alone per row, ms (parsing and gating may run in a worker thread); NaN where it cannot be read. */
  mainCpuMsPerRow: number;
  imported: number;
}

export interface ImportBenchResult {
  lossless: ImportRate;
  opencodeSwarm: ImportRate;
}

export const IMPORT_TARGET_ROWS_PER_S = 5_000;

/** A cairn export of `n` distinct generated entries. */
function writeLossless(file: string, n: number, seed: number): void {
  const rng = makeRng(seed);
  const lines = [JSON.stringify({ cairn_export: 1, schema_version: 1 })];
  for (let i = 0; i < n; i++) {
    const e = makeEntry(rng, "swarm", undefined);
    // A unique incident number: every row is a distinct lesson, as in a real backup.
    lines.push(JSON.stringify({ ...e, lesson: `${e.lesson.slice(0, 250)} (row ${i})`, lifecycle: { ...e.lifecycle, status: "candidate" } }));
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

/** An opencode-swarm knowledge.jsonl of `n` distinct generated lessons. */
function writeOpencodeSwarm(file: string, n: number, seed: number): void {
  const rng = makeRng(seed);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const g = generatedLesson(rng, i);
    lines.push(JSON.stringify({ id: `k-${i}`, tier: "swarm", lesson: g.lesson, category: g.category, tags: [g.stack.name, g.domain], scope: "global", confidence: 0.6, status: "candidate", created_at: "2026-01-02T03:04:05Z" }));
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

/**
 * CPU time of the main thread alone, ms. process.cpuUsage() sums every thread; Node 20 has no
 * per-thread call, so Linux's /proc is read (the main thread's task id is the process id). NaN elsewhere.
 */
function mainThreadCpuMs(): number {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th (clock ticks, 100 Hz on Linux).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

async function timeImport(dir: string, file: string, format: "cairn" | "opencode-swarm"): Promise<ImportRate> {
  const env = { PATH: process.env.PATH ?? "", HOME: dir, XDG_DATA_HOME: path.join(dir, "xdg-data"), XDG_CONFIG_HOME: path.join(dir, "xdg-config") };
  const projectDir = path.join(dir, `project-${format}`);
  fs.mkdirSync(projectDir, { recursive: true });
  const cairn = await openCairn({
    projectDir, hivePath: path.join(dir, `hive-${format}.db`), env, actor: "human:bench",
    config: { knowledge: { swarm_max_entries: 10_000_000, hive_max_entries: 10_000_000 } },
  });
  try {
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadCpuMs();
    const t0 = process.hrtime.bigint();
    const r = await cairn.importFile(file, { format, trusted: true });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    const mainMs = mainThreadCpuMs() - main0;
    const rows = r.imported + r.reinforced + r.unchanged + r.rejected + r.skipped_lines.length;
    return { rows, seconds, rowsPerSecond: rows / seconds, cpuMsPerRow: (cpu.user + cpu.system) / 1000 / rows, mainCpuMsPerRow: mainMs / rows, imported: r.imported };
  } finally {
    await cairn.close();
  }
}

export async function runImportBench(rows = 20_000, seed = 42): Promise<ImportBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-import-bench-"));
  try {
    const lossless = path.join(dir, "backup.jsonl");
    const swarm = path.join(dir, "knowledge.jsonl");
    const only = process.env.CAIRN_IMPORT_BENCH_ONLY;
    if (only !== "opencode-swarm") writeLossless(lossless, rows, seed);
    // Through the full write path (gates, near-duplicate search) a row costs several times more: a quarter as many.
    if (only !== "cairn") writeOpencodeSwarm(swarm, Math.ceil(rows / 4), seed + 1);
    const none: ImportRate = { rows: 0, seconds: 0, rowsPerSecond: 0, cpuMsPerRow: 0, mainCpuMsPerRow: 0, imported: 0 };
    return {
      lossless: only === "opencode-swarm" ? none : await timeImport(dir, lossless, "cairn"),
      opencodeSwarm: only === "cairn" ? none : await timeImport(dir, swarm, "opencode-swarm"),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function importBenchLines(r: ImportBenchResult): string[] {
  const line = (name: string, x: ImportRate) =>
    `import ${name} (${x.rows.toLocaleString("en-US")} rows, --trusted, fresh project): ${Math.round(x.rowsPerSecond).toLocaleString("en-US")} rows/s, ${x.cpuMsPerRow.toFixed(3)} ms CPU/row (main thread ${x.mainCpuMsPerRow.toFixed(3)}) (target ≥ ${IMPORT_TARGET_ROWS_PER_S.toLocaleString("en-US")} rows/s)`;
  return [line("lossless", r.lossless), line("opencode-swarm", r.opencodeSwarm)];
}

// Run directly: `node --import tsx bench/import-bench.ts [rows]`; bench/run.ts runs it bundled with
// `--result-line` (one `RESULT {json}` line, read by bench/child-result.ts).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const resultLine = process.argv.includes("--result-line");
  const rows = process.argv.slice(2).find((a) => /^\d+$/.test(a));
  runImportBench(Number(rows ?? 20_000)).then(
    (r) => console.log(resultLine ? `RESULT ${JSON.stringify(r)}` : importBenchLines(r).join("\n")),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
