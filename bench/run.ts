// `npm run bench`: seeds (cached) corpora, measures each size in its own process, prints results against DESIGN.md budgets.
import { runResultWorker } from "./child-result.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./corpus.js";
import type { SizeResult } from "./measure.js";
import { BUDGETS, detailLines, renderTable, rowsFor, type Row } from "./report.js";
import { emptyRecallLine } from "./empty-recall.js";
import { ensureCorpus } from "./seed.js";
import { bundledWorker } from "./bundled-worker.js";
import { runStartupBench, startupLines, type StartupResult } from "./startup.js";
import { uiBenchLines, type UiBenchResult } from "./ui-bench.js";
import { importBenchLines } from "./import-bench.js";
import { firstCallLines } from "./first-call.js";
import { memoryLines, runMemoryBench } from "./memory-bench.js";
import { machineSpeedLine, measureMachineSpeed } from "./machine-speed.js";

const USAGE = `usage: node --expose-gc --import tsx bench/run.ts [--sizes 1000,10000,100000] [--seed 42] [--json] [--no-extras] [--strict]
  --sizes   entries per tier (each size seeds N swarm + N hive entries)
  --vectors on|off|only  on (default): each size measured twice, words only and with the built-in
            embedder on (hybrid recall, query embedding included); off: words only; only: vectors on only
  --json    machine-readable output on stdout (progress goes to stderr)
  --no-extras  skip bench/mcp-bench.ts (needs \`npm run build\` for dist/mcp.js) and bench/opencode-bench.ts
  --add/--recall/--inject N  timed calls per size (default 300/500/500)
  --no-startup   skip CLI cold start and plugin load (bench/startup.ts)
  --no-opencode  skip the opencode-run-with-vs-without-plugin comparison (slow: 8 opencode runs)
  --memory-turns N  injection turns of the long-running-server memory bench (default 100000, ~15 min; 0 skips it)
  --strict  exit 1 when a budget fails`;

interface Args {
  sizes: number[];
  seed: number;
  json: boolean;
  extras: boolean;
  strict: boolean;
  startup: boolean;
  opencodeRuns: number;
  counts: string[];
  memoryTurns: number;
  /** Which retrieval each size is measured with: false = words only, true = built-in vectors on. */
  vectorModes: boolean[];
}

function parseArgs(argv: string[]): Args {
  const a: Args = { sizes: [1_000, 10_000, 100_000], seed: 42, json: false, extras: true, strict: false, startup: true, opencodeRuns: 3, counts: [], memoryTurns: 100_000, vectorModes: [false, true] };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    if (k === "--sizes") a.sizes = argv[++i]!.split(",").map((s) => Number(s.replace(/[_k]/g, (m) => (m === "k" ? "000" : ""))));
    else if (k === "--seed") a.seed = Number(argv[++i]);
    else if (k === "--json") a.json = true;
    else if (k === "--no-extras" || k === "--no-mcp") a.extras = false;
    else if (k === "--strict") a.strict = true;
    else if (k === "--no-startup") a.startup = false;
    else if (k === "--no-opencode") a.opencodeRuns = 0;
    else if (k === "--memory-turns") a.memoryTurns = Number(argv[++i]);
    else if (k === "--vectors") {
      const v = argv[++i];
      if (v === "on") a.vectorModes = [false, true];
      else if (v === "off") a.vectorModes = [false];
      else if (v === "only") a.vectorModes = [true];
      else throw new Error(`--vectors takes on, off or only\n${USAGE}`);
    }
    else if (["--add", "--recall", "--inject"].includes(k)) a.counts.push(k, argv[++i]!);
    else if (k === "--help" || k === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown option ${k}\n${USAGE}`);
  }
  if (a.sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--sizes must be positive integers\n${USAGE}`);
  return a;
}

function measure(worker: string, size: number, seed: number, counts: string[], vectors: boolean): Promise<SizeResult> {
  const args = ["--expose-gc", worker, "--size", String(size), "--seed", String(seed), "--vectors", vectors ? "on" : "off", ...counts];
  return runResultWorker<SizeResult>(args, REPO_ROOT, `size ${size}${vectors ? " vectors on" : ""}: measure worker`);
}

interface ExtraOutcome<T> {
  result?: T;
  skipped?: string;
}
type McpResult = { p50: number; p99: number; n: number; engine: { p50: number; p99: number } };
type GatesResult = import("./gates-bench.js").GatesResult;
type PgBenchResult = import("./pg-bench.js").PgBenchResult;
type ImportBenchResult = import("./import-bench.js").ImportBenchResult;
type FirstCallResult = import("./first-call.js").FirstCallResult;
type OpencodeResult = { size: number; turn: { p50: number; p99: number }; step: { p50: number; p99: number }; engine: { p50: number; p99: number }; injected: number };

