// Team hive commands: push a hive file into PostgreSQL, pull it back, see and replay the outbox.
import type { Command } from "commander";
import { counted } from "../../../core/counted.js";
import { CairnError } from "../../../errors.js";
import type { CopyReport } from "../../../hive/copy.js";
import { isPostgresUrl, maskUrl, urlScheme } from "../../../store/pg/url.js";
import { action, readCairn, withCairn, type Invocation } from "../context.js";
import { EXIT } from "../errors.js";
import { interruptedExitCode, stopOnSignal } from "../interrupt.js";

// The engine, config and copy code load only when a hive command runs (`cairn --help` loads none of them).
async function configOf(inv: Invocation) {
  const { loadConfig } = await import("../../../config.js");
  return loadConfig({ projectDir: inv.projectDir, env: inv.env }).config;
}

/**
 * Copies with Ctrl-C and SIGTERM heard: the first stops between two entries (each copied whole), the report
 * says how many of how many, and the exit is 130 or 143; a second stops at once (the entry in flight rolled back).
 */
async function transfer(verb: string, from: string, to: string, config: Awaited<ReturnType<typeof configOf>>, inv: Invocation): Promise<number | undefined> {
  const { transferHive } = await import("../../../hive/copy.js");
  const interrupt = stopOnSignal({
    onFirst: () => process.stderr.write(`cairn hive ${verb}: stopping after the entry in flight (Ctrl-C again to stop at once)…\n`),
    onSecond: () => process.stderr.write(`cairn hive ${verb}: stopped at once; the entry in flight was rolled back, those before it are copied. Run the same command again to finish.\n`),
  });
  const r = await transferHive(from, to, config, progress(inv), interrupt.signal).finally(() => interrupt.release());
  if (r.interrupted) {
    const copied = r.inserted + r.merged + r.unchanged;
    inv.out.warn(`The ${verb} was interrupted: ${copied} of ${r.total ?? "?"} entries copied (each whole, with its history), the rest not. Run the same command again to finish (copied entries are left unchanged).`);
  }
  printCopy(inv, verb === "push" ? "pushed" : "pulled", r);
  return r.interrupted ? interruptedExitCode() : undefined;
}

function printCopy(inv: Invocation, verb: string, r: CopyReport): void {
  if (inv.out.json) return inv.out.print(r);
  const { c } = inv.out;
  inv.out.line(`${c.green(verb)} ${r.from} → ${r.to}`);
  inv.out.line(`  ${r.inserted} new, ${r.merged} merged into the same lesson, ${r.unchanged} already there; ${r.events} events copied`);
  if (r.vectors) inv.out.line(`  ${r.vectors} entry vectors copied`);
  if (r.vectorsSkipped) inv.out.warn(`  vectors not copied: ${r.vectorsSkipped}`);
  for (const x of r.renumbered.slice(0, 20)) inv.out.warn(`  ${x.from} is ${x.to} in the target (its number was taken there)`);
  if (r.renumbered.length > 20) inv.out.warn(`  … and ${r.renumbered.length - 20} more renumbered`);
}

/** Progress for long copies on stderr, every 500 entries (never on stdout, never for --json pipes). */
function progress(inv: Invocation): (n: number) => void {
  return (n) => {
    if (n % 500 === 0 && !inv.out.json) process.stderr.write(`copied ${n} entries…\n`);
  };
}

