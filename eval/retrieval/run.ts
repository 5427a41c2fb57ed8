// `npm run eval`: ranks every labelled case with BM25, the audited metadata formula, semantic only (built-in embedder) and Cairn; prints the table or --json.
import { allCases } from "./cases/index.js";
import { writtenLessons } from "./lessons/index.js";
import { explainCase } from "./explain.js";
import { evaluateModes, modesTable } from "./modes.js";
import { mean, scoreCase, type CaseScore } from "./metrics.js";
import { bm25Ranker, cairnRanker, caseContext, metadataRanker, semanticRanker, type Ranker } from "./rankers.js";
import { builtinEmbedder } from "../../src/embed/static-embedder.js";
import { contentStems, isRelated } from "../../src/retrieval/relatedness.js";
import { caseStems, PARAPHRASE_MAX_SHARED, sharedStems } from "./overlap.js";
import { searchTextOf } from "../../src/store/entry-columns.js";
import { groupOf, type CaseSpec } from "./spec.js";
import { buildWorld, disposeWorld, type World } from "./world.js";

const RANKERS = ["bm25", "metadata", "semantic", "cairn"] as const;
type RankerName = (typeof RANKERS)[number];

const args = process.argv.slice(2);
const asJson = args.includes("--json");
const verbose = args.includes("--verbose");
const K = 10;
/** Cases written after the weights were settled; reported apart so overfitting would show. */
const HOLDOUT = "holdout";
/** Cases told in other words than their lesson (at most one shared content word); reported apart from the old cases. */
const PARAPHRASE = "paraphrase";
const caseArg = args.indexOf("--case");
const explainIds = caseArg >= 0 ? (args[caseArg + 1] ?? "").split(",") : [];

/** Every relevant id must name a live entry; a label pointing at nothing would score as a silent miss. */
function checkLabels(w: World, cases: readonly CaseSpec[]): void {
  const groups = new Set([...w.keys].map(groupOf));
  const missing = cases.flatMap((c) => c.relevant.filter((r) => !groups.has(r)).map((r) => `${c.id} → ${r}`));
  if (missing.length) throw new Error(`labels name no live entry:\n  ${missing.join("\n  ")}`);
}

/**
 * A paraphrase case whose relevant lesson (or any restatement of it) shares more than one content
 * word with the whole context is not a paraphrase: refuse to run rather than report a flattering slice.
 */
function checkParaphrases(w: World, cases: ReadonlyArray<CaseSpec & { slice: string }>): void {
  const byGroup = new Map<string, Array<{ key: string; text: string }>>();
  for (const e of w.live) {
    const key = w.keyOf.get(e.id)!;
    byGroup.set(groupOf(key), [...(byGroup.get(groupOf(key)) ?? []), { key, text: searchTextOf(e) }]);
  }
  const bad: string[] = [];
  for (const c of cases.filter((x) => x.slice === PARAPHRASE)) {
    const stems = caseStems(c);
    for (const r of c.relevant) {
      for (const { key, text } of byGroup.get(r) ?? []) {
        const shared = sharedStems(stems, text);
        if (shared.length > PARAPHRASE_MAX_SHARED) bad.push(`${c.id} → ${key}: shares ${shared.length} content words (${shared.join(", ")})`);
      }
    }
  }
  if (bad.length) throw new Error(`paraphrase cases share more than ${PARAPHRASE_MAX_SHARED} content word with their lesson:\n  ${bad.join("\n  ")}`);
}

function fmt(n: number): string {
  return n.toFixed(3);
}

function table(rows: Array<{ label: string; n: number; scores: Record<RankerName, CaseScore> }>): string {
  const head = `| slice | cases | ${RANKERS.map((r) => `${r} R@5 | ${r} MRR@10 | ${r} nDCG@10`).join(" | ")} |`;
  const sep = `|${" --- |".repeat(2 + RANKERS.length * 3)}`;
  const body = rows.map(
    (r) => `| ${r.label} | ${r.n} | ${RANKERS.map((k) => `${fmt(r.scores[k].recall5)} | ${fmt(r.scores[k].mrr10)} | ${fmt(r.scores[k].ndcg10)}`).join(" | ")} |`,
  );
  return [head, sep, ...body].join("\n");
}

