import path from "node:path";
import fs from "node:fs";
import { openCairn } from "../../../src/index.js";
import { writeCorpus } from "../fixtures/corpus.js";
import { makeSandbox } from "../../fixtures/workers/sandbox.js";
const sb = makeSandbox();
const file = path.join(sb.root, "memories.jsonl");
writeCorpus(file, 2000);
const c = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { learning: { reflect_in_background: false } } });
await c.importFile(file, { trusted: true });
const T = JSON.parse(fs.readFileSync(process.argv[2]!, "utf8")) as { lessons: any[]; contexts: any[] };
for (const l of T.lessons) { const r = await c.add(l); console.log(r.action, r.handle, r.reason ?? "", r.issues.map((i) => i.code).join(",")); }
for (const ctx of T.contexts) {
  console.log("\n==", ctx.task);
  const hits = await c.recall(ctx, { limit: 10 });
  hits.forEach((h, i) => console.log(i + 1, h.score.toFixed(3), h.entry.handle, JSON.stringify(Object.fromEntries(Object.entries(h.breakdown).map(([k, v]) => [k, +(v ?? 0).toFixed(3)]).filter(([, v]) => v))), h.entry.lesson.slice(0, 70)));
}
console.log(sb.root);
await c.close();
