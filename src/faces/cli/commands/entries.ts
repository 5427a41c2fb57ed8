// Entry commands: add, list, show, rejected.
import { InvalidArgumentError, Option, type Command } from "commander";
import { CATEGORIES, KINDS, TIERS, type Entry, type NewEntryInput, type Tier } from "../../../core/entry.js";
import { Cairn } from "../../../engine.js";
import type { WriteResult } from "../../../lifecycle/write.js";
import { action, int, withCairn } from "../context.js";
import { EXIT } from "../errors.js";
import { clean, list, statusColor, table, type Output } from "../format.js";

interface AddFlags {
  category?: string;
  kind?: string;
  tags?: string;
  scope?: string;
  confidence?: number;
  phase?: string;
  tier?: Tier;
  title?: string;
  why?: string;
}

function confidence(v: string): number {
  const n = Number(v);
  if (v.trim() === "" || Number.isNaN(n)) throw new InvalidArgumentError("confidence must be a number between 0 and 1.");
  return n;
}

/** The add/promote JSON contract: id, action, status always present (null when there is none). */
export function writeResultJson(r: WriteResult): Record<string, unknown> {
  return {
    id: r.id ?? null,
    action: r.action,
    status: r.status ?? null,
    ...(r.reason ? { reason: r.reason } : {}),
    handle: r.handle ?? null,
    tier: r.tier,
    issues: r.issues,
    ...(r.flags ? { flags: r.flags } : {}),
    ...(r.similarity !== undefined ? { similarity: r.similarity } : {}),
  };
}

/** Prints a write result and returns its exit code: a rejection is the caller's input problem (2). */
export function reportWrite(out: Output, r: WriteResult, extra: Record<string, unknown> = {}): number {
  if (out.json) out.print({ ...writeResultJson(r), ...extra });
  else if (r.action === "added") out.line(`${out.c.green("added")} ${r.handle} (${r.status})`);
  else if (r.action === "reinforced") out.line(`${out.c.cyan("reinforced")} ${r.handle}: ${r.reason ?? ""}`);
  else out.error(`rejected: ${r.reason ?? "failed validation"}`);
  if (!out.json && r.action !== "rejected") {
    for (const i of r.issues.filter((x) => x.severity === "warn")) out.warn(`warning: ${i.message}`);
  }
  return r.action === "rejected" ? EXIT.USAGE : EXIT.OK;
}

export function lessonInput(lesson: string, f: AddFlags): NewEntryInput {
  return {
    lesson,
    ...(f.category ? { category: f.category as NewEntryInput["category"] } : {}),
    ...(f.kind ? { kind: f.kind as NewEntryInput["kind"] } : {}),
    ...(f.tags ? { tags: list(f.tags) } : {}),
    ...(f.scope ? { scope: f.scope } : {}),
    ...(f.confidence !== undefined ? { confidence: f.confidence } : {}),
    ...(f.phase ? { phase: f.phase } : {}),
    ...(f.title ? { title: f.title } : {}),
    ...(f.why ? { why: f.why } : {}),
  };
}

/** The lesson options shared by add, promote and supersede. */
export function lessonOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option("--category <c>", "category").choices(CATEGORIES))
    .addOption(new Option("--kind <k>", "kind of lesson").choices(KINDS))
    .option("--tags <a,b>", "comma-separated tags")
    .option("--scope <s>", 'applicability scope: "global" or "stack:<name>"')
    .option("--confidence <n>", "confidence 0..1", confidence)
    .option("--phase <p>", "phase in which it was learned (its first confirmation)")
    .option("--title <t>", "short title")
    .option("--why <text>", "impact if ignored");
}

