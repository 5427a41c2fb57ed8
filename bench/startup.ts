// Benchmark: what a user waits for before any work — CLI cold start, plugin load, and the plugin's cost to each `opencode run`.
//
// Every figure is a whole new process, repeated; medians are reported with the machine's load,
// because start-up time on a shared 2-core machine moves with whatever else runs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "./corpus.js";
import { ensureCorpus } from "./seed.js";
import { percentile } from "./stats.js";

export interface ProcessTiming {
  /** Median wall time of one whole process, ms. */
  wallMs: number;
  /** Median user + system CPU of that process, ms (null where /usr/bin/time is not available). */
  cpuMs: number | null;
  runs: number;
}

export interface StartupResult {
  loadAverage: number[];
  cliHelp: ProcessTiming;
  cliRecall10k: ProcessTiming;
  /** `cairn add` of a new lesson into a small project: the gates, the word vectors and dedup paid by one process. */
  cliAddFresh: ProcessTiming;
  /** Import of the plugin's package entry and its server() call, in Bun (OpenCode's runtime). */
  pluginLoadBun: ProcessTiming & { inProcessMs: number };
  pluginLoadNode: ProcessTiming & { inProcessMs: number };
  /** Extra CPU and wall of one `opencode run` with the plugin vs without (same scripted model); null when skipped. */
  opencodeOverhead: { withCpuMs: number; withoutCpuMs: number; cpuMs: number; wallMs: number; runs: number } | null;
}

export const STARTUP_TARGETS = { cliWallMs: 250, pluginLoadMs: 150 };

const TIME = "/usr/bin/time";
const hasTime = fs.existsSync(TIME);

interface Sample {
  wall: number;
  cpu: number | null;
  stdout: string;
}

