// Setup and health commands: init, doctor, config, stats.
import fs from "node:fs";
import { Option, type Command } from "commander";
import { counted } from "../../../core/counted.js";
import { CairnError } from "../../../errors.js";
import { isPostgresUrl, maskUrl, teamUrlParts } from "../../../store/pg/url.js";
import { LATEST_SCHEMA_VERSION } from "../../../store/migrations.js";
import { action, readCairn, withCairn, type Invocation } from "../context.js";
import { EXIT } from "../errors.js";
import { interruptedExitCode, stopOnSignal } from "../interrupt.js";
import { clean, table } from "../format.js";
import { printGovernanceStats } from "./governance.js";
import type { Tier } from "../../../core/entry.js";
import { TIERS } from "../../../core/enums.js";
import type { VectorStatus } from "../../../embed/entry-vectors.js";

export function registerSetupCommands(program: Command): void {
  program
    .command("init")
    .description("create the project's .swarm/cairn.db and the hive (its folder too, if missing) and print where they are; the project folder must exist")
    .addHelpText(
      "after",
      `
With --hive postgres://… the team database is checked (and its schema created), and hive_url is
saved in your user config so every project uses it; keep the password in PGPASSWORD or ~/.pgpass.

Examples:
  $ cairn init
  $ cairn init --project ~/code/api --hive /tmp/team-hive.db
  $ cairn init --hive postgres://alice@db.internal:5432/team`,
    )
    .action(
      action(async (inv) =>
        withCairn(
          inv,
          async (cairn) => {
            const team = inv.hivePath !== undefined && isPostgresUrl(inv.hivePath) ? inv.hivePath : undefined;
            let saved: string | undefined;
            if (team) {
              const [, hive] = await cairn.doctor();
              if (!hive?.reachable) {
                const why = hive?.error ?? `The team hive ${maskUrl(team)} does not answer.`;
                const where = teamUrlParts(team)?.hostPort ?? "the URL's host and port";
                throw new CairnError(
                  "UNAVAILABLE",
                  `${why.replace(/\.?$/, ".")} hive_url was not saved: check that PostgreSQL is running at ${where} and that the URL's host, port and database are right, then run cairn init --hive again.`,
                );
              }
              const { updateUserConfig } = await import("../../../config.js");
              saved = updateUserConfig({ hive_url: team }, inv.env);
            }
            const info = { project: cairn.project, swarm: cairn.swarmPath, hive: cairn.hiveLocation ?? null, ...(saved ? { config: saved } : {}) };
            if (inv.out.json) return inv.out.print(info);
            inv.out.line(`project  ${cairn.project.name} (${cairn.project.id})`);
            inv.out.line(`swarm    ${clean(cairn.swarmPath)}`);
            inv.out.line(`hive     ${cairn.hiveLocation ? clean(cairn.hiveLocation) : "(disabled)"}`);
            if (saved) {
              inv.out.line(`config   hive_url saved in ${clean(saved)}`);
              if (team && new URL(team).password) inv.out.warn("the URL's password is stored in that file (owner-only); PGPASSWORD or ~/.pgpass keeps it out of config files");
            }
          },
          // Setting up is the one place a new hive's folder is made on request; elsewhere a missing one is a typo.
          { createHiveFolder: true },
        ),
      ),
    );

  program
    .command("doctor")
    .description("check database integrity, schema, paths, runtime versions and config sources")
    .option("--repair", "salvage a damaged database: keep it aside as <file>.damaged-<time> and copy every readable row into a fresh file")
    .addHelpText(
      "after",
      "\nExit code 1 when a database fails its integrity check (after --repair: when one is still damaged).\n\nExamples:\n  $ cairn doctor\n  $ cairn doctor --json\n  $ cairn doctor --repair",
    )
    .action(action(doctor));

  program
    .command("reindex")
    .description("give every lesson a vector of the current embedding model (after a model change, or lessons written while the endpoint was down)")
    .option("--tier <tier>", "swarm, hive or all", "all")
    .addHelpText(
      "after",
      `
Only entries without a vector of the current model are embedded, in batches: an interrupted run
resumes where it stopped. Vectors of other models stay until their entries are removed; recall
uses only the current model's. \`cairn doctor\` says when a reindex is needed.

Examples:
  $ cairn reindex
  $ cairn reindex --tier swarm --json`,
    )
    .action(
      action(async (inv, flags: { tier: string }) =>
        withCairn(inv, async (cairn) => {
          const tier = parseTier(flags.tier);
          const { countProgress } = await import("../progress.js");
          const bar = countProgress("embedding", inv.out.json);
          // The first Ctrl-C (or SIGTERM) stops after the batch in flight is stored, so the report can say what was kept.
          const interrupt = stopOnSignal({
            onFirst: () => {
              bar.stop();
              process.stderr.write("cairn reindex: stopping after the batch in flight (Ctrl-C again to stop at once)…\n");
            },
            onSecond: () => process.stderr.write("cairn reindex: stopped at once; the batch in flight was not stored, the vectors before it are kept. Run `cairn reindex` again to finish.\n"),
          });
          const reports = await cairn.reindex({ tier, onProgress: (p) => bar.update(p.done, p.total), signal: interrupt.signal }).finally(() => {
            bar.stop();
            interrupt.release();
          });
          const stopped = reports.some((r) => r.interrupted);
          if (stopped) {
            const told = reports.map((r) => `${r.tier}: ${r.embedded} embedded, ${r.remaining} still without a vector`).join("; ");
            inv.out.warn(`The reindex was interrupted (${told}): what was embedded is stored. Run \`cairn reindex\` again to finish where it stopped.`);
          }
          const code = stopped ? interruptedExitCode() : undefined;
          if (inv.out.json) {
            inv.out.print({ tiers: reports, ...(stopped ? { interrupted: true } : {}) });
            return code;
          }
          for (const r of reports) {
            inv.out.line(`${r.tier.padEnd(6)} ${r.embedded} embedded with ${r.space.modelId} (${r.space.dimension} dims)${r.skipped ? `, ${r.skipped} without a known word (text index only)` : ""}`);
          }
          return code;
        }),
      ),
    );

  program
    .command("config")
    .description("print every config key with its default and meaning, then the effective config")
    .addHelpText("after", "\nExamples:\n  $ cairn config\n  $ cairn config --json   # the effective config and where it came from")
    .action(
      action(async (inv) => {
        const { config: raw, sources } = await effectiveConfig(inv);
        const { configReference, redactConfig } = await import("../../../config.js");
        // Never the hive password: the URL is shown masked.
        const config = redactConfig(raw);
        if (inv.out.json) return inv.out.print({ config, sources });
        inv.out.line(configReference());
        inv.out.line();
        inv.out.line(`Effective config (sources: ${sources.join(", ") || "defaults"}):`);
        inv.out.line(JSON.stringify(config, null, 2));
      }),
    );

  program
    .command("stats")
    .description("entry counts by tier and status, usage totals, recent rejections")
    .addOption(new Option("--tier <tier>", "which tier's counts").choices(["all", ...TIERS]))
    .option("--governance", "the Knowledge Objects success metrics instead (lessons per task, approval rate, consultations, prevented, time to approve)")
    .addHelpText("after", "\nExamples:\n  $ cairn stats\n  $ cairn stats --tier hive --json\n  $ cairn stats --governance")
    .action(
      action(async (inv, flags: { governance?: boolean; tier?: Tier | "all" }) => {
        // The governance metrics are one figure over both tiers: a --tier would be silently ignored.
        if (flags.governance && flags.tier) throw new CairnError("INVALID_INPUT", "--governance measures both tiers together; drop --tier (or drop --governance for one tier's counts).");
        return readCairn(inv, async (cairn) => {
          if (flags.governance) return printGovernanceStats(inv, cairn);
          const stats = await cairn.stats({ tier: flags.tier ?? "all" });
          if (inv.out.json) return inv.out.print(stats);
          inv.out.line(`project ${stats.project.name} (${stats.project.id})`);
          const rows = table(
            stats.tiers,
            [
              { header: "TIER", value: (t) => t.tier },
              { header: "TOTAL", value: (t) => String(t.total) },
              { header: "SHOWN", value: (t) => String(t.shown) },
              { header: "APPLIED", value: (t) => String(t.applied) },
              { header: "REJECTED", value: (t) => String(t.rejected_recent) },
              { header: "VECTORS", value: (t) => (t.vectors ? vectorSummary(t.vectors) : "off") },
              { header: "BY STATUS", value: (t) => Object.entries(t.by_status).map(([k, v]) => `${k} ${v}`).join(", ") || "—", flex: true },
            ],
            inv.out,
          );
          rows.forEach((l) => inv.out.line(l));
        });
      }),
    );
}

