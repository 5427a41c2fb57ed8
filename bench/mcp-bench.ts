// Benchmark: knowledge_recall tool-call latency (p50/p99) over a real stdio spawn of the built server at 10,000 entries.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { v7 as uuidv7 } from "uuid";
import { openCairn } from "../src/engine.js";
import { makeRng } from "./rng.js";

export interface McpBenchOptions {
  /** Entries seeded in the project's swarm tier. */
  entries?: number;
  /** Entries seeded in the hive (the design's budgets assume as many as the swarm). */
  hiveEntries?: number;
  calls?: number;
  seed?: number;
}

export interface McpBenchResult {
  p50: number;
  p99: number;
  n: number;
  /** The same recalls called in-process on the engine: what the MCP round trip adds is the difference. */
  engine: { p50: number; p99: number };
}

const MODULES = ["auth", "billing", "cache", "queue", "search", "upload", "session", "router", "mailer", "scheduler", "metrics", "gateway", "ledger", "profile", "webhook"];
const FILES = ["middleware", "client", "handler", "service", "worker", "adapter", "schema", "controller", "resolver", "config"];
const THINGS = ["token", "timeout", "retry budget", "connection pool", "null check", "transaction", "index", "lock", "cursor", "rate limit", "migration", "checksum", "header", "cookie", "batch size"];
const ACTIONS = ["validate", "release", "close", "log", "bound", "escape", "await", "cache", "invalidate", "retry"];
const EFFECTS = ["the request hangs", "the worker crashes at startup", "tests flake under load", "data is written twice", "the job silently drops events", "latency spikes past the SLO", "a deadlock appears in CI"];
const CATEGORIES = ["architecture", "tooling", "security", "testing", "debugging", "performance", "integration", "process"];
const KINDS = ["correction", "decision", "insight", "learning", "pattern", "gap"];

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

function lessonText(rnd: () => number, i: number): string {
  const mod = pick(rnd, MODULES);
  const file = `src/${mod}/${pick(rnd, FILES)}${i % 97}.ts`;
  return `In ${file} ${pick(rnd, ACTIONS)} the ${pick(rnd, THINGS)} before calling ${mod}${pick(rnd, FILES)}${i}(); otherwise ${pick(rnd, EFFECTS)} (seen in run ${i}).`;
}

/** A lossless Cairn export of generated entries: the import restores it without the slow quality layer. */
function writeSeedFile(file: string, tier: "swarm" | "hive", n: number, rnd: () => number): void {
  const at = new Date("2025-01-01T00:00:00Z").toISOString();
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(
      JSON.stringify({
        schema_version: 1,
        id: uuidv7(),
        handle: "",
        tier,
        lesson: lessonText(rnd, i),
        category: pick(rnd, CATEGORIES),
        kind: pick(rnd, KINDS),
        tags: [pick(rnd, MODULES)],
        lifecycle: { status: rnd() < 0.5 ? "established" : "candidate", confidence: Number((0.3 + rnd() * 0.7).toFixed(2)) },
        created_at: at,
        updated_at: at,
      }),
    );
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error("package.json not found above the bench");
    dir = up;
  }
  return dir;
}

/** Varied queries in the words of the seeded lessons, so most find candidates. */
function query(rnd: () => number): string {
  return `${pick(rnd, ACTIONS)} ${pick(rnd, THINGS)} in ${pick(rnd, MODULES)} ${pick(rnd, FILES)} when ${pick(rnd, EFFECTS)}`;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runMcpBench(opts: McpBenchOptions = {}): Promise<McpBenchResult> {
  const { entries = 10_000, hiveEntries = 10_000, calls = 500, seed = 42 } = opts;
  const main = path.join(packageRoot(), "dist", "mcp.js");
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-mcp-bench-"));
  const projectDir = path.join(tmp, "project");
  fs.mkdirSync(projectDir);
  const env = { PATH: process.env.PATH ?? "", HOME: tmp, XDG_DATA_HOME: path.join(tmp, "data"), XDG_CONFIG_HOME: path.join(tmp, "config"), CAIRN_HIVE: path.join(tmp, "hive.db") };
  const rnd = makeRng(seed);
  let client: Client | undefined;
  try {
    const cairn = await openCairn({ projectDir, env, config: { knowledge: { swarm_max_entries: entries + 10, hive_max_entries: hiveEntries + 10 } } });
    for (const [tier, n] of [["swarm", entries], ["hive", hiveEntries]] as const) {
      if (n === 0) continue;
      const file = path.join(tmp, `${tier}.jsonl`);
      writeSeedFile(file, tier, n, rnd);
      const report = await cairn.importFile(file, { format: "cairn" });
      if (report.imported !== n) throw new Error(`seeding ${tier}: imported ${report.imported} of ${n} (${JSON.stringify(report.rejections.slice(0, 3))})`);
    }
    const queries = Array.from({ length: calls }, () => query(rnd));
    const engineTimes: number[] = [];
    for (const q of queries.slice(0, 20)) await cairn.recall(q, { limit: 5 });
    for (const q of queries) {
      const t0 = performance.now();
      await cairn.recall(q, { limit: 5 });
      engineTimes.push(performance.now() - t0);
    }
    await cairn.close();

    client = new Client({ name: "mcp-bench", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [main], cwd: projectDir, env, stderr: "ignore" }));
    for (const q of queries.slice(0, 20)) await client.callTool({ name: "knowledge_recall", arguments: { query: q } });

    const times: number[] = [];
    for (const q of queries) {
      const args = { query: q, top_n: 5 };
      const t0 = performance.now();
      const r = await client.callTool({ name: "knowledge_recall", arguments: args });
      times.push(performance.now() - t0);
      if (r.isError) throw new Error(`recall failed: ${JSON.stringify(r.content)}`);
    }
    times.sort((a, b) => a - b);
    engineTimes.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length, engine: { p50: percentile(engineTimes, 50), p99: percentile(engineTimes, 99) } };
  } finally {
    await client?.close().catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const t0 = performance.now();
  const r = await runMcpBench();
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  console.log(`mcp knowledge_recall over stdio, 10,000 swarm + 10,000 hive entries: n=${r.n} p50=${ms(r.p50)} p99=${ms(r.p99)}`);
  console.log(`  same recalls in-process on the engine: p50=${ms(r.engine.p50)} p99=${ms(r.engine.p99)} (total ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
