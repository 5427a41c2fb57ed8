import path from "node:path";
import fs from "node:fs";
import { openCairn } from "../../../src/index.js";
import { writeCorpus } from "../fixtures/corpus.js";
import { makeSandbox } from "../../fixtures/workers/sandbox.js";
const sb = makeSandbox();
const file = path.join(sb.root, "memories.jsonl");
writeCorpus(file, 2000);
let clock = Date.parse("2026-02-01T09:00:00Z");
const c = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { learning: { reflect_in_background: false } }, now: () => new Date(clock) });
await c.importFile(file, { trusted: true });
const T = JSON.parse(fs.readFileSync(process.argv[2]!, "utf8")) as { lessons: any[]; contexts: any[]; bad: number; good: number };
const ids: string[] = [];
for (const l of T.lessons) { const r = await c.add(l); ids.push(r.id!); }
const bad = ids[T.bad]!, good = ids[T.good]!;
const rank = async (ctx: any) => { const h = await c.recall(ctx, { limit: 10 }); const f = (id: string) => h.findIndex((x) => x.entry.id === id) + 1 || ">10"; return `${f(bad)}/${f(good)}`; };
console.log("probe", await rank(T.contexts[0]), "ctx ranks", await Promise.all(T.contexts.map(rank)));
for (let i = 0; i < 50; i++) {
  const ctx = T.contexts[i % T.contexts.length];
  const inj = await c.inject(ctx);
  const shown = inj.entries.map((e) => e.id);
  const success = !shown.includes(bad);
  await c.recordOutcome({ task: ctx.task, success, duration_ms: success ? 120_000 : 2_400_000, error_count: success ? 0 : 4, retry_count: success ? 0 : 2, files_touched: ctx.files, shown_entry_ids: shown });
  await c.reflect();
  clock += 3_600_000;
  console.log(i + 1, success ? "ok  " : "FAIL", "ctx", i % T.contexts.length, "shown", inj.entries.map((e) => e.handle).join(","), "probe bad/good", await rank(T.contexts[0]));
}
await c.close();