export function registerEntryCommands(program: Command): void {
  lessonOptions(
    program
      .command("add")
      .argument("<lesson>", "the lesson, one irreducible insight")
      .description("record a lesson through the quality gates; a near-duplicate reinforces the existing entry"),
  )
    .addOption(new Option("--tier <tier>", "where to store it").choices(TIERS).default("swarm"))
    .addHelpText(
      "after",
      `
Exit codes: 0 added or reinforced, 2 rejected.

Examples:
  $ cairn add "Run migrations before seeding the test database" --category testing
  $ cairn add "Pin the Node version in CI to match production" --tags ci,node --tier hive --json`,
    )
    .action(
      action(async (inv, lesson: string, flags: AddFlags) =>
        withCairn(inv, async (cairn) => reportWrite(inv.out, await cairn.add(lessonInput(lesson, flags), { tier: flags.tier ?? "swarm" }))),
      ),
    );

  program
    .command("list")
    .description("list entries, newest first")
    .addOption(new Option("--tier <tier>", "which tier").choices(["all", ...TIERS]).default("all"))
    .option("--status <a,b>", "only these statuses (comma-separated)")
    .addOption(new Option("--category <c>", "only this category").choices(CATEGORIES))
    .option("--limit <n>", "at most n entries", int("--limit"), 50)
    .option("--offset <n>", "skip the first n", int("--offset"), 0)
    .option("--flagged", "only entries flagged for review: utility at or below knowledge.low_utility_threshold after enough retrievals")
    .addOption(new Option("--order <order>", "sort order").choices(["newest", "oldest", "confidence"]))
    .addHelpText("after", "\nExamples:\n  $ cairn list --status quarantined\n  $ cairn list --tier hive --limit 20 --json")
    .action(
      action(async (inv, flags: { tier: Tier | "all"; status?: string; category?: Entry["category"]; limit: number; offset: number; flagged?: boolean; order?: "newest" | "oldest" | "confidence" }) =>
        withCairn(inv, async (cairn) => {
          const statuses = Cairn.parseStatuses(flags.status);
          const entries = flags.flagged ? await cairn.flagged(flags.tier, flags.limit) : await cairn.list({
            tier: flags.tier,
            limit: flags.limit,
            offset: flags.offset,
            ...(statuses ? { statuses } : {}),
            ...(flags.category ? { categories: [flags.category] } : {}),
            ...(flags.order ? { order: flags.order } : {}),
          });
          if (inv.out.json) return inv.out.print(entries);
          if (entries.length === 0) return inv.out.note("no entries");
          entryTable(entries, inv.out).forEach((l) => inv.out.line(l));
        }),
      ),
    );

  program
    .command("show")
    .argument("<id>", "entry id, handle (S-12, H-3) or imported id")
    .description("show one entry and its event history")
    .addHelpText("after", "\nExamples:\n  $ cairn show S-12\n  $ cairn show 0191c3e2-7b1a-7c4e-9f1d-2a3b4c5d6e7f --json")
    .action(
      action(async (inv, ref: string) =>
        withCairn(inv, async (cairn) => {
          const entry = await cairn.get(ref);
          const events = await cairn.history(entry.id);
          if (inv.out.json) return inv.out.print({ entry, events });
          showEntry(entry, inv.out);
          inv.out.line();
          inv.out.line(inv.out.c.bold("history"));
          for (const ev of events) {
            const data = Object.keys(ev.data).length ? `  ${clean(JSON.stringify(ev.data))}` : "";
            inv.out.line(`  ${ev.at}  ${ev.type.padEnd(11)} ${ev.actor}${data}`);
          }
        }),
      ),
    );

  program
    .command("rejected")
    .description("recent lessons the gates rejected, with the reason (secrets are masked)")
    .addOption(new Option("--tier <tier>", "which tier's list").choices(TIERS).default("swarm"))
    .option("--limit <n>", "at most n", int("--limit"), 50)
    .addHelpText("after", "\nExamples:\n  $ cairn rejected\n  $ cairn rejected --tier hive --json")
    .action(
      action(async (inv, flags: { tier: Tier; limit: number }) =>
        withCairn(inv, async (cairn) => {
          const rows = await cairn.rejected(flags.tier, flags.limit);
          if (inv.out.json) return inv.out.print(rows);
          if (rows.length === 0) return inv.out.note("no rejected lessons");
          table(
            rows,
            [
              { header: "AT", value: (r) => r.at.slice(0, 19) },
              { header: "SOURCE", value: (r) => r.source },
              { header: "REASON", value: (r) => r.reason.slice(0, 60) },
              { header: "LESSON", value: (r) => r.lesson, flex: true },
            ],
            inv.out,
          ).forEach((l) => inv.out.line(l));
        }),
      ),
    );
}

export function entryTable(entries: readonly Entry[], out: Output): string[] {
  return table(
    entries,
    [
      { header: "ID", value: (e) => e.handle },
      { header: "TIER", value: (e) => e.tier },
      { header: "STATUS", value: (e) => e.lifecycle.status, color: (s, e) => statusColor(out, e.lifecycle.status)(s) },
      { header: "CATEGORY", value: (e) => e.category },
      { header: "CONF", value: (e) => e.lifecycle.confidence.toFixed(2) },
      { header: "LESSON", value: (e) => e.lesson, flex: true },
    ],
    out,
  );
}

function showEntry(e: Entry, out: Output): void {
  const { c } = out;
  const row = (k: string, v: string | undefined) => {
    if (v) out.line(`${c.dim(k.padEnd(12))} ${clean(v)}`);
  };
  out.line(`${c.bold(e.handle)}  ${statusColor(out, e.lifecycle.status)(e.lifecycle.status)}  ${e.tier}`);
  out.line(clean(e.lesson));
  out.line();
  row("id", e.id);
  row("title", e.title);
  row("why", e.why);
  row("category", `${e.category} / ${e.kind}`);
  row("scope", e.applicability.scope);
  row("tags", e.tags.join(", "));
  row("confidence", e.lifecycle.confidence.toFixed(2));
  row("confirmed", String(e.lifecycle.confirmations.length));
  row("reason", e.lifecycle.status_reason);
  row("flags", e.lifecycle.flags.join("; "));
  row("supersedes", e.lifecycle.supersedes);
  row("superseded", e.lifecycle.superseded_by);
  row("created", `${e.created_at} by ${e.provenance.created_by}`);
  row("source", e.provenance.source_project_name);
  row("external id", e.provenance.external_id);
  row("usage", `shown ${e.usage.shown}, applied ${e.usage.applied}, helpful ${e.usage.helpful}, harmful ${e.usage.harmful}`);
}