function parseTier(t: string): Tier | "all" {
  if (t === "swarm" || t === "hive" || t === "all") return t;
  throw new CairnError("INVALID_INPUT", `Unknown tier "${t.slice(0, 40)}"; use swarm, hive or all.`);
}

/** "cairn-static-v1-… 256d: 1200" per stored model, the current one marked. */
function vectorSummary(v: VectorStatus): string {
  if (v.counts.length === 0) return "none";
  return v.counts
    .map((k) => `${k.modelId} ${k.dimension}d: ${k.entries}${v.current && k.modelId === v.current.modelId && k.dimension === v.current.dimension ? " (current)" : ""}`)
    .join(", ");
}

async function effectiveConfig(inv: Invocation) {
  const { loadConfig } = await import("../../../config.js");
  const overrides = inv.hivePath ? (isPostgresUrl(inv.hivePath) ? { hive_url: inv.hivePath } : { hive_path: inv.hivePath }) : undefined;
  return loadConfig({ projectDir: inv.projectDir, env: inv.env, ...(overrides ? { overrides } : {}) });
}

async function doctor(inv: Invocation, flags: { repair?: boolean } = {}): Promise<number> {
  const repairs = flags.repair ? await repair(inv) : [];
  return withCairn(inv, async (cairn) => {
    const sources = cairn.configSources;
    const problems = cairn.configProblems;
    const tiers = await cairn.doctor();
    // A note, not a failure: opencode-swarm's settings are its own until a person moves them.
    const { unreadSwarmSettings, settingText, unreadSettingsFix } = await import("../../../swarm-config.js");
    const unread = unreadSwarmSettings(inv.projectDir, inv.env, cairn.config);
    const ok = tiers.every((t) => t.integrity === "ok") && !tiers.some((t) => t.outbox?.dead) && problems.length === 0;
    const report = {
      ok,
      project: cairn.project,
      paths: { project: inv.projectDir, swarm: cairn.swarmPath, hive: cairn.hiveLocation ?? null },
      schema_version: LATEST_SCHEMA_VERSION,
      runtime: { node: process.versions.node, bun: process.versions.bun ?? null, platform: `${process.platform}-${process.arch}` },
      config_sources: sources,
      config_problems: problems,
      opencode_swarm_settings: unread,
      tiers,
      ...(flags.repair ? { repairs } : {}),
    };
    if (inv.out.json) inv.out.print(report);
    else {
      const { c } = inv.out;
      inv.out.line(`${ok ? c.green("ok") : c.red("PROBLEM")}  cairn doctor`);
      inv.out.line(`project   ${cairn.project.name} (${cairn.project.id}) at ${clean(inv.projectDir)}`);
      for (const t of tiers) {
        const mark = t.integrity === "ok" ? c.green("ok") : c.red(t.integrity);
        if (t.kind === "postgres" && !t.reachable) inv.out.line(`${t.tier.padEnd(9)} ${clean(t.location)}  ${c.red("unreachable")}: ${clean(t.error ?? "")}`);
        else if (t.kind === "postgres") inv.out.line(`${t.tier.padEnd(9)} ${clean(t.location)}  ${counted(t.entries, "entry", "entries")}  schema v${t.schema_version}  round trip ${t.latency_ms} ms  integrity ${mark}`);
        else inv.out.line(`${t.tier.padEnd(9)} ${clean(t.location)}  ${counted(t.entries, "entry", "entries")}  integrity ${mark}`);
        if (t.vectors) {
          const v = t.vectors;
          inv.out.line(`vectors   ${t.tier}: ${vectorSummary(v)}${v.reindexNeeded ? `  ${c.yellow(`${v.missing} without a ${v.current?.modelId ?? "current-model"} vector: run \`cairn reindex\``)}` : ""}`);
        }
        if (t.outbox) {
          const dead = t.outbox.dead ? c.red(`${t.outbox.dead} dead`) : "0 dead";
          inv.out.line(`outbox    ${t.outbox.pending} hive writes pending${t.outbox.oldest ? ` (oldest ${t.outbox.oldest})` : ""}, ${dead}`);
        }
      }
      for (const t of tiers) {
        if (t.read_only) inv.out.line(`${c.yellow("read-only")} ${clean(t.location)}: ${clean(t.read_only)} (reads work, writes are refused)`);
        if (t.damaged && t.error) inv.out.line(`${c.red("damaged")}   ${clean(t.error)}`);
      }
      for (const r of repairs) {
        const recovered = r.tables.reduce((n, t) => n + t.recovered, 0);
        const entries = r.tables.find((t) => t.table === "entries")?.recovered ?? 0;
        inv.out.line(`${c.green("repaired")}  ${clean(r.file)}: ${entries} lessons${r.entries_expected !== undefined ? ` of ${r.entries_expected}` : ""} and ${recovered - entries} other rows copied into a fresh file; damaged file kept as ${clean(r.kept_as)}`);
        if (r.unreadable) inv.out.line(`          nothing could be read from it (${clean(r.unreadable)})`);
        if (r.truncated) inv.out.line(`          the file was cut short: ${r.truncated.bytes} of ${r.truncated.expected_bytes} bytes remain, and the pages past its end are lost`);
        const hurt = r.tables.filter((t) => t.damaged).map((t) => (t.unreadable ? `${t.table} (${t.unreadable} known)` : t.table));
        if (hurt.length && !r.unreadable) inv.out.line(`          rows were lost on damaged or missing pages: ${hurt.join(", ")}`);
      }
      if (!cairn.hiveLocation) inv.out.line("hive      (disabled)");
      inv.out.line(`schema    v${LATEST_SCHEMA_VERSION}`);
      inv.out.line(`runtime   node ${process.versions.node}${process.versions.bun ? `, bun ${process.versions.bun}` : ""} (${report.runtime.platform})`);
      inv.out.line(`config    ${sources.length ? clean(sources.join(", ")) : "defaults only"}`);
      for (const p of problems) {
        inv.out.line(`${c.red("config")}    ${clean(p.file)}${p.key ? `: ${clean(p.key)}` : ""}: ${clean(p.problem)}`);
        inv.out.line(`          ${clean(p.fix)}`);
      }
      if (problems.length) inv.out.line("          (the checks above ran without the layers at fault; every other command refuses to run until they are fixed)");
      for (const u of unread) inv.out.line(`${c.yellow("note")}      ${clean(settingText(u))}`);
      if (unread.length) inv.out.line(`          ${clean(unreadSettingsFix(inv.env))}`);
    }
    return ok ? EXIT.OK : EXIT.FAILURE;
  }, { read: true, lenientConfig: true, quietDamage: true });
}

/** Rebuilds each damaged SQLite tier from what can still be read (the damaged file is kept aside). */
async function repair(inv: Invocation) {
  if (!fs.existsSync(inv.projectDir)) throw new CairnError("INVALID_INPUT", `Project directory ${inv.projectDir} does not exist.`);
  const { repairCairn } = await import("../../../engine.js");
  // The first Ctrl-C (or SIGTERM) stops the copy and removes it, the damaged file left in place (an INTERRUPTED error, exit 130/143).
  const interrupt = stopOnSignal({
    onFirst: () => process.stderr.write("cairn doctor: stopping the repair; the damaged file stays as it was (Ctrl-C again to stop at once)…\n"),
  });
  return repairCairn(
    { projectDir: inv.projectDir, ...(inv.hivePath ? { hivePath: inv.hivePath } : {}), actor: inv.actor, env: inv.env, createSwarm: false, lenientConfig: true, quietDamage: true },
    interrupt.signal,
  ).finally(() => interrupt.release());
}
