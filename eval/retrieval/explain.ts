// `npm run eval -- --case <id>`: Cairn's score breakdown for one case, with where each relevant lesson landed.
import type { CaseSpec } from "./spec.js";
import { groupOf } from "./spec.js";
import { caseContext } from "./rankers.js";
import type { World } from "./world.js";

export async function explainCase(w: World, c: CaseSpec, depth = 60): Promise<string> {
  const ctx = caseContext(c);
  const rel = new Set(c.relevant.map(groupOf));
  const lines = [`${c.id}: ${c.task}`, `  want ${c.relevant.join(", ")}`];
  for (const diverse of [true, false]) {
    const hits = await w.cairn.recall(ctx, { limit: diverse ? 10 : depth, diverse });
    lines.push(diverse ? "  final (MMR):" : `  raw top ${depth} (no MMR), relevant and top 10 shown:`);
    hits.forEach((h, i) => {
      const key = w.keyOf.get(h.entry.id) ?? h.entry.id;
      if (!diverse && i >= 10 && !rel.has(groupOf(key))) return;
      const parts = Object.entries(h.breakdown)
        .filter(([, v]) => v)
        .map(([k, v]) => `${k}=${(v as number).toFixed(3)}`)
        .join(" ");
      lines.push(`   ${rel.has(groupOf(key)) ? "*" : " "}${String(i + 1).padStart(2)} ${h.score.toFixed(3)} ${key} [${h.entry.tier}] ${parts}`);
      lines.push(`        ${h.entry.lesson.replace(/\s+/g, " ").slice(0, 110)}`);
    });
  }
  return lines.join("\n");
}