/** Benches other people own (bench/mcp-bench.ts, bench/opencode-bench.ts): run when present, skipped with a reason otherwise. */
async function extraBench<T>(file: string, fn: string): Promise<ExtraOutcome<T>> {
  if (!fs.existsSync(path.join(REPO_ROOT, "bench", `${file}.ts`))) return { skipped: `bench/${file}.ts not present` };
  try {
    // A variable specifier: this module must load (and type-check) whether or not the file exists.
    const spec = `./${file}.js`;
    const mod = (await import(spec)) as Record<string, unknown>;
    const run = mod[fn];
    if (typeof run !== "function") return { skipped: `bench/${file}.ts exports no ${fn}()` };
    return { result: (await (run as () => Promise<T>)()) };
  } catch (e) {
    return { skipped: (e as Error).message.split("\n")[0] };
  }
}

/** The bulk import bench in a process of its own running the bundled engine, its import worker started as the built package starts it. */
async function importBench(): Promise<ExtraOutcome<ImportBenchResult>> {
  try {
    const args = [await bundledWorker(path.join("bench", "import-bench.ts")), "--result-line"];
    return { result: await runResultWorker<ImportBenchResult>(args, REPO_ROOT, "import bench", 400) };
  } catch (e) {
    const lines = (e as Error).message.split("\n").filter((l) => l.trim());
    return { skipped: lines[lines.length - 1] ?? (e as Error).message };
  }
}

/**
 * The PostgreSQL bench in a process of its own: in this one, the heap the SQLite benches left and
 * their collections land in its p99. Unreachable PostgreSQL (or any failure) skips it with the reason.
 */