/** One whole process; CPU from /usr/bin/time (user + sys) when present. */
function runOnce(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const timed = hasTime ? [TIME, ["-f", "CAIRN_TIME %U %S", cmd, ...args]] as const : [cmd, args] as const;
    const t0 = process.hrtime.bigint();
    const child = spawn(timed[0], [...timed[1]], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("close", (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(" ")} exited ${code}: ${err.slice(-1000)}`));
      const m = /CAIRN_TIME ([\d.]+) ([\d.]+)/.exec(err);
      resolve({ wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : null, stdout: out });
    });
  });
}

async function repeat(runs: number, one: () => Promise<Sample>): Promise<{ timing: ProcessTiming; samples: Sample[] }> {
  await one(); // warm the OS file cache: a cold disk is not what a user's second command sees
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await one());
  const cpus = samples.map((s) => s.cpu).filter((c): c is number => c !== null);
  return {
    timing: { wallMs: percentile(samples.map((s) => s.wall), 50), cpuMs: cpus.length ? percentile(cpus, 50) : null, runs },
    samples,
  };
}

function sandboxEnv(root: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: "1", HOME: path.join(root, "home"), XDG_DATA_HOME: path.join(root, "data"), XDG_CONFIG_HOME: path.join(root, "config") };
  for (const d of [env.HOME!, env.XDG_DATA_HOME!, env.XDG_CONFIG_HOME!]) fs.mkdirSync(d, { recursive: true });
  return env;
}

const PLUGIN_LOADER = `
const t0 = performance.now();
const mod = await import(process.argv[2]);
const hooks = await mod.default.server({ directory: process.argv[3], worktree: process.argv[3], client: { app: { log: async () => {} } }, project: { id: "bench" }, serverUrl: new URL("http://127.0.0.1:1") }, {});
if (!hooks.tool?.knowledge_add) throw new Error("plugin served no knowledge tools");
console.log("LOAD_MS " + (performance.now() - t0).toFixed(2));
`;

async function pluginLoad(runtime: string, runs: number, root: string): Promise<ProcessTiming & { inProcessMs: number }> {
  const loader = path.join(root, "load-plugin.mjs");
  fs.writeFileSync(loader, PLUGIN_LOADER);
  const project = path.join(root, "plugin-project");
  fs.mkdirSync(project, { recursive: true });
  const entry = pathToFileURL(path.join(REPO_ROOT, "dist", "server.js")).href;
  const { timing, samples } = await repeat(runs, () => runOnce(runtime, [loader, entry, project], { cwd: project, env: sandboxEnv(root) }));
  const inProcess = samples.map((s) => Number(/LOAD_MS ([\d.]+)/.exec(s.stdout)?.[1] ?? NaN));
  return { ...timing, inProcessMs: percentile(inProcess, 50) };
}

/** `opencode run` with the plugin and without it, alternating, against a scripted model answering "ok". */
async function opencodeOverhead(runs: number, root: string): Promise<StartupResult["opencodeOverhead"]> {
  const bin = path.join(REPO_ROOT, "node_modules", ".bin", "opencode");
  if (!fs.existsSync(bin) || !hasTime) return null;
  const { startModelServer } = await import("../test/fixtures/model-server/server.js");
  const { isolatedEnv, modelConfig } = await import("../test/e2e/support/opencode.js");
  const server = await startModelServer(() => ({ text: "ok" }));
  try {
    const projects = { with: path.join(root, "oc-with"), without: path.join(root, "oc-without") };
    const plugin = pathToFileURL(path.join(REPO_ROOT, "dist", "plugin.js")).href;
    for (const [k, dir] of Object.entries(projects)) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "opencode.json"), JSON.stringify(modelConfig(server, k === "with" ? { plugin: [plugin] } : {})));
    }
    const run = (dir: string) => runOnce(bin, ["run", "--format", "json", "say ok"], { cwd: dir, env: isolatedEnv(path.join(root, "oc-home"), dir, { CAIRN_HIVE: path.join(root, "oc-hive.db") }) });
    await run(projects.with);
    await run(projects.without);
    const w: Sample[] = [];
    const wo: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      w.push(await run(projects.with));
      wo.push(await run(projects.without));
    }
    const med = (xs: Sample[], k: "wall" | "cpu") => percentile(xs.map((s) => s[k] ?? NaN), 50);
    return { withCpuMs: med(w, "cpu"), withoutCpuMs: med(wo, "cpu"), cpuMs: med(w, "cpu") - med(wo, "cpu"), wallMs: med(w, "wall") - med(wo, "wall"), runs };
  } finally {
    await server.close();
  }
}

export async function runStartupBench(opts: { runs?: number; opencodeRuns?: number; log?: (m: string) => void } = {}): Promise<StartupResult> {
  const runs = opts.runs ?? 9;
  const log = opts.log ?? (() => {});
  if (!fs.existsSync(path.join(REPO_ROOT, "dist", "cli.js"))) throw new Error("run `npm run build` first (dist/cli.js is missing)");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-startup-"));
  try {
    const env = sandboxEnv(root);
    const bin = path.join(REPO_ROOT, "bin", "cairn.js");
    const loadAverage = os.loadavg().map((x) => Math.round(x * 100) / 100);
    log("  cairn --help …");
    const cliHelp = (await repeat(runs, () => runOnce(process.execPath, [bin, "--help"], { cwd: root, env }))).timing;
    log("  cairn add into a new project …");
    const addProject = path.join(root, "add-project");
    fs.mkdirSync(addProject, { recursive: true });
    let added = 0;
    const addArgs = () => [bin, "--project", addProject, "--hive", path.join(root, "add-hive.db"), "add", `Run payments migration ${++added} with --lock-timeout 5s before deploying, or the orders_${added} table stays locked for minutes.`, "--category", "debugging"];
    const cliAddFresh = (await repeat(runs, () => runOnce(process.execPath, addArgs(), { cwd: root, env }))).timing;
    const corpus = await ensureCorpus(10_000, 42, log);
    log("  cairn recall at 10,000 + 10,000 …");
    const recallArgs = [bin, "--project", corpus.projectDir, "--hive", corpus.hivePath, "recall", "retry the payment webhook with backoff", "--limit", "5"];
    const cliRecall10k = (await repeat(runs, () => runOnce(process.execPath, recallArgs, { cwd: root, env }))).timing;
    log("  plugin load in Bun and in Node …");
    const bun = path.join(REPO_ROOT, "node_modules", ".bin", "bun");
    const pluginLoadBun = await pluginLoad(bun, runs, root);
    const pluginLoadNode = await pluginLoad(process.execPath, runs, root);
    let overhead: StartupResult["opencodeOverhead"] = null;
    if ((opts.opencodeRuns ?? 3) > 0) {
      log("  opencode run with and without the plugin …");
      overhead = await opencodeOverhead(opts.opencodeRuns ?? 3, root);
    }
    return { loadAverage, cliHelp, cliRecall10k, cliAddFresh, pluginLoadBun, pluginLoadNode, opencodeOverhead: overhead };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The lines `npm run bench` prints. */
export function startupLines(r: StartupResult): string[] {
  const t = STARTUP_TARGETS;
  const cpu = (x: ProcessTiming) => (x.cpuMs === null ? "" : `, CPU ${x.cpuMs.toFixed(0)} ms`);
  const mark = (v: number, budget: number) => (v <= budget ? "PASS" : "FAIL");
  const lines = [
    `start-up (median of ${r.cliHelp.runs} whole processes; load average ${r.loadAverage.join(" / ")}):`,
    `  cairn --help                wall ${r.cliHelp.wallMs.toFixed(0)} ms${cpu(r.cliHelp)}   target ≤ ${t.cliWallMs} ms wall (idle machine)  ${mark(r.cliHelp.wallMs, t.cliWallMs)}`,
    `  cairn recall (10k + 10k)    wall ${r.cliRecall10k.wallMs.toFixed(0)} ms${cpu(r.cliRecall10k)}   target ≤ ${t.cliWallMs} ms wall (idle machine)  ${mark(r.cliRecall10k.wallMs, t.cliWallMs)}`,
    `  cairn add (new project)     wall ${r.cliAddFresh.wallMs.toFixed(0)} ms${cpu(r.cliAddFresh)}   (no budget: one lesson gated, checked for duplicates and stored by a fresh process)`,
    `  plugin load, Bun            ${r.pluginLoadBun.inProcessMs.toFixed(0)} ms in process (whole process ${r.pluginLoadBun.wallMs.toFixed(0)} ms${cpu(r.pluginLoadBun)})   target ≤ ${t.pluginLoadMs} ms  ${mark(r.pluginLoadBun.inProcessMs, t.pluginLoadMs)}`,
    `  plugin load, Node           ${r.pluginLoadNode.inProcessMs.toFixed(0)} ms in process (whole process ${r.pluginLoadNode.wallMs.toFixed(0)} ms${cpu(r.pluginLoadNode)})`,
  ];
  const o = r.opencodeOverhead;
  lines.push(
    o
      ? `  opencode run + plugin       +${o.cpuMs.toFixed(0)} ms CPU, +${o.wallMs.toFixed(0)} ms wall per run (median of ${o.runs}: ${o.withCpuMs.toFixed(0)} vs ${o.withoutCpuMs.toFixed(0)} ms CPU)`
      : "  opencode run + plugin       skipped (needs node_modules/.bin/opencode and /usr/bin/time; or --no-opencode)",
  );
  return lines;
}
