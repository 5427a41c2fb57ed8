// Learning commands: `reflect` drains the reflection queue and shows what is stuck in it.
import { Option, type Command } from "commander";
import type { QueueStatus } from "../../../store/store.js";
import { action, int, withCairn } from "../context.js";

export function registerLearningCommands(program: Command): void {
  program
    .command("reflect")
    .description("process recorded task outcomes now (implicit feedback and extracted lessons)")
    .option("--max <n>", "at most n outcomes", int("--max"), 1000)
    .addOption(new Option("--list <status>", "list queue items in this state instead of processing").choices(["pending", "processing", "done", "dead"]))
    .addHelpText("after", "\nExamples:\n  $ cairn reflect\n  $ cairn reflect --list dead --json")
    .action(
      action(async (inv, flags: { max: number; list?: QueueStatus }) =>
        withCairn(
          inv,
          async (cairn) => {
            if (flags.list) {
              const q = await cairn.queue(flags.list, 200);
              if (inv.out.json) return inv.out.print(q);
              inv.out.line(`queue: ${Object.entries(q.counts).map(([k, v]) => `${k} ${v}`).join(", ") || "empty"}`);
              for (const item of q.items) inv.out.line(`${item.id}  attempts ${item.attempts}${item.last_error ? `  error: ${item.last_error}` : ""}`);
              return;
            }
            const report = await cairn.reflect({ maxItems: flags.max });
            const q = await cairn.queue("dead", 0);
            if (inv.out.json) return inv.out.print({ ...report, queue: q.counts });
            inv.out.line(
              `processed ${report.processed}, lessons added ${report.lessons_added}, entries scored ${report.entries_scored}, ` +
                `failed ${report.failed}, dead-lettered ${report.dead}`,
            );
          },
          // Listing only looks: a folder with no database keeps having none.
          { read: Boolean(flags.list) },
        ),
      ),
    );
}
