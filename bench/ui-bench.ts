// Benchmark: server time of every `cairn ui` page (p50/p95) at 10,000 + 10,000 entries, in-process through the Hono app, and the first-load JS+CSS weight.
import os from "node:os";
import path from "node:path";
import { openCairn } from "../src/index.js";
import { createUiApp } from "../src/faces/web/app.js";
import { Assets } from "../src/faces/web/assets.js";
import { injectContext, recallQuery } from "./corpus.js";
import { makeRng } from "./rng.js";
import { BENCH_CAPS, copyCorpus } from "./corpus-copy.js";
import { ensureCorpus } from "./seed.js";
import { percentile } from "./stats.js";

export const UI_PAGE_P95_BUDGET_MS = 50;
export const UI_FIRST_LOAD_BUDGET_BYTES = 300 * 1024;

export interface UiBenchResult {
  size: number;
  /** Wall time, and CPU time of this process per request (what a busy machine's other processes do not inflate). */
  pages: Array<{ page: string; p50: number; p95: number; cpuP50: number; cpuP95: number; n: number; pass: boolean }>;
  /** 1-minute load average when measured: above the core count, wall times include waiting for a core. */
  load: number;
  firstLoadBytes: { main: number; dashboard: number };
}

const DRAFTS = 40;

export async function runUiBench(opts: { size?: number; calls?: number; seed?: number } = {}): Promise<UiBenchResult> {
  const size = opts.size ?? 10_000;
  const calls = opts.calls ?? 100;
  const corpus = await ensureCorpus(size, opts.seed ?? 42);
  // A copy: the drafts and shown events added here must not drift the cached corpus.
  const copy = copyCorpus(corpus.dir, "cairn-ui-bench-");
  try {
    const base = { ...copy.open, config: { knowledge: BENCH_CAPS, governance: { require_approval: { swarm: true, hive: false } } } };
    // What a real project has beyond the corpus: agent drafts waiting, and a history of injections.
    const agent = await openCairn({ ...base, actor: "agent:bench" });
    const rng = makeRng(99);
    for (let i = 0; i < DRAFTS; i++) await agent.add({ lesson: `${recallQuery(rng)}: check the retry budget before the ${i}th deploy, or the queue stalls` });
    for (let i = 0; i < 300; i++) await agent.inject(injectContext(rng, i));
    await agent.close();

    const cairn = await openCairn({ ...base, actor: "human:ui" });
    const { app } = createUiApp({ cairn, token: "bench-token", loopback: true, cookieName: "cairn_ui_bench", defaultName: "bench", assets: new Assets() });
    const host = { host: "127.0.0.1:7392" };
    const login = await app.request("/login?token=bench-token", { headers: host });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const headers = { ...host, cookie };
    const review = await (await app.request("/review", { headers })).text();
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(review)?.[1] ?? "";
    const some = (await cairn.browse({ statuses: ["established"], limit: 1 })).entries[0]!;
    const next = (await cairn.browse({ statuses: ["candidate"], sort: "shown", limit: 50 })).next ?? "";

    const pages: Array<[string, () => Response | Promise<Response>]> = [
      ["review queue", () => app.request("/review", { headers })],
      ["lessons", () => app.request("/lessons", { headers })],
      ["lessons: search", () => app.request(`/lessons?q=${encodeURIComponent(recallQuery(rng))}`, { headers })],
      ["lessons: filter + sort", () => app.request("/lessons?status=candidate&category=debugging&sort=confidence&dir=desc", { headers })],
      ["lessons: tag filter", () => app.request("/lessons?tags=node", { headers })],
      ["lessons: page 2", () => app.request(`/lessons?status=candidate&sort=shown&cursor=${encodeURIComponent(next)}`, { headers })],
      ["lesson page", () => app.request(`/lessons/${some.id}`, { headers })],
      ["edit form", () => app.request(`/lessons/${some.id}/edit`, { headers })],
      ["dashboard", () => app.request("/dashboard", { headers })],
      ["advisories", () => app.request("/advisories", { headers })],
      [
        "advisory check",
        () =>
          app.request("/advisories/check", {
            method: "POST",
            headers: { ...headers, "content-type": "application/x-www-form-urlencoded", origin: "http://127.0.0.1:7392" },
            body: new URLSearchParams({ _csrf: csrf, files: "src/auth/session.ts\nsrc/billing/invoice.ts", text: "const c = token.claims", tool: "edit" }).toString(),
          }),
      ],
    ];
    const out: UiBenchResult["pages"] = [];
    for (const [name, call] of pages) {
      for (let i = 0; i < 5; i++) await (await call()).text();
      const ms: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < calls; i++) {
        const c0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        const r = await call();
        await r.text();
        ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
        if (r.status !== 200) throw new Error(`${name}: HTTP ${r.status}`);
      }
      const p95 = percentile(ms, 95);
      out.push({ page: name, p50: percentile(ms, 50), p95, cpuP50: percentile(cpu, 50), cpuP95: percentile(cpu, 95), n: ms.length, pass: p95 <= UI_PAGE_P95_BUDGET_MS });
    }
    await cairn.close();
    const assets = new Assets();
    return { size, pages: out, load: os.loadavg()[0] ?? 0, firstLoadBytes: { main: assets.weight("main"), dashboard: assets.weight("main", "dashboard") } };
  } finally {
    copy.remove();
  }
}

export function uiBenchLines(r: UiBenchResult): string[] {
  const lines = [
    `cairn ui server time per page (${r.size.toLocaleString("en-US")} + ${r.size.toLocaleString("en-US")}; budget p95 ≤ ${UI_PAGE_P95_BUDGET_MS} ms; load average ${r.load.toFixed(1)} on ${os.cpus().length} cores):`,
  ];
  for (const p of r.pages) {
    const cpu = `cpu p50 ${p.cpuP50.toFixed(1).padStart(5)} / p95 ${p.cpuP95.toFixed(1).padStart(5)} ms`;
    lines.push(`  ${p.page.padEnd(24)} p50 ${p.p50.toFixed(1).padStart(6)} ms   p95 ${p.p95.toFixed(1).padStart(6)} ms   ${cpu}   ${p.pass ? "PASS" : "FAIL"}`);
  }
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const ok = r.firstLoadBytes.dashboard <= UI_FIRST_LOAD_BUDGET_BYTES;
  lines.push(`  first load JS+CSS: ${kb(r.firstLoadBytes.main)} (most pages), ${kb(r.firstLoadBytes.dashboard)} (dashboard); budget ≤ 300 KB   ${ok ? "PASS" : "FAIL"}`);
  return lines;
}

// `node --import tsx bench/ui-bench.ts` runs it alone.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  runUiBench().then(
    (r) => console.log(uiBenchLines(r).join("\n")),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