async function pgBench(): Promise<ExtraOutcome<PgBenchResult>> {
  try {
    const args = ["--expose-gc", await bundledWorker(path.join("bench", "pg-bench.ts")), "--result-line"];
    return { result: await runResultWorker<PgBenchResult>(args, REPO_ROOT, "postgres bench", 400) };
  } catch (e) {
    // The child's last stderr line says why (its own message, e.g. how to point it at a server).
    const lines = (e as Error).message.split("\n").filter((l) => l.trim());
    return { skipped: lines[lines.length - 1] ?? (e as Error).message };
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => (args.json ? process.stderr : process.stdout).write(`${m}\n`);
  if (!(globalThis as { gc?: unknown }).gc) log("note: run with --expose-gc for a settled memory reading in the parent (workers always have it)");
  const results: SizeResult[] = [];
  const errors: string[] = [];
  // Before and after: the figures of one run are read against how fast the machine was while it ran.
  const speedBefore = measureMachineSpeed();
  log(machineSpeedLine(speedBefore));
  // Each size runs in a fresh process of the bundled engine: its memory is Cairn's as shipped, not a TypeScript loader's.
  const worker = await bundledWorker(path.join("bench", "measure-worker.ts"));
  for (const size of args.sizes) {
    await ensureCorpus(size, args.seed, log);
    for (const vectors of args.vectorModes) {
      log(`measuring ${size.toLocaleString("en-US")} swarm + ${size.toLocaleString("en-US")} hive entries, vectors ${vectors ? "on" : "off"}…`);
      try {
        results.push(await measure(worker, size, args.seed, args.counts, vectors));
      } catch (e) {
        errors.push((e as Error).message);
        log((e as Error).message);
      }
    }
  }
  if (args.extras) log("running bench/mcp-bench.ts and bench/opencode-bench.ts when present (--no-extras skips them)…");
  const mcp: ExtraOutcome<McpResult> = args.extras ? await extraBench<McpResult>("mcp-bench", "runMcpBench") : { skipped: "--no-extras" };
  const opencode: ExtraOutcome<OpencodeResult> = args.extras ? await extraBench<OpencodeResult>("opencode-bench", "runOpencodeBench") : { skipped: "--no-extras" };
  let startup: StartupResult | undefined;
  if (args.startup) {
    log("measuring start-up (whole processes; --no-startup skips)…");
    try {
      startup = await runStartupBench({ opencodeRuns: args.opencodeRuns, log });
    } catch (e) {
      errors.push(`startup: ${(e as Error).message}`);
    }
  }
  const gates: ExtraOutcome<GatesResult> = await extraBench<GatesResult>("gates-bench", "runGatesBench");
  log("measuring the first call of a fresh process (10,000 + 10,000)…");
  const firstCall: ExtraOutcome<FirstCallResult> = await extraBench<FirstCallResult>("first-call", "runFirstCallBench");
  let memory: ExtraOutcome<import("./memory-bench.js").MemoryResult> = { skipped: "--memory-turns 0" };
  if (args.memoryTurns > 0) {
    log(`measuring resident memory over ${args.memoryTurns.toLocaleString("en-US")} injection turns at 10,000 + 10,000 (--memory-turns 0 skips)…`);
    try {
      memory = { result: await runMemoryBench(10_000, args.seed, args.memoryTurns) };
    } catch (e) {
      errors.push(`memory: ${(e as Error).message}`);
      memory = { skipped: (e as Error).message.split("\n")[0] };
    }
  }
  log("measuring bulk import (20,000 generated rows into a fresh project)…");
  const imports = await importBench();
  const ui: ExtraOutcome<UiBenchResult> = args.extras ? await extraBench<UiBenchResult>("ui-bench", "runUiBench") : { skipped: "--no-extras" };
  const postgres: ExtraOutcome<PgBenchResult> = args.extras ? await pgBench() : { skipped: "--no-extras" };
  const speedAfter = measureMachineSpeed();
  const rows: Row[] = results.flatMap(rowsFor);
  const report = {
    date: new Date().toISOString(),
    machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cpu: os.cpus()[0]?.model ?? "unknown", cpus: os.cpus().length, speedBefore, speedAfter },
    seed: args.seed,
    corpus: "each size N = N swarm entries + N hive entries",
    budgets: BUDGETS,
    rows,
    results,
    mcp,
    opencode,
    startup,
    gates,
    imports,
    firstCall,
    memory,
    ui,
    postgres,
    errors,
  };
  fs.mkdirSync(path.join(REPO_ROOT, "bench", "results"), { recursive: true });
  fs.writeFileSync(path.join(REPO_ROOT, "bench", "results", "latest.json"), JSON.stringify(report, null, 2) + "\n");

  if (args.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  else {
    log(`\nCairn benchmark — seed ${args.seed}, N swarm + N hive entries per size, ${report.machine.cpu}, Node ${process.version}`);
    log(`${machineSpeedLine(speedBefore)}, before; best ${speedAfter.referenceMs.toFixed(0)} ms after\n`);
    log(renderTable(rows));
    log("");
    for (const r of results) log(detailLines(r));
    for (const r of results) if (r.emptyRecall) log(emptyRecallLine(r.size, r.emptyRecall));
    if (mcp.result) log(`mcp knowledge_recall over stdio (10,000 + 10,000): p50 ${mcp.result.p50.toFixed(2)} ms, p99 ${mcp.result.p99.toFixed(2)} ms (engine alone p50 ${mcp.result.engine.p50.toFixed(2)} ms)`);
    else log(`mcp bench skipped: ${mcp.skipped}`);
    if (opencode.result) {
      const o = opencode.result;
      log(`opencode plugin hook, new turn (${o.size.toLocaleString("en-US")} + ${o.size.toLocaleString("en-US")}): p50 ${o.turn.p50.toFixed(2)} ms, p99 ${o.turn.p99.toFixed(2)} ms (engine inject alone p99 ${o.engine.p99.toFixed(2)} ms; cached step p99 ${o.step.p99.toFixed(2)} ms)`);
    } else log(`opencode bench skipped: ${opencode.skipped}`);
    if (startup) for (const l of startupLines(startup)) log(l);
    if (gates.result) {
      const g = gates.result;
      log(`write gate, ${g.lessonChars}-char lesson (warm): p50 ${g.p50.toFixed(3)} ms, p99 ${g.p99.toFixed(3)} ms (budget p50 ≤ 1 ms); paste 1 MB ${g.paste1mbMs.toFixed(0)} ms, 4 MB ${g.paste4mbMs.toFixed(0)} ms (×${(g.paste4mbMs / g.paste1mbMs).toFixed(1)}: linear is ≈ ×4)`);
    } else log(`gates bench skipped: ${gates.skipped}`);
    if (firstCall.result) log(firstCallLines(firstCall.result).join("\n"));
    else log(`first-call bench skipped: ${firstCall.skipped}`);
    if (memory.result) log(memoryLines(memory.result).join("\n"));
    else log(`memory bench skipped: ${memory.skipped}`);
    if (imports.result) log(importBenchLines(imports.result).join("\n"));
    else log(`import bench skipped: ${imports.skipped}`);
    if (ui.result) log(uiBenchLines(ui.result).join("\n"));
    else log(`ui bench skipped: ${ui.skipped}`);
    if (postgres.result) {
      const p = postgres.result;
      log(`PostgreSQL team hive (${p.hiveRows.toLocaleString("en-US")} hive rows in ${p.server} + ${p.swarmRows.toLocaleString("en-US")} swarm): inject p99 ${p.inject.p99.toFixed(2)} ms (target ≤ 15)${p.inject.thread ? ` [main thread on CPU p99 ${p.inject.thread.cpu.p99.toFixed(2)} ms, waiting for a CPU p99 ${p.inject.thread.runQueue.p99.toFixed(2)} ms; load ${p.load.before.toFixed(1)}→${p.load.after.toFixed(1)} on ${p.load.cpus} CPUs]` : ""}, recall p50 ${p.recall.p50.toFixed(2)} ms (target ≤ 8); database down: inject p99 ${p.fallback.p99.toFixed(2)} ms, ${p.fallback.withHive}/${p.fallback.n} blocks still carried hive lessons`);
    } else log(`postgres bench skipped: ${postgres.skipped}`);
    for (const e of errors) log(`ERROR ${e}`);
    log("\nwritten to bench/results/latest.json");
  }
  const failed = errors.length > 0 || rows.some((r) => r.pass === false) || Boolean(ui.result?.pages.some((p) => !p.pass));
  if (args.strict && failed) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(2);
});