async function main(): Promise<void> {
  const lessons = writtenLessons();
  const cases = allCases();
  const started = performance.now();
  const world = await buildWorld(lessons);
  try {
    checkLabels(world, cases);
    checkParaphrases(world, cases);
    if (explainIds.length) {
      for (const c of cases.filter((x) => explainIds.includes(x.id))) console.log(await explainCase(world, c));
      return;
    }
    const timings: number[] = [];
    const rankers: Record<RankerName, Ranker> = {
      bm25: bm25Ranker(world),
      metadata: metadataRanker(world),
      semantic: semanticRanker(world, builtinEmbedder()),
      cairn: cairnRanker(world, timings),
    };
    const perCase: Array<{ c: (typeof cases)[number]; scores: Record<RankerName, CaseScore>; ranked: Record<RankerName, string[]> }> = [];
    for (const c of cases) {
      const ranked = {} as Record<RankerName, string[]>;
      const scores = {} as Record<RankerName, CaseScore>;
      for (const r of RANKERS) {
        ranked[r] = await rankers[r](c, K);
        scores[r] = scoreCase(ranked[r], c.relevant);
      }
      perCase.push({ c, scores, ranked });
    }

    // Injection drops a ranked lesson that shares no content word or declared signal with the context
    // (src/retrieval/relatedness.ts): count how often that would drop a labelled relevant lesson.
    const relatedness = { relevantInTop5: 0, relevantDropped: 0, othersInTop5: 0, othersDropped: 0 };
    for (const c of cases) {
      const ctx = caseContext(c);
      const stems = contentStems(ctx);
      for (const h of await world.cairn.recall(ctx, { limit: 5 })) {
        const relevant = c.relevant.includes(world.keyOf.get(h.entry.id) ?? h.entry.provenance.external_id ?? h.entry.id);
        const dropped = !isRelated(h, stems);
        if (relevant) (relatedness.relevantInTop5++, (relatedness.relevantDropped += dropped ? 1 : 0));
        else (relatedness.othersInTop5++, (relatedness.othersDropped += dropped ? 1 : 0));
      }
    }

    const summarise = (label: string, subset: typeof perCase) => ({
      label,
      n: subset.length,
      scores: Object.fromEntries(RANKERS.map((r) => [r, mean(subset.map((p) => p.scores[r]))])) as Record<RankerName, CaseScore>,
    });
    // "all" and the rows under it are the old cases, as before the paraphrase slice existed; paraphrase is the last row.
    const old = perCase.filter((p) => p.c.slice !== PARAPHRASE);
    const slices = [...new Set(cases.map((c) => c.slice))].filter((s) => s !== HOLDOUT && s !== PARAPHRASE);
    const rows = [
      summarise("all", old),
      summarise("tuned-on", old.filter((p) => p.c.slice !== HOLDOUT)),
      summarise("holdout", old.filter((p) => p.c.slice === HOLDOUT)),
      summarise("context-only", old.filter((p) => p.c.context_only)),
      ...slices.map((s) => summarise(s, old.filter((p) => p.c.slice === s))),
      summarise(PARAPHRASE, perCase.filter((p) => p.c.slice === PARAPHRASE)),
    ];
    const modes = await evaluateModes(world, cases, K, [
      ["old cases", (c) => c.slice !== PARAPHRASE],
      ["paraphrase", (c) => c.slice === PARAPHRASE],
    ]);
    const all = rows[0]!.scores;
    const wins = (["bm25", "metadata"] as const).every((b) => all.cairn.recall5 > all[b].recall5 && all.cairn.mrr10 > all[b].mrr10);
    const sorted = [...timings].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const corpus = { entries: world.live.length, memories_imported: world.loaded.memories, written_imported: world.loaded.written, written_lessons: lessons.length };

    if (asJson) {
      const cases_out = perCase.map((p) => ({ id: p.c.id, slice: p.c.slice, relevant: p.c.relevant, scores: p.scores, top5: p.ranked.cairn.slice(0, 5) }));
      process.stdout.write(JSON.stringify({ k: K, corpus, cases: cases.length, rows, retrieval_modes: modes, relatedness, cairn_beats_baselines: wins, cairn_recall_p50_ms: p50, per_case: cases_out }, null, 2) + "\n");
    } else {
      console.log(`Corpus: ${corpus.entries} live entries (${corpus.memories_imported} real memories, ${corpus.written_imported} written lessons; ${world.loaded.rejected} rejected on import); ${cases.length} cases; k=${K}.`);
      console.log(table(rows));
      console.log(`\nCairn by retrieval path (recall option \`retrieval\`); "all" above and "old cases" here exclude the paraphrase slice:`);
      console.log(modesTable(modes));
      console.log(`\nCairn recall p50 ${p50.toFixed(2)} ms over ${timings.length} cases at this corpus size, on this machine now (npm run bench measures the budgets); whole run ${((performance.now() - started) / 1000).toFixed(1)} s.`);
      console.log(
        `Injection relatedness: ${relatedness.relevantDropped} of ${relatedness.relevantInTop5} labelled lessons in the top 5 would be left out as unrelated; ` +
          `${relatedness.othersDropped} of ${relatedness.othersInTop5} other lessons in the top 5 would be.`,
      );
      console.log(wins ? "Cairn beats both baselines on recall@5 and MRR@10." : "FAIL: Cairn does not beat both baselines on recall@5 and MRR@10.");
      if (verbose) {
        for (const p of perCase.filter((x) => x.scores.cairn.recall5 < 1)) {
          console.log(`\n${p.c.id} want ${p.c.relevant.join(", ")} | bm25 R@5 ${fmt(p.scores.bm25.recall5)}\n  cairn: ${p.ranked.cairn.slice(0, 5).join(", ")}`);
        }
      }
    }
    process.exitCode = wins ? 0 : 1;
  } finally {
    await disposeWorld(world);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exitCode = 2;
});
