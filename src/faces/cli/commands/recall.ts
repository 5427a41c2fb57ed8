// `cairn recall`: the engine's ranked lessons for a query, as a table or the JSON contract.
import { Option, type Command } from "commander";
import { CATEGORIES, parseStatuses, TIERS, type Category, type Tier } from "../../../core/enums.js";
import type { RecallHit } from "../../../engine.js";
import { action, int, readCairn } from "../context.js";
import { usageError } from "../errors.js";
import { table, type Output } from "../format.js";
import { nonEmptyList } from "../non-empty.js";

interface RecallFlags {
  limit: number;
  tier: Tier | "all";
  status?: string;
  category?: Category;
  explain?: boolean;
  retrieval?: "lexical" | "semantic" | "hybrid";
}

/** The public JSON shape of one hit. */
function hitJson(h: RecallHit, explain: boolean): Record<string, unknown> {
  return {
    rank: h.rank,
    id: h.entry.id,
    handle: h.entry.handle,
    tier: h.tier,
    lesson: h.entry.lesson,
    score: Number(h.score.toFixed(6)),
    status: h.entry.lifecycle.status,
    category: h.entry.category,
    ...(h.entry.provenance.external_id ? { external_id: h.entry.provenance.external_id } : {}),
    ...(explain ? { breakdown: h.breakdown, ...(h.similarity !== undefined ? { similarity: Number(h.similarity.toFixed(4)) } : {}) } : {}),
  };
}

function breakdownLine(h: RecallHit, out: Output): string {
  const parts = Object.entries(h.breakdown)
    .filter(([, v]) => typeof v === "number" && v !== 0)
    .sort((a, b) => Math.abs(b[1]!) - Math.abs(a[1]!))
    .map(([k, v]) => `${k} ${v!.toFixed(3)}${k === "semantic" && h.similarity !== undefined ? ` (cosine ${h.similarity.toFixed(2)})` : ""}`);
  return out.c.dim(`      ${parts.join(" · ") || "(no components)"}`);
}

export function registerRecallCommand(program: Command): void {
  program
    .command("recall")
    .argument("<query>", "what you are working on, in words")
    .description("lessons relevant to a query, best first after diversity (a restatement gives way to a different lesson)")
    .option("--limit <n>", "at most n lessons", int("--limit", 1), 10)
    .addOption(new Option("--tier <tier>", "which tier").choices(["all", ...TIERS]).default("all"))
    .option("--status <a,b>", "statuses to include (default: candidate, established, promoted)", nonEmptyList("--status", "statuses, e.g. candidate,established"))
    .addOption(new Option("--category <c>", "only this category").choices(CATEGORIES))
    .option("--explain", "show how each score was made (the semantic part with its cosine)")
    .addOption(new Option("--retrieval <mode>", "find candidates by words, by meaning, or both (default: config embedding.retrieval)").choices(["hybrid", "lexical", "semantic"]))
    .addHelpText(
      "after",
      `
Examples:
  $ cairn recall "auth middleware null check"
  $ cairn recall "flaky integration tests" --tier hive --limit 5 --explain
  $ cairn recall "sqlite busy" --status quarantined,archived --json`,
    )
    .action(
      action(async (inv, query: string, flags: RecallFlags) => {
        // A blank query matches nothing by construction: say so rather than print an empty result.
        if (query.trim() === "") throw usageError('The query is empty; say what you are working on, e.g. cairn recall "auth middleware null check".');
        return readCairn(inv, async (cairn) => {
          const statuses = parseStatuses(flags.status);
          const hits = await cairn.recall(query, {
            limit: flags.limit,
            tier: flags.tier,
            ...(statuses ? { statuses } : {}),
            ...(flags.category ? { category: flags.category } : {}),
            ...(flags.retrieval ? { retrieval: flags.retrieval } : {}),
          });
          const explain = Boolean(flags.explain);
          if (inv.out.json) return inv.out.print(hits.map((h) => hitJson(h, explain)));
          if (hits.length === 0) return inv.out.note("no matching lessons");
          table(
            hits,
            [
              { header: "ID", value: (h) => h.entry.handle },
              { header: "TIER", value: (h) => h.tier },
              { header: "SCORE", value: (h) => h.score.toFixed(3) },
              { header: "LESSON", value: (h) => h.entry.lesson, flex: true },
            ],
            inv.out,
            explain ? (h) => [breakdownLine(h, inv.out)] : undefined,
          ).forEach((l) => inv.out.line(l));
        });
      }),
    );
}