export function registerHiveCommands(program: Command): void {
  const hive = program.command("hive").description("the team hive on PostgreSQL: move a hive there and back, see and replay the outbox");

  hive
    .command("push")
    .description("copy a hive file into a PostgreSQL hive: ids, handles, history and confirmations kept; running it again changes nothing")
    .option("--to <url>", "target database (default: config hive_url / CAIRN_HIVE_URL)")
    .option("--from <file>", "hive file to copy (default: your hive file)")
    .addHelpText(
      "after",
      `
Lessons already in the target under another id are merged into it (confirmations united), never
duplicated, so teammates can each push their own hive into one team database.

Examples:
  $ cairn hive push --to postgres://cairn@db.internal/team
  $ cairn hive push --from ~/backup/hive.db --to postgres://cairn@db.internal/team --json`,
    )
    .action(
      action(async (inv, flags: { to?: string; from?: string }) => {
        const config = await configOf(inv);
        const to = flags.to ?? config.hive_url;
        if (!to) throw new CairnError("INVALID_INPUT", "Give the team database: --to postgres://user@host/db (or set hive_url / CAIRN_HIVE_URL).");
        if (!isPostgresUrl(to)) {
          // A file path means push and pull were swapped; another database's URL is not a file to pull into.
          const instead = urlScheme(String(to))
            ? "a team hive is PostgreSQL only (postgres://user@host:5432/db)"
            : "push copies a hive file into a team database; to copy the team hive into a file, run `cairn hive pull --to " + maskUrl(to) + "`";
          throw notTeamDatabase("--to", to, instead);
        }
        const { resolveHivePath } = await import("../../../engine.js");
        const from = flags.from ?? resolveHivePath({ env: inv.env, ...(inv.hivePath && !isPostgresUrl(inv.hivePath) ? { hivePath: inv.hivePath } : {}) }, config);
        return transfer("push", from, to, config, inv);
      }),
    );

  hive
    .command("pull")
    .description("copy a PostgreSQL hive into a hive file (a backup, or to work offline); idempotent like push")
    .option("--from <url>", "source database (default: config hive_url / CAIRN_HIVE_URL)")
    .requiredOption("--to <file>", "hive file to write into (created if missing; existing lessons are merged, not duplicated)")
    .addHelpText("after", "\nExamples:\n  $ cairn hive pull --to ~/backup/team-hive.db\n  $ cairn hive pull --from postgres://cairn@db.internal/team --to team.db --json")
    .action(
      action(async (inv, flags: { from?: string; to: string }) => {
        const config = await configOf(inv);
        const from = flags.from ?? config.hive_url;
        if (!from) throw new CairnError("INVALID_INPUT", "Give the team database: --from postgres://user@host/db (or set hive_url / CAIRN_HIVE_URL).");
        if (!isPostgresUrl(from)) throw notTeamDatabase("--from", from, "pull copies a team database into a file; to copy a hive file into the team database, run `cairn hive push --from " + maskUrl(from) + "`");
        if (isPostgresUrl(flags.to)) throw new CairnError("INVALID_INPUT", "--to is a hive file; to copy between databases, pull into a file and push it.");
        return transfer("pull", from, flags.to, config, inv);
      }),
    );

  hive
    .command("status")
    .description("where the hive is, whether it answers, and this project's outbox of hive writes waiting for it")
    .addHelpText("after", "\nExit code 1 when the team hive does not answer or writes are parked (dead).\n\nExamples:\n  $ cairn hive status\n  $ cairn hive status --json")
    .action(
      action(async (inv) =>
        readCairn(inv, async (c) => {
          const tiers = await c.doctor();
          const hiveTier = tiers.find((t) => t.tier === "hive");
          const box = await c.outbox(20);
          const report = { hive: hiveTier ?? null, outbox: box.counts, pending: box.pending, dead: box.dead };
          const ok = hiveTier?.reachable !== false && box.counts.dead === 0;
          if (inv.out.json) inv.out.print(report);
          else {
            const { c: col } = inv.out;
            if (!hiveTier) inv.out.line("hive      (disabled)");
            else if (hiveTier.kind === "sqlite") inv.out.line(`hive      ${hiveTier.location} (a file on this machine)`);
            else if (hiveTier.reachable) inv.out.line(`hive      ${hiveTier.location}  ${col.green("reachable")}  ${hiveTier.latency_ms} ms  schema v${hiveTier.schema_version}  ${counted(hiveTier.entries, "entry", "entries")}`);
            else inv.out.line(`hive      ${hiveTier.location}  ${col.red("unreachable")}: ${hiveTier.error ?? ""}`);
            inv.out.line(`outbox    ${box.counts.pending} pending${box.counts.oldest ? ` (oldest ${box.counts.oldest})` : ""}, ${box.counts.dead} dead`);
            for (const d of box.dead) inv.out.warn(`  dead ${d.op} ${d.id}: ${d.last_error ?? ""}`);
          }
          return ok ? EXIT.OK : EXIT.FAILURE;
        }),
      ),
    );

  hive
    .command("sync")
    .description("replay this project's outbox into the team hive now (it also replays by itself when the hive is back)")
    .addHelpText("after", "\nExamples:\n  $ cairn hive sync\n  $ cairn hive sync --json")
    .action(
      action(async (inv) =>
        withCairn(inv, async (c) => {
          const r = await c.syncOutbox();
          if (inv.out.json) inv.out.print(r);
          else inv.out.line(`replayed ${r.applied}, parked ${r.dead} (see \`cairn hive status\`), ${r.pending} still waiting`);
          return r.dead > 0 ? EXIT.FAILURE : EXIT.OK;
        }),
      ),
    );
}

/** A hive option that names a file (or anything else) where a team database is wanted, said with what to run instead. */
function notTeamDatabase(flag: string, given: string, instead: string): CairnError {
  return new CairnError("INVALID_INPUT", `${flag} ${maskUrl(given)} is not a postgres:// URL: ${instead}.`);
}
