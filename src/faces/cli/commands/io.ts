// File commands: import (any supported format, bad lines reported by number) and export (lossless JSONL).
import fs from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import { counted } from "../../../core/counted.js";
import { TIERS, type Tier } from "../../../core/enums.js";
import { CairnError } from "../../../errors.js";
import { IMPORT_FORMATS, type ImportFormat } from "../../../io/types.js";
import { action, readCairn, withCairn } from "../context.js";
import { usageError } from "../errors.js";
import { interruptedExitCode, stopOnSignal } from "../interrupt.js";

/** How many skipped lines and warnings the text report lists, as many as the rejected rows it names; --json has them all. */
const LISTED_LINES = 100;

export function registerIoCommands(program: Command): void {
  program
    .command("import")
    .argument("<file>", "file to import")
    .description("import lessons through the normal write path; bad lines are skipped and reported by number")
    .addOption(new Option("--format <format>", "input format").choices(["auto", ...IMPORT_FORMATS]).default("auto"))
    .option("--trusted", "bulk load of existing data: skip the length limits, advice checks and vagueness (secrets, prompt injection and sanitising still apply) and keep each row's id as external_id")
    .addHelpText(
      "after",
      `
Exit codes: 0 even when lines were skipped (they are listed on stderr), 1 if the file cannot be read.

Examples:
  $ cairn import .swarm/knowledge.jsonl
  $ cairn import ~/.hive/memories.jsonl --format swarm-tools --trusted --json
  $ cairn import backup.jsonl     # a cairn export restores losslessly`,
    )
    .action(
      action(async (inv, file: string, flags: { format: ImportFormat | "auto"; trusted?: boolean }) => {
        // An import reads its file twice (its first lines tell the format), which a pipe cannot give.
        const saveFirst = "cairn import reads a file, not a pipe; save the input first, e.g. `… > lessons.jsonl && cairn import lessons.jsonl`.";
        if (file.trim() === "") throw usageError("cairn import needs a file to read, e.g. cairn import backup.jsonl.");
        if (file === "-") throw usageError(saveFirst);
        const abs = path.resolve(file);
        let stat: fs.Stats;
        try {
          fs.accessSync(abs, fs.constants.R_OK);
          stat = fs.statSync(abs);
        } catch (e) {
          throw new CairnError("IMPORT_ERROR", `Cannot read ${abs}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
        }
        if (stat.isDirectory()) throw new CairnError("IMPORT_ERROR", `Cannot read ${abs}: it is a folder; name a file in it.`);
        if (!stat.isFile()) throw usageError(`Cannot import ${abs}: ${saveFirst}`);
        const { importProgress } = await import("../progress.js");
        const progress = await importProgress(abs, inv.out.json);
        // The first Ctrl-C (or SIGTERM) stops after the batch in flight commits, so the report can say what was kept;
        // a second stops at once (SQLite rolls back the open batch).
        const interrupt = stopOnSignal({
          onFirst: () => {
            progress.stop();
            process.stderr.write("cairn import: stopping after the batch in flight (Ctrl-C again to stop at once)…\n");
          },
          onSecond: () => process.stderr.write("cairn import: stopped at once; the batch in flight was rolled back, everything before it is stored.\n"),
        });
        const report = await withCairn(inv, (c) =>
          c.importFile(abs, { format: flags.format, trusted: Boolean(flags.trusted), onProgress: (n) => progress.update(n), signal: interrupt.signal }),
        ).finally(() => {
          progress.stop();
          interrupt.release();
        });
        const code = report.interrupted ? interruptedExitCode() : undefined;
        if (report.interrupted) {
          inv.out.warn(`The import was interrupted: the rest of ${abs} was not read, and what the report counts is stored. Run the same import again to finish it (rows already imported are left unchanged or reinforced, never added twice).`);
        }
        if (inv.out.json) {
          inv.out.print(report);
          return code;
        }
        const { c } = inv.out;
        inv.out.line(
          `${report.interrupted ? "interrupted: " : ""}${c.green(`imported ${report.imported}`)}, reinforced ${report.reinforced}, unchanged ${report.unchanged}, ` +
            `rejected ${report.rejected}, skipped ${report.skipped_lines.length} line(s) (format ${report.format})`,
        );
        // The first of each, as for rejected rows: a file in another format would give a stderr line per line.
        for (const b of report.skipped_lines.slice(0, LISTED_LINES)) inv.out.warn(`line ${b.line}: ${b.error}`);
        if (report.skipped_lines.length > LISTED_LINES) inv.out.warn(`… and ${report.skipped_lines.length - LISTED_LINES} more skipped lines (--json lists every one)`);
        for (const r of report.rejections) inv.out.warn(`line ${r.line}: rejected: ${r.reason}`);
        for (const w of report.warnings.slice(0, LISTED_LINES)) inv.out.warn(`line ${w.line}: ${w.warning}`);
        if (report.warnings.length > LISTED_LINES) inv.out.warn(`… and ${report.warnings.length - LISTED_LINES} more warnings (--json lists every one)`);
        if (report.rejected > report.rejections.length) inv.out.warn(`… and ${report.rejected - report.rejections.length} more rejected`);
        if (report.refused_untrusted_only > 0) {
          inv.out.warn(
            `${report.refused_untrusted_only} of the ${report.rejected} rejected rows failed only checks a --trusted import skips (length, advice, vagueness, JSON records): ` +
              `if you trust this file, \`cairn import ${file} --trusted\` keeps them (secrets and prompt injection are refused either way).`,
          );
        }
        if (report.evicted) inv.out.warn(`${report.evicted} lesson(s) of lowest utility were evicted: the import took a tier past its cap (knowledge.*_max_entries)`);
        return code;
      }),
    );

  program
    .command("export")
    .argument("<file>", "file to write (a new one; an existing one only with --force, replaced atomically), or - for stdout")
    .description("write every field of every entry as JSONL; `cairn import` restores them exactly (each entry's event history stays behind: `cairn show` then starts at the import)")
    .addOption(new Option("--format <format>", "cairn adds a header line; jsonl is bare entries").choices(["cairn", "jsonl"]).default("cairn"))
    .addOption(new Option("--tier <tier>", "which tier").choices(["all", ...TIERS]).default("all"))
    .option("--force", "replace the file if it already exists")
    .addHelpText("after", "\nExamples:\n  $ cairn export backup.jsonl\n  $ cairn export backup.jsonl --force   # replace last week's\n  $ cairn export hive.jsonl --tier hive --json\n  $ cairn export - --tier swarm | gzip > swarm.jsonl.gz")
    .action(
      action(async (inv, file: string, flags: { format: "cairn" | "jsonl"; tier: Tier | "all"; force?: boolean }) => {
        // An empty name (an unset shell variable) resolved to the project folder, refused as "a folder".
        if (file.trim() === "") throw usageError("cairn export needs a file to write (or - for stdout), e.g. cairn export backup.jsonl.");
        // --json promises one JSON value on stdout, which `-` fills with the export's JSON Lines.
        if (file === "-" && inv.out.json) throw usageError("`export -` writes the entries to stdout as JSON Lines, so --json (one JSON value on stdout) cannot go with it: drop --json, or give a file to get the count as JSON.");
        return readCairn(inv, async (c) => {
          if (file === "-") {
            // stdout carries the entries: the count goes to stderr, as a note.
            const { written } = await c.exportFile(process.stdout, { format: flags.format, tier: flags.tier });
            return inv.out.note(`wrote ${counted(written, "entry", "entries")} to stdout`);
          }
          const abs = path.resolve(file);
          // Ctrl-C stops the export between two entries, so the temp file beside the target is removed; a second one stops at once.
          const interrupt = stopOnSignal();
          const { written } = await c.exportFile(abs, { format: flags.format, tier: flags.tier, overwrite: flags.force === true, signal: interrupt.signal }).finally(() => interrupt.release());
          if (inv.out.json) return inv.out.print({ written, file: abs });
          inv.out.line(`wrote ${counted(written, "entry", "entries")} to ${abs}`);
        });
      }),
    );
}
