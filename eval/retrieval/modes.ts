// Cairn's recall per retrieval path (lexical only, semantic only, hybrid), old cases and paraphrase cases apart.
import { mean, scoreCase, type CaseScore } from "./metrics.js";
import { cairnRanker, type RetrievalMode } from "./rankers.js";
import type { CaseSpec } from "./spec.js";
import type { World } from "./world.js";

export const MODES: readonly RetrievalMode[] = ["lexical", "semantic", "hybrid"];

export interface ModeRow {
  label: string;
  n: number;
  /** null: the engine cannot run this mode (see `unavailable`). */
  scores: Record<RetrievalMode, CaseScore | null>;
}

export interface ModeReport {
  rows: ModeRow[];
  /** Why a mode has no figures, by mode; absent when it ran. */
  unavailable: Partial<Record<RetrievalMode, string>>;
}

type Case = CaseSpec & { slice: string };

/**
 * Ranks every case once per mode through `cairn.recall(ctx, { limit, retrieval })`. A mode the
 * engine rejects, or one whose rankings equal lexical on every case (the engine ignored the
 * option), is reported unavailable rather than as a copy of the lexical figures.
 */
export async function evaluateModes(w: World, cases: readonly Case[], k: number, groups: ReadonlyArray<[string, (c: Case) => boolean]>): Promise<ModeReport> {
  const ranked = new Map<RetrievalMode, string[][]>();
  const unavailable: Partial<Record<RetrievalMode, string>> = {};
  for (const mode of MODES) {
    const rank = cairnRanker(w, undefined, mode);
    try {
      const out: string[][] = [];
      for (const c of cases) out.push(await rank(c, k));
      ranked.set(mode, out);
    } catch (e) {
      unavailable[mode] = `the engine rejects retrieval: "${mode}" (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`;
    }
  }
  const lexical = ranked.get("lexical");
  for (const mode of MODES) {
    const r = ranked.get(mode);
    if (mode === "lexical" || !r || !lexical) continue;
    if (r.every((keys, i) => keys.join("\n") === lexical[i]!.join("\n"))) unavailable[mode] = "the engine ignores the retrieval option (rankings identical to lexical on every case)";
  }
  const rows = groups.map(([label, keep]): ModeRow => {
    const idx = cases.flatMap((c, i) => (keep(c) ? [i] : []));
    const scores = {} as Record<RetrievalMode, CaseScore | null>;
    for (const mode of MODES) {
      const r = ranked.get(mode);
      scores[mode] = r && !unavailable[mode] ? mean(idx.map((i) => scoreCase(r[i]!, cases[i]!.relevant))) : null;
    }
    return { label, n: idx.length, scores };
  });
  return { rows, unavailable };
}

export function modesTable(report: ModeReport): string {
  const fmt = (s: CaseScore | null, f: (x: CaseScore) => number) => (s ? f(s).toFixed(3) : "n/a");
  const head = `| cases | n | ${MODES.map((m) => `${m} R@5 | ${m} MRR@10`).join(" | ")} |`;
  const sep = `|${" --- |".repeat(2 + MODES.length * 2)}`;
  const body = report.rows.map((r) => `| ${r.label} | ${r.n} | ${MODES.map((m) => `${fmt(r.scores[m], (x) => x.recall5)} | ${fmt(r.scores[m], (x) => x.mrr10)}`).join(" | ")} |`);
  const notes = MODES.filter((m) => report.unavailable[m]).map((m) => `n/a ${m}: ${report.unavailable[m]}.`);
  return [head, sep, ...body, ...notes].join("\n");
}
